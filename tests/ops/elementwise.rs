//! The elementwise ops of tg-ops against numpy/scipy (fixtures/ops_elementwise_*.json, made by
//! scripts/gen_ops_elementwise.py), plus the typed operators and methods on a few cases.

use tg_test_support::fixture;

use fixture::{Case, arg};
use serde_json::Value;
use tg_ops::prelude::*;
use tg_ops::untyped::elementwise::{Binary, Operand};
use tg_runtime::{Lazy, Scalar};

fn binary_kind(name: &str) -> Option<Binary> {
    Some(match name {
        "add" => Binary::Add,
        "sub" => Binary::Sub,
        "mul" => Binary::Mul,
        "div" => Binary::Div,
        "idiv" => Binary::Idiv,
        "floor_div" => Binary::FloorDiv,
        "modulo" => Binary::Mod,
        "pow" => Binary::Pow,
        "maximum" => Binary::Maximum,
        "minimum" => Binary::Minimum,
        "bitwise_and" => Binary::BitAnd,
        "bitwise_or" => Binary::BitOr,
        "bitwise_xor" => Binary::BitXor,
        "shl" => Binary::Shl,
        "shr" => Binary::Shr,
        "lt" => Binary::Lt,
        "le" => Binary::Le,
        "gt" => Binary::Gt,
        "ge" => Binary::Ge,
        "eq" => Binary::Eq,
        "ne" => Binary::Ne,
        "logical_and" => Binary::LogicalAnd,
        "logical_or" => Binary::LogicalOr,
        "logical_xor" => Binary::LogicalXor,
        _ => return None,
    })
}

/// An operand as the fixtures write it: `{"input": i}` or `{"scalar": v, "kind": k}`.
fn operand<'a>(v: &Value, inputs: &'a [DynTensor]) -> Operand<'a> {
    if let Some(i) = v.get("input") {
        return Operand::from(&inputs[i.as_u64().expect("input index") as usize]);
    }
    let s = &v["scalar"];
    Operand::Scalar(match v["kind"].as_str().expect("scalar kind") {
        "float" => Scalar::Float(s.as_f64().expect("float scalar")),
        "bool" => Scalar::Bool(s.as_bool().expect("bool scalar")),
        _ => s
            .as_i64()
            .map(Scalar::Int)
            .unwrap_or_else(|| Scalar::UInt(s.as_u64().expect("int scalar"))),
    })
}

fn f(c: &Case, key: &str) -> f64 {
    arg(c, key)
        .as_f64()
        .unwrap_or_else(|| panic!("{}: argument {key}", c.name))
}

fn flag(c: &Case, key: &str) -> bool {
    arg(c, key)
        .as_bool()
        .unwrap_or_else(|| panic!("{}: argument {key}", c.name))
}

/// Runs one case through the DynTensor op it names.
fn run(c: &Case) -> Result<Lazy, String> {
    let inputs = tg_test_support::inputs(c);
    let x = &inputs[0];
    let op = c.json["op"].as_str().expect("op");
    let opt = |key: &str| match arg(c, key) {
        Value::Null => None,
        v => Some(operand(v, &inputs)),
    };
    let result = if let Some(kind) = binary_kind(op) {
        DynTensor::binary_op(
            kind,
            operand(arg(c, "lhs"), &inputs),
            operand(arg(c, "rhs"), &inputs),
        )
    } else {
        match op {
            "neg" => x.neg(),
            "abs" => x.abs(),
            "sign" => x.sign(),
            "square" => x.square(),
            "reciprocal" => x.reciprocal(),
            "sqrt" => x.sqrt(),
            "rsqrt" => x.rsqrt(),
            "exp" => x.exp(),
            "exp2" => x.exp2(),
            "log" => x.log(),
            "log2" => x.log2(),
            "sin" => x.sin(),
            "cos" => x.cos(),
            "tan" => x.tan(),
            "asin" => x.asin(),
            "acos" => x.acos(),
            "atan" => x.atan(),
            "sinh" => x.sinh(),
            "cosh" => x.cosh(),
            "tanh" => x.tanh(),
            "asinh" => x.asinh(),
            "acosh" => x.acosh(),
            "atanh" => x.atanh(),
            "erf" => x.erf(),
            "trunc" => x.trunc(),
            "floor" => x.floor(),
            "ceil" => x.ceil(),
            "round" => x.round(),
            "relu" => x.relu(),
            "relu6" => x.relu6(),
            "leaky_relu" => x.leaky_relu(f(c, "negative_slope")),
            "elu" => x.elu(f(c, "alpha")),
            "celu" => x.celu(f(c, "alpha")),
            "selu" => x.selu(),
            "gelu" => x.gelu(),
            "gelu_erf" => x.gelu_erf(),
            "quick_gelu" => x.quick_gelu(),
            "silu" => x.silu(),
            "mish" => x.mish(),
            "softplus" => x.softplus(f(c, "beta")),
            "softsign" => x.softsign(),
            "sigmoid" => x.sigmoid(),
            "logsigmoid" => x.logsigmoid(),
            "hardsigmoid" => x.hardsigmoid(),
            "hardswish" => x.hardswish(),
            "hardtanh" => x.hardtanh(f(c, "min_val"), f(c, "max_val")),
            "logical_not" => x.logical_not(),
            "bitwise_not" => x.bitwise_not(),
            "isnan" => x.isnan(),
            "isinf" => x.isinf(flag(c, "detect_positive"), flag(c, "detect_negative")),
            "isfinite" => x.isfinite(),
            "isclose" => x.isclose(
                operand(arg(c, "rhs"), &inputs),
                f(c, "rtol"),
                f(c, "atol"),
                flag(c, "equal_nan"),
            ),
            "allclose" => x.allclose(
                operand(arg(c, "rhs"), &inputs),
                f(c, "rtol"),
                f(c, "atol"),
                flag(c, "equal_nan"),
            ),
            "where" => x.where_(operand(arg(c, "x"), &inputs), operand(arg(c, "y"), &inputs)),
            "clamp" => x.clamp(opt("min"), opt("max")),
            "lerp" => x.lerp(
                operand(arg(c, "end"), &inputs),
                operand(arg(c, "weight"), &inputs),
            ),
            _ => panic!("{}: unknown op {op}", c.name),
        }
    };
    result.map(DynTensor::into_lazy).map_err(|e| e.to_string())
}

#[test]
fn unary_math_matches_numpy() {
    fixture::run_all("ops_elementwise_unary.json", run);
}

#[test]
fn activations_match_numpy() {
    fixture::run_all("ops_elementwise_activation.json", run);
}

#[test]
fn binary_arithmetic_matches_numpy() {
    fixture::run_all("ops_elementwise_binary.json", run);
}

#[test]
fn comparisons_logic_and_selection_match_numpy() {
    fixture::run_all("ops_elementwise_logic.json", run);
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= 1e-6 * y.abs().max(1.0))
}

#[test]
fn typed_operators_promote_like_tinygrad() {
    let a = Tensor::<Rank2<2, 2>, i8>::from_slice(&[1, -2, 3, 127]).unwrap();
    let b = Tensor::<Rank2<2, 2>, u8>::from_slice(&[1, 2, 3, 200]).unwrap();
    let sum: Tensor<Rank2<2, 2>, i16> = &a + &b;
    assert_eq!(sum.to_vec().unwrap(), vec![2, 0, 6, 327]);
    let wrapped: Tensor<Rank2<2, 2>, i8> = &a * 2;
    assert_eq!(wrapped.to_vec().unwrap(), vec![2, -4, 6, -2]);
    let quotient: Tensor<Rank2<2, 2>, f32> = &a / &b;
    assert!(close(&quotient.to_vec().unwrap(), &[1.0, -1.0, 1.0, 0.635]));
    let scaled: Tensor<Rank2<2, 2>, f32> = 2.5f32 * &a;
    assert_eq!(scaled.to_vec().unwrap(), vec![2.5, -5.0, 7.5, 317.5]);
    let rem: Tensor<Rank2<2, 2>, i8> = &a % 3;
    assert_eq!(rem.to_vec().unwrap(), vec![1, 1, 0, 1]);
    let floor_rem: Tensor<Rank2<2, 2>, i8> = 7i8 % &a;
    assert_eq!(floor_rem.to_vec().unwrap(), vec![0, -1, 1, 7]);
    assert_eq!((!&a).to_vec().unwrap(), vec![-2, 1, -4, -128]);
    assert_eq!((-&a).to_vec().unwrap(), vec![-1, 2, -3, -127]);
    assert_eq!((&b << 1u8).to_vec().unwrap(), vec![2, 4, 6, 144]);
    assert_eq!((&b >> 1).to_vec().unwrap(), vec![0u8, 1, 1, 100]);
    assert_eq!((&b & 6).to_vec().unwrap(), vec![0u8, 2, 2, 0]);
    assert_eq!((1u8 | &b).to_vec().unwrap(), vec![1, 3, 3, 201]);
    assert_eq!((&b ^ &b).to_vec().unwrap(), vec![0, 0, 0, 0]);
    let h =
        Tensor::<Rank1<2>, f16>::from_slice(&[f16::from_f32(1.5), f16::from_f32(-2.0)]).unwrap();
    let g = Tensor::<Rank1<2>, f32>::from_slice(&[0.25, 4.0]).unwrap();
    let hg: Tensor<Rank1<2>, f32> = h.clone() - g;
    assert_eq!(hg.to_vec().unwrap(), vec![1.25, -6.0]);
    let h2: Tensor<Rank1<2>, f16> = &h * 3.0f64; // a float scalar is weak
    assert_eq!(
        h2.to_vec().unwrap(),
        vec![f16::from_f32(4.5), f16::from_f32(-6.0)]
    );
    let flags = Tensor::<Rank1<2>, bool>::from_slice(&[true, false]).unwrap();
    let counted: Tensor<Rank1<2>, i32> = &flags + 1; // an int scalar lifts bool to i32
    assert_eq!(counted.to_vec().unwrap(), vec![2, 1]);
    assert_eq!((!flags).to_vec().unwrap(), vec![false, true]);
}

#[test]
fn typed_operators_keep_the_more_static_dims() {
    let dynamic =
        Tensor::<shape![_, 2]>::from_slice_shape((2, Const), &[1.0, 2.0, 3.0, 4.0]).unwrap();
    let fixed = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 1.0, 1.0, 1.0]).unwrap();
    let sum: Tensor<Rank2<2, 2>> = dynamic + &fixed;
    assert_eq!(sum.to_vec().unwrap(), vec![2.0, 3.0, 4.0, 5.0]);
}

#[test]
#[should_panic(expected = "add: shapes [3] and [4] do not broadcast")]
fn typed_operators_panic_on_dynamic_mismatch() {
    let a = Tensor::<shape![_]>::from_slice_shape((3,), &[1.0; 3]).unwrap();
    let b = Tensor::<Rank1<4>>::from_slice(&[1.0; 4]).unwrap();
    let _ = a + b;
}

#[test]
fn typed_methods_have_the_documented_dtypes() {
    let i = Tensor::<Rank1<3>, i32>::from_slice(&[-1, 0, 2]).unwrap();
    let e: Tensor<Rank1<3>, f32> = i.exp();
    assert!(close(&e.to_vec().unwrap(), &[0.36787945, 1.0, 7.389056]));
    let s: Tensor<Rank1<3>, f32> = i.sigmoid();
    assert!(close(&s.to_vec().unwrap(), &[0.26894143, 0.5, 0.8807971]));
    let r: Tensor<Rank1<3>, i32> = i.relu();
    assert_eq!(r.to_vec().unwrap(), vec![0, 0, 2]);
    let lt: Tensor<Rank1<3>, bool> = i.lt(0.5);
    assert_eq!(lt.to_vec().unwrap(), vec![true, true, false]);
    assert_eq!(i.floor_div(-2).to_vec().unwrap(), vec![0, 0, -1]);
    assert_eq!(i.modulo(-2).to_vec().unwrap(), vec![-1, 0, 0]);
    assert_eq!(i.idiv(2).to_vec().unwrap(), vec![0, 0, 1]);
    assert_eq!(i.clamp(0, 1).to_vec().unwrap(), vec![0, 0, 1]);
    assert_eq!(i.maximum(&i.neg()).to_vec().unwrap(), vec![1, 0, 2]);
    let p: Tensor<Rank1<3>, f32> = i.pow(0.5);
    let pv = p.to_vec().unwrap();
    assert!(pv[0].is_nan() && pv[1] == 0.0 && (pv[2] - std::f32::consts::SQRT_2).abs() < 1e-6);
    let x = Tensor::<Rank1<3>>::from_slice(&[0.5, -1.5, 2.5]).unwrap();
    assert_eq!(x.round().to_vec().unwrap(), vec![0.0, -2.0, 2.0]);
    assert!(close(
        &x.rpow(2).to_vec().unwrap(),
        &[std::f32::consts::SQRT_2, 0.35355338, 5.656854]
    ));
    let lerped = x.lerp(&x.neg(), 0.5f32);
    assert_eq!(lerped.to_vec().unwrap(), vec![0.0, 0.0, 0.0]);
    assert_eq!(
        x.isclose(&x, 0.0, 0.0, false).to_vec().unwrap(),
        vec![true; 3]
    );
    assert!(x.allclose(0.5, 10.0, 0.0, false).item().unwrap());
    let cond = x.gt(0.0);
    assert_eq!(
        cond.where_(&x, -1).to_vec().unwrap(),
        vec![0.5f32, -1.0, 2.5]
    );
    assert_eq!(cond.where_scalars(7u8, 9).to_vec().unwrap(), vec![7, 9, 7]);
    assert_eq!(
        x.bitcast::<i32>().bitcast::<f32>().to_vec().unwrap(),
        x.to_vec().unwrap()
    );
    assert_eq!(
        x.isinf(true, true).logical_or(x.isnan()).to_vec().unwrap(),
        vec![false; 3]
    );
}

#[test]
fn errors_name_the_op_and_what_is_wrong() {
    let b = DynTensor::from_slice(&[2], &[true, false]).unwrap();
    let e = b.sub(&b).unwrap_err();
    assert!(
        matches!(
            e,
            Error::DType {
                op: "sub",
                dtype: DType::Bool,
                ..
            }
        ),
        "{e:?}"
    );
    let f = DynTensor::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
    let e = f.bitwise_and(&f).unwrap_err();
    assert!(
        matches!(
            e,
            Error::DType {
                op: "bitwise_and",
                dtype: DType::F32,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .starts_with("bitwise_and: dtype float32 is not supported")
    );
    assert!(matches!(
        f.shl(1),
        Err(Error::DType {
            op: "shl",
            dtype: DType::F32,
            ..
        })
    ));
    assert!(matches!(
        f.bitwise_not(),
        Err(Error::DType {
            op: "bitwise_not",
            dtype: DType::F32,
            ..
        })
    ));
    let i = DynTensor::from_slice(&[2], &[2i32, 3]).unwrap();
    let e = i.pow(-1).unwrap_err();
    assert!(
        matches!(e, Error::Argument { op: "pow", ref message } if message.contains("-1")),
        "{e:?}"
    );
    let x3 = DynTensor::zeros(&[3], DType::F32).unwrap();
    let x4 = DynTensor::zeros(&[2, 4], DType::F32).unwrap();
    let e = x3.maximum(&x4).unwrap_err();
    assert!(
        matches!(e, Error::Broadcast { op: "maximum", ref lhs, ref rhs } if lhs == &[3] && rhs == &[2, 4]),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "maximum: shapes [3] and [2, 4] do not broadcast"
    );
    assert!(matches!(
        x3.clamp(None, None),
        Err(Error::Argument { op: "clamp", .. })
    ));
    let e = DynTensor::binary_op(Binary::Add, 1, 2.0).unwrap_err();
    assert!(
        matches!(e, Error::Argument { op: "add", ref message } if message.contains("scalars")),
        "{e:?}"
    );
    let c = DynTensor::zeros(&[5], DType::Bool).unwrap();
    let e = c.where_(&x3, 0).unwrap_err();
    assert!(matches!(e, Error::Broadcast { op: "where", .. }), "{e:?}");
}

#[test]
fn a_chain_of_composed_ops_is_one_kernel() {
    // each of these reuses its input many times; lowering computes a node once per index, so
    // the whole chain still fuses into one kernel
    let x = DynTensor::from_slice(
        &[64],
        &(0..64).map(|i| i as f32 / 16.0 - 2.0).collect::<Vec<_>>(),
    )
    .unwrap();
    x.realize().unwrap();
    let y = x
        .gelu_erf()
        .unwrap()
        .sigmoid()
        .unwrap()
        .exp()
        .unwrap()
        .tanh()
        .unwrap()
        .erf()
        .unwrap();
    let before = tg::runtime::thread_stats().kernels;
    let v = y.to_vec::<f32>().unwrap();
    assert_eq!(tg::runtime::thread_stats().kernels - before, 1);
    assert!(v.iter().all(|v| v.is_finite()));
}
