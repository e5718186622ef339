//! Sequences and optionals: values of the executor (`Value::Seq`, `Value::Opt`) holding
//! tensors; the ops build, read and join them. (SequenceMap runs a subgraph, so the executor
//! runs it.)

use tg_onnx_format::{DType, HostTensor, OpType, Result};
use tg_ops::DynTensor;
use tg_ops::untyped::indexing::Index;

use super::axis;
use crate::value::{At, NodeCtx, Value};

/// A position in a sequence of `len` (negative counts from the end; `insert` allows `len`).
fn position(c: &mut NodeCtx, i: usize, len: usize, insert: bool) -> Result<Option<usize>> {
    let Some(p) = c.opt_scalar_i64(i)? else {
        return Ok(None);
    };
    let n = len as i64;
    let q = if p < 0 { p + n } else { p };
    let hi = if insert { n } else { n - 1 };
    if !(0..=hi).contains(&q) {
        return Err(c
            .node
            .input_value(i, p as f64, format!("outside a sequence of {len}")));
    }
    Ok(Some(q as usize))
}

pub(crate) fn sequence(c: &mut NodeCtx) -> Result<Vec<Value>> {
    use OpType as O;
    Ok(vec![match c.node.op {
        O::SequenceConstruct => Value::Seq(c.ins.iter().flatten().cloned().collect()),
        O::SequenceEmpty => Value::Seq(Vec::new()),
        O::SequenceAt => {
            let s = c.seq(0)?;
            let p = position(c, 1, s.len(), false)?
                .ok_or_else(|| c.node.arity("position is required"))?;
            s[p].clone()
        }
        O::SequenceInsert => {
            let mut s = c.seq(0)?;
            let v = c.value(1)?.clone();
            let p = position(c, 2, s.len(), true)?.unwrap_or(s.len());
            s.insert(p, v);
            Value::Seq(s)
        }
        O::SequenceErase => {
            let mut s = c.seq(0)?;
            if s.is_empty() {
                return Err(c.bad("erasing from an empty sequence"));
            }
            let p = position(c, 1, s.len(), false)?.unwrap_or(s.len() - 1);
            s.remove(p);
            Value::Seq(s)
        }
        O::SequenceLength => {
            let n = c.seq(0)?.len() as i64;
            Value::Host(HostTensor::from_i64s(DType::I64, &[], &[n]))
        }
        O::SplitToSequence => return split_to_sequence(c),
        O::ConcatFromSequence => {
            let s = c.seq(0)?;
            let ts: Vec<DynTensor> = s
                .iter()
                .map(|v| match v {
                    Value::Host(h) => crate::value::upload(h).at(c),
                    Value::Dev { t, .. } => Ok(t.clone()),
                    _ => Err(c.bad("a sequence of tensors is needed")),
                })
                .collect::<Result<_>>()?;
            let first = ts.first().ok_or_else(|| c.bad("the sequence is empty"))?;
            let new_axis = c.node.int_or("new_axis", 0)? != 0;
            let a = c
                .node
                .int("axis")?
                .ok_or_else(|| c.node.bad_attr("axis", "missing"))?;
            let a = axis(c, a, first.ndim() + new_axis as usize)? as isize;
            let t = if new_axis {
                DynTensor::stack(&ts, a)
            } else {
                DynTensor::cat(&ts, a)
            }
            .at(c)?;
            c.out(t)
        }
        O::Optional => Value::Opt(c.ins.first().cloned().flatten().map(Box::new)),
        O::OptionalHasElement => {
            let has = match c.ins.first() {
                Some(Some(Value::Opt(v))) => v.is_some(),
                Some(Some(_)) => true,
                _ => false,
            };
            Value::Host(HostTensor::from_i64s(DType::Bool, &[], &[has as i64]))
        }
        O::OptionalGetElement => match c.value(0)? {
            Value::Opt(Some(v)) => (**v).clone(),
            Value::Opt(None) => return Err(c.bad("the optional is empty")),
            other => other.clone(),
        },
        _ => {
            return Err(tg_onnx_format::Error::Internal(format!(
                "{:?} is not a sequence op",
                c.node.op
            )));
        }
    }])
}

fn split_to_sequence(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let a = axis(c, c.node.int_or("axis", 0)?, x.ndim())?;
    let n = x.shape()[a];
    let keepdims = c.node.int_or("keepdims", 1)? != 0;
    let split = c.opt_host(1)?;
    let parts: Vec<DynTensor> = match split {
        None => {
            let mut out = Vec::with_capacity(n);
            for i in 0..n {
                let mut idx: Vec<Index> = (0..x.ndim()).map(|_| Index::full()).collect();
                idx[a] = if keepdims {
                    Index::slice(i as isize..i as isize + 1, 1)
                } else {
                    Index::Int(i as isize)
                };
                out.push(x.index(&idx).at(c)?);
            }
            out
        }
        Some(h) if h.shape.is_empty() => {
            let size = c.node.scalar_i64(1, &h)?;
            if size < 1 {
                return Err(c
                    .node
                    .input_value(1, size as f64, "a split size must be at least 1"));
            }
            let size = size as usize;
            let sizes: Vec<usize> = (0..n.div_ceil(size))
                .map(|i| size.min(n - i * size))
                .collect();
            x.split(&sizes, a as isize).at(c)?
        }
        Some(h) => {
            let sizes = h.to_i64s();
            if let Some(&v) = sizes.iter().find(|&&v| v < 0) {
                return Err(c
                    .node
                    .input_value(1, v as f64, "split sizes cannot be negative"));
            }
            let sizes: Vec<usize> = sizes.iter().map(|&v| v as usize).collect();
            if sizes.iter().sum::<usize>() != n {
                return Err(c.bad(format!("split sizes {sizes:?} do not add up to {n}")));
            }
            x.split(&sizes, a as isize).at(c)?
        }
    };
    Ok(vec![Value::Seq(
        parts.into_iter().map(|t| c.out(t)).collect(),
    )])
}
