//! A product of two BF16 tensors whose sums pass bf16's integer limit, against the f32 sum
//! `scripts/gen_bf16_matmul.py` computes with numpy (bf16 emulated there by rounding f32
//! bits). tg has no bf16 dtype: a BF16 tensor's values widen to f32 inside the kernel that
//! reads them, so products and their sum are f32 and the result is f32; the fixture also
//! records what a bf16 accumulator would reach, and the test checks tg is far from it.

use std::path::PathBuf;

use tg_gguf::{GgmlType, Layout, QTensor, TensorInfo};
use tg_ops::DynTensor;
use tg_runtime::DType;

fn fixture() -> serde_json::Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/bf16_matmul.json");
    let text = std::fs::read_to_string(path).expect("fixtures/bf16_matmul.json");
    serde_json::from_str(&text).unwrap()
}

fn numbers<T>(v: &serde_json::Value, key: &str, f: impl Fn(&serde_json::Value) -> T) -> Vec<T> {
    v[key].as_array().expect(key).iter().map(f).collect()
}

/// A BF16 tensor of `shape` with these bits, placed on the device in `layout`.
fn bf16(name: &str, shape: [usize; 2], bits: &[u16], layout: Layout) -> QTensor {
    let bytes: Vec<u8> = bits.iter().flat_map(|b| b.to_le_bytes()).collect();
    let info = TensorInfo {
        name: name.into(),
        ty: GgmlType::Bf16,
        shape: shape.to_vec(),
        offset: 0,
        bytes: bytes.len(),
    };
    QTensor::new(&info, &bytes, layout).unwrap()
}

#[test]
fn bf16_matmul_accumulates_in_f32() {
    let f = fixture();
    let dim = |k: &str| f[k].as_u64().unwrap() as usize;
    let (m, n, k) = (dim("m"), dim("n"), dim("k"));
    let bits = |key| numbers(&f, key, |v| v.as_u64().unwrap() as u16);
    let (xb, wb) = (bits("x_bf16_bits"), bits("w_bf16_bits"));
    let want = numbers(&f, "want_f32", |v| v.as_f64().unwrap() as f32);
    let lost = numbers(&f, "bf16_accumulation_f32", |v| v.as_f64().unwrap() as f32);
    for layout in [Layout::Blocks, Layout::Planes] {
        let x = bf16("x", [m, k], &xb, layout).values().unwrap();
        let w = bf16("w", [n, k], &wb, layout);
        let y: DynTensor = w.matmul_t(&x).unwrap();
        assert_eq!((y.shape(), y.dtype()), (&[m, n][..], DType::F32));
        let got = y.to_vec::<f32>().unwrap();
        for (i, ((g, w), l)) in got.iter().zip(&want).zip(&lost).enumerate() {
            assert!(
                (g - w).abs() <= 1e-6 * w.abs(),
                "{layout:?} element {i}: got {g}, want {w}"
            );
            assert!((g - l).abs() > 0.02 * w.abs(), "{layout:?} element {i}");
        }
    }
}
