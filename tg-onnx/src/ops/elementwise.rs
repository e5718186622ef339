//! Elementwise ops: math, activations, comparisons, logic, casts. ONNX's binary ops take two
//! operands of one dtype and broadcast them as numpy does, which is tg's rule for equal
//! dtypes.

use tg_onnx_format::{OpType, Result};
use tg_ops::DynTensor;
use tg_ops::untyped::elementwise::Operand;

use crate::value::{At, NodeCtx, Value};

type R = std::result::Result<DynTensor, tg_runtime::Error>;

/// Unary math and activations.
pub(crate) fn unary(c: &mut NodeCtx) -> Result<Vec<Value>> {
    use OpType as O;
    let n = c.node;
    let x = c.t(0)?;
    let f = |a: &str, d: f32| n.float_or(a, d).map(f64::from);
    let y: R = match n.op {
        O::Abs => x.abs(),
        O::Acos => x.acos(),
        O::Acosh => x.acosh(),
        O::Asin => x.asin(),
        O::Asinh => x.asinh(),
        O::Atan => x.atan(),
        O::Atanh => x.atanh(),
        O::Ceil => x.ceil(),
        O::Cos => x.cos(),
        O::Cosh => x.cosh(),
        O::Erf => x.erf(),
        O::Exp => x.exp(),
        O::Floor => x.floor(),
        O::IsNaN => x.isnan(),
        O::IsInf => x.isinf(
            n.int_or("detect_positive", 1)? != 0,
            n.int_or("detect_negative", 1)? != 0,
        ),
        O::Log => x.log(),
        O::Neg => x.neg(),
        O::Not => x.logical_not(),
        O::BitwiseNot => x.bitwise_not(),
        O::Reciprocal => x.reciprocal(),
        O::Round => x.round(),
        O::Sign => x.sign(),
        O::Sin => x.sin(),
        O::Sinh => x.sinh(),
        O::Sqrt => x.sqrt(),
        O::Tan => x.tan(),
        O::Tanh => x.tanh(),
        O::Relu => x.relu(),
        O::Sigmoid => x.sigmoid(),
        O::Softsign => x.softsign(),
        O::Softplus => x.softplus(1.0),
        O::Mish => x.mish(),
        O::HardSwish => x.hardswish(),
        O::LeakyRelu => x.leaky_relu(f("alpha", 0.01)?),
        O::Elu => {
            let a = f("alpha", 1.0)?;
            x.gt(0).and_then(|p| p.where_(&x, x.exp()?.sub(1)?.mul(a)?))
        }
        O::Celu => x.celu(f("alpha", 1.0)?),
        O::Selu => {
            let a = f("alpha", 1.673_263_2)?;
            let g = f("gamma", 1.050_701)?;
            x.gt(0)
                .and_then(|p| p.where_(&x, x.exp()?.sub(1)?.mul(a)?))
                .and_then(|y| y.mul(g))
        }
        O::HardSigmoid => {
            let (a, b) = (f("alpha", 0.2)?, f("beta", 0.5)?);
            x.mul(a).and_then(|y| y.add(b)).and_then(|y| {
                y.clamp(
                    Some(Operand::from(tg_runtime::Scalar::Float(0.0))),
                    Some(Operand::from(tg_runtime::Scalar::Float(1.0))),
                )
            })
        }
        O::ThresholdedRelu => {
            let a = f("alpha", 1.0)?;
            x.gt(a).and_then(|p| p.where_(&x, x.zeros_like()))
        }
        O::Shrink => {
            let (bias, l) = (f("bias", 0.0)?, f("lambd", 0.5)?);
            (|| {
                let below = x.lt(-l)?;
                let above = x.gt(l)?;
                below.where_(x.add(bias)?, above.where_(x.sub(bias)?, x.zeros_like())?)
            })()
        }
        O::Gelu => match n.string_or("approximate", "none")?.as_str() {
            "none" => x.gelu_erf(),
            "tanh" => x.gelu(),
            other => {
                return Err(n.bad_attr("approximate", format!("{other:?} is not none or tanh")));
            }
        },
        O::Swish => {
            let a = f("alpha", 1.0)?;
            x.mul(a).and_then(|y| y.sigmoid()).and_then(|s| x.mul(&s))
        }
        _ => {
            return Err(tg_onnx_format::Error::Internal(format!(
                "{:?} is not unary",
                n.op
            )));
        }
    };
    // a float op keeps the input's float dtype (tg computes f16 in f32 and rounds once)
    Ok(vec![c.out(y.at(c)?)])
}

/// Binary and variadic elementwise ops.
pub(crate) fn binary(c: &mut NodeCtx) -> Result<Vec<Value>> {
    use OpType as O;
    let n = c.node;
    if matches!(n.op, O::Max | O::Min | O::Sum | O::Mean) {
        let ts: Vec<DynTensor> = (0..c.ins.len())
            .filter(|&i| c.has(i))
            .map(|i| c.t(i))
            .collect::<Result<_>>()?;
        let Some(first) = ts.first() else {
            return Err(n.arity("needs at least one input"));
        };
        let mut acc = first.clone();
        for t in &ts[1..] {
            acc = match n.op {
                O::Max => acc.maximum(t),
                O::Min => acc.minimum(t),
                _ => acc.add(t),
            }
            .at(c)?;
        }
        if n.op == O::Mean {
            acc = acc.div(ts.len() as f64).at(c)?;
        }
        // a single input still has its own shape; the result keeps the dtype
        return Ok(vec![c.out(acc.cast(first.dtype()))]);
    }
    let (a, b) = (c.t(0)?, c.t(1)?);
    let y: R = match n.op {
        O::Add => a.add(&b),
        O::Sub => a.sub(&b),
        O::Mul => a.mul(&b),
        O::Div if a.dtype().is_float() => a.div(&b),
        O::Div => a.idiv(&b),
        O::Pow => a.pow(&b).map(|y| y.cast(a.dtype())),
        O::Mod => {
            if n.int_or("fmod", 0)? != 0 {
                a.fmod(&b)
            } else {
                // numpy's `mod`: the sign of the divisor, for integers and floats
                a.modulo(&b)
            }
        }
        O::And => a.logical_and(&b),
        O::Or => a.logical_or(&b),
        O::Xor => a.logical_xor(&b),
        O::BitwiseAnd => a.bitwise_and(&b),
        O::BitwiseOr => a.bitwise_or(&b),
        O::BitwiseXor => a.bitwise_xor(&b),
        O::BitShift => match n.string_or("direction", "")?.as_str() {
            "LEFT" => a.shl(&b),
            "RIGHT" => a.shr(&b),
            other => return Err(n.bad_attr("direction", format!("{other:?} is not LEFT or RIGHT"))),
        },
        O::Equal => a.eq(&b),
        O::Greater => a.gt(&b),
        O::GreaterOrEqual => a.ge(&b),
        O::Less => a.lt(&b),
        O::LessOrEqual => a.le(&b),
        O::PRelu => a
            .lt(0)
            .and_then(|neg| neg.where_(a.mul(&b)?, &a))
            .map(|y| y.cast(a.dtype())),
        _ => {
            return Err(tg_onnx_format::Error::Internal(format!(
                "{:?} is not binary",
                n.op
            )));
        }
    };
    Ok(vec![c.out(y.at(c)?)])
}

/// `Where(cond, x, y)`.
pub(crate) fn where_(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (cond, x, y) = (c.t(0)?, c.t(1)?, c.t(2)?);
    let out = cond.where_(&x, &y).at(c)?.cast(x.dtype());
    Ok(vec![c.out(out)])
}

/// `Clip(x, min, max)`: attributes before opset 11, optional inputs after.
pub(crate) fn clip(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let (lo, hi) = if c.node.since < 11 {
        let lo = c.node.float_or("min", f32::NEG_INFINITY)? as f64;
        let hi = c.node.float_or("max", f32::INFINITY)? as f64;
        (
            Some(DynTensor::full(&[], lo, x.dtype()).at(c)?),
            Some(DynTensor::full(&[], hi, x.dtype()).at(c)?),
        )
    } else {
        (c.opt_t(1)?, c.opt_t(2)?)
    };
    // min(max(x, lo), hi): where the bounds cross, ONNX gives the upper bound
    let mut y = x.clone();
    if let Some(lo) = lo {
        y = y.maximum(&lo).at(c)?;
    }
    if let Some(hi) = hi {
        y = y.minimum(&hi).at(c)?;
    }
    Ok(vec![c.out(y.cast(x.dtype()))])
}

/// `Cast` and `CastLike`, into tg's dtypes or ONNX's exotic ones (rounded into their
/// storage dtype, with `saturate` for the 8-bit floats).
pub(crate) fn cast(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (to, exotic) = if c.node.op == OpType::CastLike {
        let like = c.value(1)?;
        (like.dtype(), like.exotic())
    } else {
        let code = c
            .node
            .int("to")?
            .ok_or_else(|| c.node.bad_attr("to", "missing"))?;
        tg_onnx_format::dtype::elem_from_onnx(code as i32, &c.node.name)?
    };
    let x = c.t(0)?;
    let saturate = c.node.int_or("saturate", 1)? != 0;
    let dynamic = c.ins.iter().flatten().any(Value::dynamic);
    Ok(vec![match exotic {
        None => c.out(x.cast(to)),
        Some(e) => Value::Dev {
            t: super::exotic::to_exotic(&x, e, saturate).at(c)?,
            dynamic,
            exotic: Some(e),
        },
    }])
}

/// `Identity`.
pub(crate) fn identity(c: &mut NodeCtx) -> Result<Vec<Value>> {
    Ok(vec![c.value(0)?.clone()])
}
