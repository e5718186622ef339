//! Inputs read through uniform texel buffers (CPU kernels, `Program::texels`) against the
//! same graphs reading storage buffers (`TG_STORAGE_READS=1` in a child process: the setting
//! applies when the device is created): every dtype of at most 32 bits read element by
//! element (a flip), as vectors and pairs, gathered by row, and from a window of a larger
//! buffer whose last texel reaches into the buffer past it, and a fused attention's passes
//! (the template's own reads), bit for bit. (Each path's values against numpy:
//! `primitives`, which runs on both classes; the attention's against the host: `attention`.)

use crate::device_common::*;
use tg_runtime::device::{Device, take_validation_messages};
use tg_runtime::target::Target;
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp};

/// The dtypes read through texels, and byte patterns for them that are finite where floats.
const DTYPES: [DType; 9] = [
    DType::Bool,
    DType::U8,
    DType::I8,
    DType::U16,
    DType::I16,
    DType::F16,
    DType::U32,
    DType::I32,
    DType::F32,
];

fn bytes_of(d: DType, n: usize, salt: usize) -> Vec<u8> {
    (0..n * d.size())
        .map(|i| {
            let b = (i * 37 + salt * 11 + 5) as u8;
            match (d, i % d.size()) {
                (DType::Bool, _) => b & 1,
                // sign and exponent bytes of floats kept small: finite, no NaN
                (DType::F16, 1) | (DType::F32, 3) => b & 0x3f,
                _ => b,
            }
        })
        .collect()
}

/// Results of every read shape for every dtype, as f32 bytes in one vector.
fn results() -> Vec<u8> {
    let device = Device::get().unwrap();
    let mut out = Vec::new();
    for (k, d) in DTYPES.into_iter().enumerate() {
        // 1027 elements: not whole vectors (element by element); 1024: pairs
        for n in [1027, 1024] {
            let x = Lazy::from_bytes(d, &[n], bytes_of(d, n, k)).unwrap();
            let f = x.cast(DType::F32);
            let y = f
                .binary(BinaryOp::Add, &f.flip(&[0]).unwrap())
                .unwrap()
                .binary(
                    BinaryOp::Add,
                    &f.reduce(ReduceOp::Max, &[0]).unwrap().expand(&[n]).unwrap(),
                )
                .unwrap();
            out.extend(y.to_bytes().unwrap());
        }
        // rows of a table gathered
        let table = Lazy::from_bytes(d, &[64, 24], bytes_of(d, 64 * 24, k)).unwrap();
        let ids: Vec<u8> = [3i32, 63, 0, 17]
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect();
        let ids = Lazy::from_bytes(DType::I32, &[4, 1], ids)
            .unwrap()
            .expand(&[4, 24])
            .unwrap();
        out.extend(
            table
                .gather(0, &ids)
                .unwrap()
                .cast(DType::F32)
                .to_bytes()
                .unwrap(),
        );
    }
    // a fused attention's three passes under a mask (rows of 16 and 8: pairs where the
    // child reads storage), its output and the gradients
    let f32s = |shape: &[usize], salt: usize| {
        let n = shape.iter().product();
        Lazy::from_bytes(DType::F32, shape, bytes_of(DType::F32, n, salt)).unwrap()
    };
    let [q, k, v] = [([2, 37, 16], 1), ([2, 37, 16], 2), ([2, 37, 8], 3)]
        .map(|(shape, salt)| Lazy::parameter(&f32s(&shape, salt)).unwrap());
    let attended = q
        .attention(&k, &v, false, Some(&f32s(&[1, 37, 37], 4)))
        .unwrap();
    let grads = attended
        .gradient(&[&q, &k, &v], Some(&f32s(&[2, 37, 9], 5)))
        .unwrap();
    for y in std::iter::once(&attended).chain(&grads) {
        out.extend(y.to_bytes().unwrap());
    }
    // a window of 20 bytes (17 u8 in whole vectors of four), a texel and a quarter, at the
    // device's alignment into a larger buffer
    let buffer = device.alloc(4096).unwrap();
    let data: Vec<u8> = (0..4096).map(|i| (i % 251) as u8).collect();
    device.write(&buffer, 0, &data).unwrap();
    let align = device.info().window_alignment;
    let w = buffer.window(align, 20, align).unwrap();
    let x = Lazy::from_buffer(w, DType::U8, &[17])
        .unwrap()
        .cast(DType::F32);
    out.extend(x.binary(BinaryOp::Mul, &x).unwrap().to_bytes().unwrap());
    assert_eq!(take_validation_messages(), Vec::<String>::new());
    out
}

#[test]
fn texel_reads_match_storage_reads() {
    let device = Device::get().unwrap();
    let target = Target::of(device.info());
    if device.info().kernel_class() == tg_runtime::device::KernelClass::Cpu {
        assert!(target.lowering.texel_bytes > 0, "{}", device.info());
    }
    let validation = std::env::var("TG_VALIDATION").unwrap_or_default();
    let class = std::env::var("TG_DEVICE_CLASS").unwrap_or_default();
    let out = run_child(
        "child_storage_reads",
        &[
            ("TG_STORAGE_READS", "1"),
            ("TG_VALIDATION", &validation),
            ("TG_DEVICE_CLASS", &class),
        ],
    );
    let mine = results();
    assert_eq!(child_value(&out, "BYTES"), mine.len().to_string());
    assert_eq!(child_value(&out, "DIGEST"), digest(&mine));
    // and the window's squares, exactly
    let start = device.info().window_alignment;
    let tail = &mine[mine.len() - 17 * 4..];
    let want: Vec<u8> = (start..start + 17)
        .flat_map(|i| (((i % 251) * (i % 251)) as f32).to_le_bytes())
        .collect();
    assert_eq!(tail, &want[..]);
}

#[test]
#[ignore = "run by texel_reads_match_storage_reads"]
fn child_storage_reads() {
    let device = Device::get().unwrap();
    assert!(device.info().storage_reads);
    assert_eq!(Target::of(device.info()).lowering.texel_bytes, 0);
    let out = results();
    println!("BYTES={}", out.len());
    println!("DIGEST={}", digest(&out));
}

/// FNV-1a of `bytes`, in hex.
fn digest(bytes: &[u8]) -> String {
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{h:016x}")
}
