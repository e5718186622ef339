//! tg_nn::state against real files: every dtype round-trips bit for bit, bf16 checkpoints
//! (written here with the safetensors crate) load as floats, every kind of wrong file is an
//! error naming what is wrong, and a file that does not fit loads nothing.

use std::path::{Path, PathBuf};

use half::f16;
use safetensors::tensor::TensorView;
use tg_nn::state::{self, Extra, FileDtype, Mismatch, StateDict, TensorSpec};
use tg_ops::DynTensor;
use tg_runtime::{DType, Element, Error, thread_stats};

/// A folder of its own per test, removed afterwards.
struct TempDir(PathBuf);

impl TempDir {
    fn new(test: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("tg-nn-state-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn tensor<T: Element>(shape: &[usize], data: &[T]) -> DynTensor {
    DynTensor::from_slice(shape, data).unwrap()
}

fn bytes(t: &DynTensor) -> Vec<u8> {
    t.lazy().to_bytes().unwrap()
}

/// One tensor of every tg dtype, with the values that are easy to lose: extremes, signed
/// zeros, infinities, NaN, subnormals; of several ranks, rank 0 and empty included.
fn one_of_each() -> Vec<(String, DynTensor)> {
    vec![
        ("bool".into(), tensor(&[2, 2], &[true, false, false, true])),
        ("i8".into(), tensor(&[3], &[i8::MIN, -1, i8::MAX])),
        ("u8".into(), tensor(&[3], &[0u8, 1, u8::MAX])),
        ("i16".into(), tensor(&[3], &[i16::MIN, 7, i16::MAX])),
        ("u16".into(), tensor(&[1, 3], &[0u16, 300, u16::MAX])),
        ("i32".into(), tensor(&[3], &[i32::MIN, -5, i32::MAX])),
        ("u32".into(), tensor(&[3], &[0u32, 5, u32::MAX])),
        ("i64".into(), tensor(&[3], &[i64::MIN, -5, i64::MAX])),
        ("u64".into(), tensor(&[3], &[0u64, 5, u64::MAX])),
        (
            "f16".into(),
            tensor(
                &[2, 3],
                &[
                    f16::MAX,
                    f16::from_bits(0x8000),
                    f16::from_bits(0x0001),
                    f16::INFINITY,
                    f16::NAN,
                    f16::from_f32(-1.5),
                ],
            ),
        ),
        (
            "f32".into(),
            tensor(
                &[2, 2, 2],
                &[
                    f32::MAX,
                    -0.0,
                    f32::from_bits(1),
                    f32::NEG_INFINITY,
                    f32::NAN,
                    1.0 / 3.0,
                    -7.25,
                    f32::MIN_POSITIVE,
                ],
            ),
        ),
        (
            "f64".into(),
            tensor(&[4], &[f64::MIN, -0.0, f64::from_bits(1), 0.1]),
        ),
        ("rank0".into(), tensor(&[], &[42.5f32])),
        (
            "empty".into(),
            DynTensor::zeros(&[0, 3], DType::I32).unwrap(),
        ),
    ]
}

#[test]
fn every_dtype_round_trips_bit_for_bit() {
    let dir = TempDir::new("round_trip");
    let path = dir.file("all.safetensors");
    let tensors = one_of_each();
    let pairs: Vec<(&str, &DynTensor)> = tensors.iter().map(|(n, t)| (n.as_str(), t)).collect();
    state::save(&path, &pairs).unwrap();

    let loaded = state::load(&path).unwrap();
    assert_eq!(loaded.len(), tensors.len());
    for (name, t) in &tensors {
        let got = loaded
            .get(name)
            .unwrap_or_else(|| panic!("{name} not loaded"));
        assert_eq!((got.dtype(), got.shape()), (t.dtype(), t.shape()), "{name}");
        assert_eq!(bytes(got), bytes(t), "{name}");
    }

    let into = state::load_into(&path, &pairs, Extra::Refuse).unwrap();
    for ((name, t), got) in tensors.iter().zip(&into) {
        assert_eq!((got.dtype(), got.shape()), (t.dtype(), t.shape()), "{name}");
        assert_eq!(bytes(got), bytes(t), "{name}");
    }
    assert!(
        state::check(&path, &pairs, Extra::Refuse)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn computed_tensors_are_realized_when_saved() {
    let dir = TempDir::new("computed");
    let path = dir.file("c.safetensors");
    let a = tensor(&[3], &[1i32, 2, 3]);
    let doubled = a.mul(2).unwrap().add(&a).unwrap();
    state::save(&path, &[("x", &doubled)]).unwrap();
    let got = state::load(&path).unwrap();
    assert_eq!(
        got.get("x").unwrap().to_vec::<i32>().unwrap(),
        vec![3, 6, 9]
    );
    // the temporary file was renamed away
    let names: Vec<String> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["c.safetensors".to_string()]);
}

/// A safetensors file written by hand: `(name, dtype as the format spells it, shape, bytes)`
/// in data order, so tests control the header exactly.
fn write_raw(path: &Path, tensors: &[(&str, &str, &[usize], Vec<u8>)]) {
    let mut header = String::from("{");
    let mut data = Vec::new();
    for (i, (name, dtype, shape, b)) in tensors.iter().enumerate() {
        let start = data.len();
        data.extend_from_slice(b);
        if i > 0 {
            header.push(',');
        }
        header.push_str(&format!(
            "\"{name}\":{{\"dtype\":\"{dtype}\",\"shape\":{shape:?},\"data_offsets\":[{start},{}]}}",
            data.len()
        ));
    }
    header.push('}');
    while header.len() % 8 != 0 {
        header.push(' ');
    }
    let mut file = (header.len() as u64).to_le_bytes().to_vec();
    file.extend_from_slice(header.as_bytes());
    file.extend_from_slice(&data);
    std::fs::write(path, file).unwrap();
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn load_keeps_the_files_order() {
    let dir = TempDir::new("order");
    let path = dir.file("o.safetensors");
    write_raw(
        &path,
        &[
            ("zeta", "F32", &[1], f32_bytes(&[1.0])),
            ("alpha", "F32", &[2], f32_bytes(&[2.0, 3.0])),
            ("mid", "F32", &[], f32_bytes(&[4.0])),
        ],
    );
    let loaded = state::load(&path).unwrap();
    assert_eq!(
        loaded.names().collect::<Vec<_>>(),
        vec!["zeta", "alpha", "mid"]
    );
    assert_eq!(
        loaded.get("alpha").unwrap().to_vec::<f32>().unwrap(),
        vec![2.0, 3.0]
    );
}

/// bf16 bits of values with known f32, f16 and f64 images.
const BF16: [u16; 7] = [
    0x3F80, // 1.0
    0xC020, // -2.5
    0x3EAB, // 0.333984375 (1/3 rounded to bf16)
    0x7F7F, // 3.3895314e38, the largest bf16: inf in f16
    0xFF80, // -inf
    0x0001, // 9.2e-41, the smallest subnormal: 0 in f16
    0x3420, // 2.5 * 2^-24: a tie between two f16 subnormals, to even (2 * 2^-24)
];

fn write_bf16(path: &Path) {
    let raw: Vec<u8> = BF16.iter().flat_map(|b| b.to_le_bytes()).collect();
    let ones: Vec<u8> = [0x3F80u16; 2]
        .iter()
        .flat_map(|b| b.to_le_bytes())
        .collect();
    let w = TensorView::new(safetensors::Dtype::BF16, vec![7], &raw).unwrap();
    let b = TensorView::new(safetensors::Dtype::BF16, vec![1, 2], &ones).unwrap();
    let file = safetensors::tensor::serialize([("w", w), ("b", b)], None).unwrap();
    std::fs::write(path, file).unwrap();
}

#[test]
fn bf16_loads_as_f32_exactly_or_as_the_expected_float() {
    let dir = TempDir::new("bf16");
    let path = dir.file("bf16.safetensors");
    write_bf16(&path);
    let want32: Vec<f32> = BF16
        .iter()
        .map(|&b| f32::from_bits(u32::from(b) << 16))
        .collect();

    let loaded = state::load(&path).unwrap();
    let w = loaded.get("w").unwrap();
    assert_eq!(w.dtype(), DType::F32);
    let got = w.to_vec::<f32>().unwrap();
    assert_eq!(
        got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        want32.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    assert_eq!(got[2], 171.0 / 512.0); // 1/3 rounded to bf16

    let as16 = DynTensor::zeros(&[7], DType::F16).unwrap();
    let as64 = DynTensor::zeros(&[1, 2], DType::F64).unwrap();
    let [w16, b64] = <[DynTensor; 2]>::try_from(
        state::load_into(&path, &[("w", &as16), ("b", &as64)], Extra::Refuse).unwrap(),
    )
    .unwrap();
    assert_eq!(w16.dtype(), DType::F16);
    let h = w16.to_vec::<f16>().unwrap();
    assert_eq!(
        h.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        vec![
            0x3C00,
            0xC100,
            f16::from_f32(171.0 / 512.0).to_bits(),
            0x7C00,
            0xFC00,
            0x0000,
            0x0002
        ]
    );
    assert_eq!(b64.to_vec::<f64>().unwrap(), vec![1.0, 1.0]);

    // bf16 does not load as an integer: a mismatch naming both dtypes
    let as_int = DynTensor::zeros(&[7], DType::I16).unwrap();
    let err = state::load_into(&path, &[("w", &as_int)], Extra::Ignore).unwrap_err();
    let msg = argument_message(&err);
    assert!(
        msg.contains("`w`") && msg.contains("int16 [7]") && msg.contains("bfloat16 [7]"),
        "{msg}"
    );
}

/// The message of a `load_state_dict` argument error.
fn argument_message(e: &Error) -> &str {
    match e {
        Error::Argument {
            op: "load_state_dict",
            message,
        } => message,
        other => panic!("expected a load_state_dict argument error, got {other:?}"),
    }
}

/// A file with `a` (f32 [2, 3]), `b` (i32 [4]) and `c` (f16 [2]).
fn abc(path: &Path) {
    let a = DynTensor::ones(&[2, 3], DType::F32).unwrap();
    let b = tensor(&[4], &[1i32, 2, 3, 4]);
    let c = tensor(&[2], &[f16::ONE, f16::ZERO]);
    state::save(path, &[("a", &a), ("b", &b), ("c", &c)]).unwrap();
}

fn spec(dtype: DType, shape: &[usize]) -> TensorSpec {
    TensorSpec::new(dtype, shape)
}

#[test]
fn each_kind_of_mismatch_is_named_with_both_dtypes_and_shapes() {
    let dir = TempDir::new("mismatch");
    let path = dir.file("abc.safetensors");
    abc(&path);
    let a = DynTensor::zeros(&[2, 3], DType::F32).unwrap();
    let b = DynTensor::zeros(&[4], DType::I32).unwrap();
    let c = DynTensor::zeros(&[2], DType::F16).unwrap();
    let a_wrong_dtype = DynTensor::zeros(&[2, 3], DType::F64).unwrap();
    let b_wrong_shape = DynTensor::zeros(&[2, 2], DType::I32).unwrap();
    let d = DynTensor::zeros(&[1], DType::U8).unwrap();

    // missing name
    let expected = [("a", &a), ("b", &b), ("c", &c), ("d", &d)];
    assert_eq!(
        state::check(&path, &expected, Extra::Refuse).unwrap(),
        vec![Mismatch::Missing {
            name: "d".into(),
            expected: spec(DType::U8, &[1])
        }]
    );
    let msg = argument_message(&state::load_into(&path, &expected, Extra::Refuse).unwrap_err())
        .to_string();
    assert!(msg.contains("`d` is missing (expected uint8 [1])"), "{msg}");

    // extra name: refused, or ignored on request
    let expected = [("a", &a), ("b", &b)];
    assert_eq!(
        state::check(&path, &expected, Extra::Refuse).unwrap(),
        vec![Mismatch::Unexpected {
            name: "c".into(),
            found: spec(DType::F16, &[2])
        }]
    );
    let msg = argument_message(&state::load_into(&path, &expected, Extra::Refuse).unwrap_err())
        .to_string();
    assert!(
        msg.contains("`c` (float16 [2]) is in the file but not expected"),
        "{msg}"
    );
    let partial = state::load_into(&path, &expected, Extra::Ignore).unwrap();
    assert_eq!(partial[1].to_vec::<i32>().unwrap(), vec![1, 2, 3, 4]);

    // dtype and shape mismatches, all reported at once
    let expected = [("a", &a_wrong_dtype), ("b", &b_wrong_shape), ("c", &c)];
    assert_eq!(
        state::check(&path, &expected, Extra::Refuse).unwrap(),
        vec![
            Mismatch::Differs {
                name: "a".into(),
                expected: spec(DType::F64, &[2, 3]),
                found: spec(DType::F32, &[2, 3]),
            },
            Mismatch::Differs {
                name: "b".into(),
                expected: spec(DType::I32, &[2, 2]),
                found: spec(DType::I32, &[4]),
            },
        ]
    );
    let msg = argument_message(&state::load_into(&path, &expected, Extra::Refuse).unwrap_err())
        .to_string();
    assert!(msg.contains("2 problems"), "{msg}");
    assert!(
        msg.contains("`a`: expected float64 [2, 3], found float32 [2, 3]"),
        "{msg}"
    );
    assert!(
        msg.contains("`b`: expected int32 [2, 2], found int32 [4]"),
        "{msg}"
    );
    assert!(msg.contains("abc.safetensors"), "{msg}");
}

#[test]
fn a_file_that_does_not_fit_loads_nothing() {
    let dir = TempDir::new("nothing");
    let path = dir.file("abc.safetensors");
    abc(&path);
    let a = DynTensor::zeros(&[2, 3], DType::F32).unwrap();
    let b = DynTensor::zeros(&[4], DType::I32).unwrap();
    let c_wrong = DynTensor::zeros(&[3], DType::F16).unwrap();
    let before = thread_stats();
    // the last tensor is the wrong one: a loader that loaded tensors as it checked them would
    // have uploaded the first two
    assert!(
        state::load_into(
            &path,
            &[("a", &a), ("b", &b), ("c", &c_wrong)],
            Extra::Refuse
        )
        .is_err()
    );
    assert_eq!(thread_stats().uploads, before.uploads);
    // the same file with the right expectation loads, creating and uploading the three
    let c = DynTensor::zeros(&[2], DType::F16).unwrap();
    let before = thread_stats();
    let loaded =
        state::load_into(&path, &[("a", &a), ("b", &b), ("c", &c)], Extra::Refuse).unwrap();
    let after = thread_stats();
    assert_eq!(loaded.len(), 3);
    assert_eq!(after.uploads - before.uploads, 3);
}

/// The message of an `Error::Io` about `path`.
fn io_message(e: &Error, path: &Path) -> String {
    match e {
        Error::Io { path: p, message } => {
            assert_eq!(p, &path.display().to_string());
            message.clone()
        }
        other => panic!("expected an I/O error, got {other:?}"),
    }
}

#[test]
fn broken_files_are_io_errors_naming_the_file() {
    let dir = TempDir::new("broken");
    let good = dir.file("good.safetensors");
    abc(&good);
    let full = std::fs::read(&good).unwrap();
    let a = DynTensor::zeros(&[2, 3], DType::F32).unwrap();

    let truncated = dir.file("truncated.safetensors");
    std::fs::write(&truncated, &full[..full.len() - 3]).unwrap();
    let garbage = dir.file("garbage.safetensors");
    std::fs::write(&garbage, b"this is a text file, not a checkpoint").unwrap();
    let empty = dir.file("empty.safetensors");
    std::fs::write(&empty, b"").unwrap();
    let header_cut = dir.file("header_cut.safetensors");
    std::fs::write(&header_cut, &full[..20]).unwrap();
    let missing = dir.file("missing.safetensors");

    for path in [&truncated, &garbage, &empty, &header_cut] {
        for err in [
            state::load(path).unwrap_err(),
            state::load_into(path, &[("a", &a)], Extra::Ignore).unwrap_err(),
            state::check(path, &[("a", &a)], Extra::Ignore).unwrap_err(),
        ] {
            let msg = io_message(&err, path);
            assert!(
                msg.contains("not a valid safetensors file"),
                "{}: {msg}",
                path.display()
            );
        }
    }
    let msg = io_message(&state::load(&missing).unwrap_err(), &missing);
    assert!(!msg.is_empty());
}

#[test]
fn dtypes_tg_lacks_are_named() {
    let dir = TempDir::new("f8");
    let path = dir.file("f8.safetensors");
    write_raw(
        &path,
        &[
            ("ok", "F32", &[1], f32_bytes(&[1.0])),
            ("q", "F8_E4M3", &[4], vec![0x38, 0x40, 0x48, 0x00]),
        ],
    );
    let msg = argument_message(&state::load(&path).unwrap_err()).to_string();
    assert!(
        msg.contains("`q` (F8_E4M3 (not supported by tg) [4]) has no tg dtype"),
        "{msg}"
    );
    let want = DynTensor::zeros(&[4], DType::F32).unwrap();
    assert_eq!(
        state::check(&path, &[("q", &want)], Extra::Ignore).unwrap(),
        vec![Mismatch::Differs {
            name: "q".into(),
            expected: spec(DType::F32, &[4]),
            found: TensorSpec {
                dtype: FileDtype::Unsupported("F8_E4M3".into()),
                shape: vec![4]
            },
        }]
    );
}

#[test]
fn save_refuses_repeated_and_reserved_names_and_keeps_the_old_file() {
    let dir = TempDir::new("save_errors");
    let path = dir.file("s.safetensors");
    let t = DynTensor::ones(&[1], DType::F32).unwrap();
    state::save(&path, &[("t", &t)]).unwrap();
    let before = std::fs::read(&path).unwrap();
    for (pairs, what) in [
        (vec![("x", &t), ("x", &t)], "given twice"),
        (vec![("__metadata__", &t)], "reserved"),
    ] {
        match state::save(&path, &pairs).unwrap_err() {
            Error::Argument {
                op: "save_state_dict",
                message,
            } => assert!(message.contains(what), "{message}"),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let nowhere = dir.file("no/such/folder/x.safetensors");
    assert!(matches!(
        state::save(&nowhere, &[("t", &t)]).unwrap_err(),
        Error::Io { .. }
    ));
}

#[test]
fn state_dicts_keep_order_and_save() {
    let dir = TempDir::new("dict");
    let path = dir.file("d.safetensors");
    let mut d = StateDict::new();
    d.insert("w", tensor(&[2], &[1.0f32, 2.0]));
    d.insert("b", tensor(&[1], &[3.0f32]));
    let old = d.insert("w", tensor(&[2], &[5.0f32, 6.0])).unwrap();
    assert_eq!(old.to_vec::<f32>().unwrap(), vec![1.0, 2.0]);
    assert_eq!(d.names().collect::<Vec<_>>(), vec!["w", "b"]);
    d.save(&path).unwrap();
    let mut back = state::load(&path).unwrap();
    assert_eq!(
        back.get("w").unwrap().to_vec::<f32>().unwrap(),
        vec![5.0, 6.0]
    );
    assert_eq!(
        back.remove("b").unwrap().to_vec::<f32>().unwrap(),
        vec![3.0]
    );
    assert_eq!((back.len(), back.is_empty()), (1, false));
    let rebuilt: StateDict = back.into_iter().collect();
    assert_eq!(rebuilt.names().collect::<Vec<_>>(), vec!["w"]);
}
