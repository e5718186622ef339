//! Dequantization of every supported type against the gguf package's own dequantizer
//! (`scripts/gen_gguf_fixtures.py`), bit for bit: on the host, and on the device in both
//! layouts (the test command runs this file on the CPU and the GPU device class).

use std::path::PathBuf;

use tg_gguf::{GgmlType, GgufFile, Layout, QTensor, host};

fn fixture() -> GgufFile {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/gguf/quant.gguf");
    GgufFile::open(path).expect("fixtures/gguf/quant.gguf (scripts/gen_gguf_fixtures.py)")
}

/// Equal bits, or both NaN (a NaN's payload after arithmetic is the hardware's choice).
fn assert_same(ty: GgmlType, what: &str, got: &[f32], want: &[f32]) {
    assert_eq!(got.len(), want.len(), "{ty} {what}: lengths");
    let mut bad = 0;
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g.to_bits() != w.to_bits() && !(g.is_nan() && w.is_nan()) {
            if bad < 5 {
                eprintln!(
                    "{ty} {what}: element {i}: got {g:e} ({:08x}), want {w:e} ({:08x})",
                    g.to_bits(),
                    w.to_bits()
                );
            }
            bad += 1;
        }
    }
    assert_eq!(bad, 0, "{ty} {what}: {bad} of {} values differ", got.len());
}

fn expected(file: &GgufFile, ty: GgmlType) -> Vec<f32> {
    let info = file.tensor(&format!("{}.expected", ty.name())).unwrap();
    assert_eq!(info.ty, GgmlType::F32);
    host::dequantize_tensor(info, file.tensor_bytes(info)).unwrap()
}

#[test]
fn every_supported_type_is_in_the_fixture() {
    let file = fixture();
    for ty in GgmlType::SUPPORTED {
        let info = file.tensor(ty.name()).unwrap();
        assert_eq!(info.ty, ty);
        assert_eq!(info.shape, vec![4, 512]);
    }
}

#[test]
fn host_dequantization_is_bit_exact() {
    let file = fixture();
    for ty in GgmlType::SUPPORTED {
        let info = file.tensor(ty.name()).unwrap();
        let got = host::dequantize_tensor(info, file.tensor_bytes(info)).unwrap();
        assert_same(ty, "host", &got, &expected(&file, ty));
    }
}

#[test]
fn device_dequantization_is_bit_exact_in_both_layouts() {
    let file = fixture();
    for layout in [Layout::Planes, Layout::Blocks] {
        for ty in GgmlType::SUPPORTED {
            let info = file.tensor(ty.name()).unwrap();
            let q = QTensor::new(info, file.tensor_bytes(info), layout).unwrap();
            let got = q.dequantize().unwrap().to_vec::<f32>().unwrap();
            assert_same(
                ty,
                &format!("device {layout:?}"),
                &got,
                &expected(&file, ty),
            );
        }
    }
}

#[test]
fn unsupported_types_are_typed_errors() {
    let file = fixture();
    let mut info = file.tensor("Q8_0").unwrap().clone();
    info.ty = GgmlType::Q2K;
    let err = QTensor::new(&info, &[], Layout::Planes).unwrap_err();
    assert!(
        matches!(&err, tg_gguf::Error::UnsupportedTensorType { tensor, ty: GgmlType::Q2K } if tensor == "Q8_0"),
        "{err}"
    );
}
