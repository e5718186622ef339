//! Damaged GGUF files: each kind of damage is its own typed error naming the tensor or key at
//! fault, and random damage never panics (a deterministic fuzz over the fixture's bytes).

use std::path::PathBuf;

use tg_gguf::{Error, GgmlType, GgufFile, host};

/// A tensor entry of a hand-made file: name, dims (innermost first), type id, offset.
struct T<'a>(&'a str, Vec<u64>, u32, u64);

fn string(out: &mut Vec<u8>, s: &str) {
    out.extend((s.len() as u64).to_le_bytes());
    out.extend(s.as_bytes());
}

/// A GGUF v3 file with one u32 key (`general.alignment` when `alignment` is given, else
/// `test.key`), the tensors, and `data` as the data section.
fn file(alignment: Option<u32>, tensors: &[T], data: &[u8]) -> Vec<u8> {
    let mut out = b"GGUF".to_vec();
    out.extend(3u32.to_le_bytes());
    out.extend((tensors.len() as u64).to_le_bytes());
    out.extend(1u64.to_le_bytes());
    string(
        &mut out,
        if alignment.is_some() {
            "general.alignment"
        } else {
            "test.key"
        },
    );
    out.extend(4u32.to_le_bytes());
    out.extend(alignment.unwrap_or(7).to_le_bytes());
    for t in tensors {
        string(&mut out, t.0);
        out.extend((t.1.len() as u32).to_le_bytes());
        for d in &t.1 {
            out.extend(d.to_le_bytes());
        }
        out.extend(t.2.to_le_bytes());
        out.extend(t.3.to_le_bytes());
    }
    let a = alignment.unwrap_or(32) as usize;
    while !out.len().is_multiple_of(a) {
        out.push(0);
    }
    out.extend(data);
    out
}

fn good() -> Vec<u8> {
    // an f32 [2, 8] and a Q8_0 [1, 32]
    file(
        None,
        &[T("a", vec![8, 2], 0, 0), T("b", vec![32], 8, 64)],
        &[0u8; 64 + 34],
    )
}

fn err(bytes: Vec<u8>) -> Error {
    GgufFile::from_bytes(bytes).expect_err("a damaged file must not open")
}

#[test]
fn a_good_file_opens() {
    let f = GgufFile::from_bytes(good()).unwrap();
    assert_eq!(f.version(), 3);
    assert_eq!(f.tensors().len(), 2);
    assert_eq!(f.tensor("a").unwrap().shape, vec![2, 8]);
    assert_eq!(f.tensor("b").unwrap().ty, GgmlType::Q8_0);
    assert_eq!(f.metadata().usize("test.key").unwrap(), 7);
    assert!(matches!(f.tensor("c"), Err(Error::MissingTensor { tensor }) if tensor == "c"));
}

#[test]
fn header_damage() {
    assert!(matches!(err(b"GGU".to_vec()), Error::Truncated { .. }));
    assert!(matches!(err(Vec::new()), Error::Truncated { .. }));
    let mut b = good();
    b[0] = b'X';
    assert!(matches!(err(b), Error::BadMagic { found } if &found == b"XGUF"));
    let mut b = good();
    b[4..8].copy_from_slice(&1u32.to_le_bytes());
    assert!(matches!(err(b), Error::UnsupportedVersion { version: 1 }));
    let mut b = good();
    b[4..8].copy_from_slice(&3u32.to_be_bytes()); // a big-endian file
    assert!(matches!(err(b), Error::UnsupportedVersion { .. }));
}

#[test]
fn counts_that_cannot_fit() {
    let mut b = good();
    b[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(err(b), Error::CountTooLarge { what, .. } if what == "tensor count"));
    let mut b = good();
    b[16..24].copy_from_slice(&(1u64 << 60).to_le_bytes());
    assert!(matches!(err(b), Error::CountTooLarge { what, .. } if what == "metadata key count"));
    let mut b = good();
    b[24..32].copy_from_slice(&(u64::MAX - 3).to_le_bytes()); // the key's length
    assert!(matches!(err(b), Error::CountTooLarge { .. }));
}

#[test]
fn metadata_damage() {
    let mut b = good();
    let key_type = 24 + 8 + "test.key".len();
    b[key_type..key_type + 4].copy_from_slice(&99u32.to_le_bytes());
    assert!(matches!(err(b), Error::UnknownValueType { key, type_id: 99 } if key == "test.key"));
    let mut b = good();
    b[32] = 0xff; // the key's first byte: not UTF-8
    assert!(matches!(err(b), Error::InvalidString { .. }));
    let b = file(Some(24), &[], &[]);
    assert!(matches!(err(b), Error::BadAlignment { alignment: 24 }));
}

#[test]
fn tensor_table_damage_names_the_tensor() {
    let named = |e: &Error, want: &str| format!("{e}").contains(&format!("{want:?}"));
    let e = err(file(None, &[T("w", vec![32], 99, 0)], &[0; 64]));
    assert!(
        matches!(&e, Error::UnknownTensorType { tensor, type_id: 99 } if tensor == "w"),
        "{e}"
    );
    let e = err(file(None, &[T("w", vec![8], 0, 64)], &[0; 64]));
    assert!(
        matches!(&e, Error::TensorOutOfBounds { tensor, offset: 64, bytes: 32, data_len: 64 } if tensor == "w"),
        "{e}"
    );
    let e = err(file(None, &[T("w", vec![8], 0, u64::MAX - 8)], &[0; 64]));
    assert!(
        matches!(
            &e,
            Error::Misaligned { .. } | Error::TensorOutOfBounds { .. }
        ) && named(&e, "w"),
        "{e}"
    );
    let e = err(file(None, &[T("w", vec![8], 0, 4)], &[0; 64]));
    assert!(
        matches!(&e, Error::Misaligned { tensor, offset: 4, alignment: 32 } if tensor == "w"),
        "{e}"
    );
    let e = err(file(
        None,
        &[T("w", vec![1 << 40, 1 << 40], 0, 0)],
        &[0; 64],
    ));
    assert!(
        matches!(&e, Error::TensorShape { tensor, .. } if tensor == "w"),
        "{e}"
    );
    let e = err(file(None, &[T("w", vec![8, 0], 0, 0)], &[0; 64]));
    assert!(
        matches!(&e, Error::TensorShape { tensor, .. } if tensor == "w"),
        "{e}"
    );
    let e = err(file(None, &[T("w", vec![1, 1, 1, 1, 1], 0, 0)], &[0; 64]));
    assert!(
        matches!(&e, Error::TensorShape { tensor, .. } if tensor == "w"),
        "{e}"
    );
    let e = err(file(None, &[T("w", vec![16], 8, 0)], &[0; 64]));
    assert!(
        matches!(&e, Error::TensorShape { tensor, .. } if tensor == "w"),
        "rows not whole blocks: {e}"
    );
    let e = err(file(
        None,
        &[T("w", vec![8], 0, 0), T("w", vec![8], 0, 32)],
        &[0; 64],
    ));
    assert!(
        matches!(&e, Error::DuplicateTensor { tensor } if tensor == "w"),
        "{e}"
    );
    let e = err(file(
        None,
        &[T("v", vec![16], 0, 0), T("w", vec![8], 0, 32)],
        &[0; 64],
    ));
    assert!(
        matches!(&e, Error::OverlappingTensors { .. }) && named(&e, "w"),
        "{e}"
    );
}

#[test]
fn truncated_data_names_the_tensor() {
    let mut b = good();
    b.truncate(b.len() - 1);
    let e = err(b);
    assert!(
        matches!(&e, Error::TensorOutOfBounds { tensor, .. } if tensor == "b"),
        "{e}"
    );
}

#[test]
fn a_missing_file_is_an_io_error() {
    let e = GgufFile::open("/nonexistent/model.gguf").unwrap_err();
    assert!(matches!(e, Error::Io { .. }));
}

/// xorshift64*: the fuzz is the same every run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Random damage to the fixture (flipped bytes, overwritten counts and offsets, truncation),
/// concentrated on the header and tensor table: every result opens or fails with an error,
/// and every tensor of a file that opens decodes without a panic.
#[test]
fn random_damage_never_panics() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/gguf/quant.gguf");
    let original = std::fs::read(path).unwrap();
    let table_end = 1200.min(original.len());
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut opened, mut failed) = (0, 0);
    let cases = if std::env::var("TG_LONG_TESTS").is_ok_and(|v| v == "1") {
        200_000
    } else {
        3_000
    };
    for _ in 0..cases {
        let mut b = original.clone();
        match rng.below(4) {
            0 => {
                for _ in 0..1 + rng.below(4) {
                    let i = rng.below(table_end);
                    b[i] ^= 1 << rng.below(8);
                }
            }
            1 => {
                let i = rng.below(table_end - 8);
                let v: u64 = match rng.below(3) {
                    0 => u64::MAX - rng.below(64) as u64,
                    1 => 1 << rng.below(64),
                    _ => rng.next(),
                };
                b[i..i + 8].copy_from_slice(&v.to_le_bytes());
            }
            2 => b.truncate(rng.below(original.len())),
            _ => {
                let i = rng.below(table_end);
                b[i] = rng.next() as u8;
                b.truncate(original.len() - rng.below(64));
            }
        }
        match GgufFile::from_bytes(b) {
            Ok(f) => {
                opened += 1;
                for t in f.tensors() {
                    if t.ty.supported() {
                        let v = host::dequantize_tensor(t, f.tensor_bytes(t)).unwrap();
                        assert_eq!(v.len(), t.numel());
                    }
                }
            }
            Err(_) => failed += 1,
        }
    }
    assert!(
        failed > cases / 2 && opened > 0,
        "{opened} opened, {failed} failed"
    );
}
