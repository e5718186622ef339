//! The dtype rules: tinygrad's lattice and weak scalars (`meet`), the float and accumulation
//! types, and the few ops whose dtype depends on their arguments.

use crate::dim::Dim;
use crate::dtype::{DType, ScalarKind};
use crate::error::argument_error;

use super::super::value::{Args, At, Fault, OpError, Value};
use super::DtypeRule;

/// The dtype operands meet in: tensors by tinygrad's lattice, then each scalar weakly (it
/// takes the tensors' dtype, lifting bool and integers where its kind needs). `None` when no
/// operand is a tensor.
pub fn meet<D>(values: &[&Value<D>]) -> Option<DType> {
    let mut strong: Option<DType> = None;
    let mut weak: Vec<ScalarKind> = Vec::new();
    for v in values {
        match v {
            Value::Tensor(_, d) => strong = Some(strong.map_or(*d, |s| s.least_upper(*d))),
            Value::Tensors(ts) => {
                for (_, d) in ts {
                    strong = Some(strong.map_or(*d, |s| s.least_upper(*d)));
                }
            }
            Value::Scalar(k, _) => weak.push(*k),
            Value::Int(_) | Value::Dim(_) => weak.push(ScalarKind::Int),
            _ => {}
        }
    }
    let mut out = strong?;
    for k in weak {
        out = out.weak(k);
    }
    Some(out)
}

/// The meet of the receiver (if `with_receiver`) and the named parameters.
fn meet_of<D: Dim>(a: &Args<D>, with_receiver: bool, names: &[&str]) -> Result<DType, Fault<D>> {
    let mut vals: Vec<&Value<D>> = Vec::new();
    if with_receiver {
        vals.push(&a.recv);
    }
    for n in names {
        vals.push(a.get(n)?);
    }
    meet(&vals).ok_or_else(|| {
        Fault::new(
            At::Call,
            argument_error(
                a.op,
                "a kernel computes with tensors; both operands are scalars",
            ),
        )
    })
}

/// scatter_reduce's dtype for reduction `how` on a `d` input, as tg-ops composes it: the
/// values are picked with an integer 0/1 (bool becomes i32), a sum accumulates in the sum's
/// dtype, a mean divides by an i32 count; amax and amin keep the dtype.
pub(super) fn reduce_dtype(d: DType, how: &str) -> DType {
    let picked = d.weak(ScalarKind::Int);
    let sum = picked.sum_dtype().least_upper(d);
    match how {
        "sum" => sum,
        "prod" => picked,
        "mean" => sum.least_upper(DType::I32).float_of(),
        _ => d,
    }
}

pub(super) fn apply<D: Dim>(rule: DtypeRule, a: &Args<D>) -> Result<DType, Fault<D>> {
    use DtypeRule as R;
    let recv = || match &a.recv {
        Value::Tensor(_, d) => Ok(*d),
        _ => Err(a.internal("the receiver is not a tensor")),
    };
    let arg = |name: &str| {
        a.dtype(name)?
            .ok_or_else(|| a.internal(format!("dtype `{name}` is absent")))
    };
    Ok(match rule {
        R::Same => recv()?,
        R::FloatOf => recv()?.float_of(),
        R::Sum => recv()?.sum_dtype(),
        R::Bool => DType::Bool,
        R::I32 => DType::I32,
        R::U8 => DType::U8,
        R::Meet(names) => meet_of(a, true, names)?,
        R::Branches(names) => meet_of(a, false, names)?,
        R::FloatMeet(names) => meet_of(a, true, names)?.float_of(),
        R::BitwiseMeet(names) => {
            let m = meet_of(a, true, names)?;
            if m.is_float() {
                return Err(Fault::new(At::Call, OpError::Bitwise { op: a.op, meet: m }));
            }
            m
        }
        R::Arg(name) => arg(name)?,
        R::ArgOr(name, names) => match a.dtype(name)? {
            Some(d) => d,
            None => meet_of(a, true, names)?,
        },
        R::ArgOrSum(name, names) => match a.dtype(name)? {
            Some(d) => d,
            None => meet_of(a, true, names)?.sum_dtype(),
        },
        R::ArgOrFloat(name) => match a.dtype(name)? {
            Some(d) => d,
            None => recv()?.float_of(),
        },
        R::ArgOrF32(name) => a.dtype(name)?.unwrap_or(DType::F32),
        R::Bitcast(name) => {
            let (from, to) = (recv()?, arg(name)?);
            if !from.can_bitcast(to) {
                return Err(Fault::new(
                    At::Param(name),
                    OpError::Bitcast { op: a.op, from, to },
                ));
            }
            to
        }
        R::Conv => {
            let m = meet_of(a, true, &["weight"])?;
            let out = if m.is_float() { m } else { m.sum_dtype() };
            match a.tensor("bias")? {
                Some((_, b)) => out.least_upper(b),
                None => out,
            }
        }
        R::Scatter => {
            let d = recv()?;
            match a.choice("reduce")? {
                None => d,
                Some(0) => reduce_dtype(d, "sum"),
                Some(_) => reduce_dtype(d, "prod"),
            }
        }
        R::ScatterReduce => {
            let names = crate::ops::Choices::ScatterReduce.names();
            let how = a
                .choice("reduce")?
                .and_then(|i| names.get(i))
                .ok_or_else(|| a.internal("no reduction"))?;
            reduce_dtype(recv()?, how)
        }
        R::Bce => {
            let (_, yd) = a.required("y")?;
            let mut dt = recv()?.float_of().least_upper(yd);
            if a.sig.param("pos_weight").is_some()
                && let Some((_, wd)) = a.tensor("pos_weight")?
            {
                dt = dt.least_upper(wd);
            }
            dt
        }
        R::CrossEntropy => {
            let (shape, d) = a.input()?;
            let (ys, yd) = a.required("y")?;
            if ys.len() == shape.len() {
                d.float_of().least_upper(yd.weak(ScalarKind::Float))
            } else {
                // integer labels make the targets f32 (tinygrad), so f16 logits give f32
                d.float_of().least_upper(DType::F32)
            }
        }
        R::NllLoss => {
            let d = recv()?;
            let (_, yd) = a.required("y")?;
            let wd = a.tensor("weight")?.map_or(yd, |(_, w)| w);
            let nll = d.least_upper(wd);
            match a.choice("reduction")? {
                // "mean", the default: the weighted sum over the total weight
                None | Some(0) => nll.sum_dtype().least_upper(wd.sum_dtype()).float_of(),
                Some(1) => nll.sum_dtype(),
                Some(_) => nll,
            }
        }
        R::Arange => match a.dtype("dtype")? {
            Some(d) => d,
            None => {
                let float = ["start", "stop", "step"]
                    .iter()
                    .any(|n| matches!(a.get(n), Ok(Value::Scalar(ScalarKind::Float, _))));
                if float { DType::F32 } else { DType::I32 }
            }
        },
    })
}
