//! The elementwise ops taken from tinygrad's mixins for training (`log10`, `fmod`,
//! `copysign`, `logaddexp`, `masked_fill`) and `pad_to_with`, against numpy
//! (fixtures/ops_extra.json, made by scripts/gen_ops_extra.py); their errors; the typed forms'
//! output types; and that they fuse like the ops they are composed of.

use tg_test_support::fixture;

use fixture::{Case, Spec, arg};
use serde_json::Value;
use tg_ops::prelude::*;
use tg_ops::untyped::elementwise::Operand;
use tg_runtime::{Error, Lazy, Scalar};

/// An operand as the fixtures write it: `{"input": i}` or `{"scalar": v, "kind": k}` (float
/// scalars may be "nan", "inf", "-inf").
fn operand<'a>(v: &Value, inputs: &'a [DynTensor]) -> Operand<'a> {
    if let Some(i) = v.get("input") {
        return Operand::from(&inputs[i.as_u64().expect("input index") as usize]);
    }
    let kind = match v["kind"].as_str().expect("scalar kind") {
        "float" => DType::F64,
        "bool" => DType::Bool,
        _ => DType::I64,
    };
    Operand::Scalar(fixture::scalar(&v["scalar"], kind))
}

/// The target of `pad_to_with`: sizes, `null` keeping an axis.
fn target(c: &Case) -> Vec<Option<usize>> {
    arg(c, "shape")
        .as_array()
        .expect("shape")
        .iter()
        .map(|d| d.as_u64().map(|n| n as usize))
        .collect()
}

fn scalar_arg(c: &Case, key: &str) -> Scalar {
    operand(arg(c, key), &[])
        .scalar()
        .unwrap_or_else(|| panic!("{}: {key} must be a scalar", c.name))
}

/// Whether the float at `i` of little-endian `bytes` of `dt` has its sign bit set.
fn sign_bit(bytes: &[u8], dt: DType, i: usize) -> bool {
    let n = dt.size();
    bytes[i * n + n - 1] & 0x80 != 0
}

/// The fixture compares values with tolerances, which cannot tell -0.0 from 0.0; where a case
/// says `signed_zeros`, zero results must also have the expected sign.
fn check_zero_signs(c: &Case, got: &Lazy, want: &Spec) -> Result<(), String> {
    if arg(c, "signed_zeros").as_bool() != Some(true) || !want.dtype.is_float() {
        return Ok(());
    }
    let bytes = got.to_bytes().map_err(|e| e.to_string())?;
    let bad: Vec<String> = want
        .values
        .iter()
        .enumerate()
        .filter_map(|(i, w)| match w {
            Scalar::Float(v)
                if *v == 0.0 && v.is_sign_negative() != sign_bit(&bytes, want.dtype, i) =>
            {
                Some(format!("[{i}] want {v:?}"))
            }
            _ => None,
        })
        .collect();
    if bad.is_empty() {
        Ok(())
    } else {
        Err(format!("zeros of the wrong sign: {}", bad.join(", ")))
    }
}

/// Runs one case through the DynTensor op it names.
fn run(c: &Case) -> Result<Lazy, String> {
    let inputs = tg_test_support::inputs(c);
    let x = &inputs[0];
    let binary = |f: fn(&DynTensor, Operand) -> tg_runtime::Result<DynTensor>| {
        let lhs = operand(arg(c, "lhs"), &inputs);
        match (lhs.tensor(), lhs.scalar()) {
            (Some(t), _) => f(t, operand(arg(c, "rhs"), &inputs)),
            // a scalar on the left: the right operand is the tensor; swap through a full tensor
            // of the right's shape and the scalar's weak dtype
            (None, Some(s)) => {
                let rhs = operand(arg(c, "rhs"), &inputs);
                let t = rhs.tensor().expect("one operand is a tensor");
                let lhs = DynTensor::full(t.shape(), s, weak_dtype(t.dtype(), s))?;
                f(&lhs, rhs)
            }
            (None, None) => unreachable!("an operand is a tensor or a scalar"),
        }
    };
    let op = c.json["op"].as_str().expect("op");
    let result = match op {
        "log10" => x.log10(),
        "fmod" => binary(|a, b| a.fmod(b)),
        "copysign" => binary(|a, b| a.copysign(b)),
        "logaddexp" => binary(|a, b| a.logaddexp(b)),
        "masked_fill" => x.masked_fill(&inputs[1], operand(arg(c, "value"), &inputs)),
        "pad_to_with" => x.pad_to_with(&target(c), scalar_arg(c, "value")),
        _ => panic!("{}: unknown op {op}", c.name),
    };
    let got = result
        .map(DynTensor::into_lazy)
        .map_err(|e| e.to_string())?;
    check_zero_signs(c, &got, &c.out)?;
    Ok(got)
}

/// The dtype a weak scalar takes next to a tensor of dtype `t` (tinygrad's rule, as tg-ops'
/// operands): a float scalar lifts integers and bool to f32, an int scalar lifts bool to i32.
fn weak_dtype(t: DType, s: Scalar) -> DType {
    match s {
        Scalar::Float(_) if !t.is_float() => DType::F32,
        Scalar::Int(_) | Scalar::UInt(_) if t.is_bool() => DType::I32,
        _ => t,
    }
}

#[test]
fn extra_ops_match_numpy() {
    fixture::run_all("ops_extra.json", run);
}

fn f32s(shape: &[usize], v: &[f32]) -> DynTensor {
    DynTensor::from_slice(shape, v).unwrap()
}

#[test]
fn scalar_operands_are_weak() {
    let x = DynTensor::from_slice(&[3], &[-2i32, 0, 5]).unwrap();
    let y = x.logaddexp(1).unwrap();
    assert_eq!(y.dtype(), DType::F32);
    let z = x.fmod(2.5).unwrap();
    assert_eq!(z.dtype(), DType::F32);
    assert_eq!(z.to_vec::<f32>().unwrap(), vec![-2.0, 0.0, 0.0]);
}

#[test]
fn errors_name_the_op_and_what_is_wrong() {
    let b = DynTensor::from_slice(&[2], &[true, false]).unwrap();
    for (op, e) in [
        ("fmod", b.fmod(&b).unwrap_err()),
        ("copysign", b.copysign(&b).unwrap_err()),
    ] {
        match e {
            Error::DType { op: o, dtype, .. } => assert_eq!((o, dtype), (op, DType::Bool)),
            other => panic!("{op}: {other:?}"),
        }
    }
    let x = f32s(&[2, 3], &[0.0; 6]);
    // a mask that is not bool
    match x.masked_fill(&x, 1.0).unwrap_err() {
        Error::DType { op, dtype, .. } => assert_eq!((op, dtype), ("masked_fill", DType::F32)),
        other => panic!("{other:?}"),
    }
    // a mask or value that would grow the tensor
    let big = DynTensor::from_slice(&[2, 2, 3], &[true; 12]).unwrap();
    match x.masked_fill(&big, 1.0).unwrap_err() {
        Error::Shape { op, message } => {
            assert_eq!(op, "masked_fill");
            assert!(
                message.contains("[2, 2, 3]") && message.contains("[2, 3]"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
    let row = DynTensor::from_slice(&[3], &[true, false, true]).unwrap();
    let tall = f32s(&[4, 1, 3], &[0.0; 12]);
    assert!(matches!(
        x.masked_fill(&row, &tall).unwrap_err(),
        Error::Shape {
            op: "masked_fill",
            ..
        }
    ));
    // a mask that does not broadcast at all
    let odd = DynTensor::from_slice(&[2], &[true, false]).unwrap();
    assert_eq!(
        broadcast_failure(&x.masked_fill(&odd, 1.0).unwrap_err()),
        Some("masked_fill")
    );
    // pad_to_with: smaller target, other rank; a mismatched binary operand
    assert!(matches!(
        x.pad_to_with(&[Some(1), None], 1.0).unwrap_err(),
        Error::Shape { op: "pad_to", .. }
    ));
    assert!(matches!(
        x.pad_to_with(&[Some(4)], 1.0).unwrap_err(),
        Error::RankMismatch {
            op: "pad_to",
            given: 1,
            ..
        }
    ));
    let y = f32s(&[4], &[0.0; 4]);
    for (op, e) in [
        ("fmod", x.fmod(&y).unwrap_err()),
        ("copysign", x.copysign(&y).unwrap_err()),
        ("logaddexp", x.logaddexp(&y).unwrap_err()),
    ] {
        assert_eq!(broadcast_failure(&e), Some(op), "{e:?}");
    }
}

/// The op named by a shapes-do-not-broadcast error (`Broadcast` for two shapes, `Shape` from
/// the several-shape rule), `None` for any other error.
fn broadcast_failure(e: &Error) -> Option<&'static str> {
    match e {
        Error::Broadcast { op, .. } => Some(op),
        Error::Shape { op, message } if message.contains("broadcast") => Some(op),
        _ => None,
    }
}

#[test]
fn typed_forms_have_the_documented_types() {
    let i = Tensor::<Rank1<3>, i32>::from_slice(&[-7, 8, 100]).unwrap();
    let l: Tensor<Rank1<3>, f32> = i.log10();
    assert!((l.to_vec().unwrap()[2] - 2.0).abs() < 5e-7);
    let r: Tensor<Rank1<3>, i32> = i.fmod(3);
    assert_eq!(r.to_vec().unwrap(), vec![-1, 2, 1]);
    let rf: Tensor<Rank1<3>, f32> = i.fmod(2.5f32);
    assert_eq!(rf.to_vec().unwrap(), vec![-2.0, 0.5, 0.0]);
    let s: Tensor<Rank1<3>, i32> = i.copysign(-1);
    assert_eq!(s.to_vec().unwrap(), vec![-7, -8, -100]);
    let u = Tensor::<Rank1<2>, u8>::from_slice(&[3, 4]).unwrap();
    let lu: Tensor<Rank1<2>, f32> = u.logaddexp(&u);
    let want = 3.0f32 + std::f32::consts::LN_2;
    assert!((lu.to_vec().unwrap()[0] - want).abs() < 1e-6);
    let h = Tensor::<Rank1<2>, half::f16>::from_slice(&[half::f16::ONE, half::f16::ZERO]).unwrap();
    let f = Tensor::<Rank1<2>, f32>::from_slice(&[0.0, 0.0]).unwrap();
    let lh: Tensor<Rank1<2>, f32> = h.logaddexp(&f);
    assert_eq!(lh.dtype(), DType::F32);
    // masked_fill: a row mask broadcasts over the rows; a float scalar lifts i32 to f32
    let m = Tensor::<Rank2<2, 3>, i32>::from_slice(&[1, 2, 3, 4, 5, 6]).unwrap();
    let mask = Tensor::<Rank1<3>, bool>::from_slice(&[true, false, false]).unwrap();
    let filled: Tensor<Rank2<2, 3>, i32> = m.masked_fill(&mask, 0);
    assert_eq!(filled.to_vec().unwrap(), vec![0, 2, 3, 0, 5, 6]);
    let lifted: Tensor<Rank2<2, 3>, f32> = m.masked_fill(&mask, 0.5f32);
    assert_eq!(lifted.to_vec().unwrap(), vec![0.5, 2.0, 3.0, 0.5, 5.0, 6.0]);
    // pad_to_with: a dynamic target dim keeps its axis
    let p = m.pad_to_with::<(Const<3>, usize)>(-1);
    assert_eq!(p.dims(), vec![3, 3]);
    assert_eq!(p.to_vec().unwrap(), vec![1, 2, 3, 4, 5, 6, -1, -1, -1]);
}

#[test]
fn typed_masked_fill_panics_where_only_a_run_sees_the_mismatch() {
    let m = Tensor::<(usize,), f32>::from_slice_shape((3,), &[1.0, 2.0, 3.0]).unwrap();
    let mask = Tensor::<(usize,), bool>::from_slice_shape((2,), &[true, false]).unwrap();
    assert!(m.try_masked_fill(&mask, 0.0f32).is_err());
    let caught = std::panic::catch_unwind(|| m.masked_fill(&mask, 0.0f32));
    assert!(caught.is_err());
}

#[test]
fn the_compositions_fuse_into_one_kernel() {
    let a = f32s(
        &[64],
        &(0..64).map(|i| i as f32 * 0.5 - 10.0).collect::<Vec<_>>(),
    );
    let b = f32s(
        &[64],
        &(0..64).map(|i| 7.0 - i as f32 * 0.25).collect::<Vec<_>>(),
    );
    a.realize().unwrap();
    b.realize().unwrap();
    let mask = a.lt(0.0).unwrap();
    let y = a
        .logaddexp(&b)
        .unwrap()
        .fmod(3.0)
        .unwrap()
        .copysign(&b)
        .unwrap()
        .log10()
        .unwrap()
        .masked_fill(&mask, 0.0)
        .unwrap();
    let before = tg_runtime::thread_stats().kernels;
    y.realize().unwrap();
    assert_eq!(tg_runtime::thread_stats().kernels - before, 1);
}
