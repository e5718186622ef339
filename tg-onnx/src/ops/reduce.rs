//! Reductions (`Reduce*` with `keepdims` and `noop_with_empty_axes`), CumSum/CumProd with
//! `exclusive` and `reverse`, Softmax/LogSoftmax with the pre-13 "flatten at axis" rule.

use tg_onnx_format::{Error, OpType, Result};
use tg_ops::DynTensor;

use super::axis;
use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

pub(crate) fn reduce(c: &mut NodeCtx) -> Result<Vec<Value>> {
    use OpType as O;
    let x = c.t(0)?;
    let op = c.node.op;
    let axes_input = c.node.since >= 18 || (op == O::ReduceSum && c.node.since >= 13);
    let given = if axes_input {
        c.opt_ints(1)?
    } else {
        c.node.ints("axes")?
    };
    let keep = c.node.int_or("keepdims", 1)? != 0;
    let noop = c.node.int_or("noop_with_empty_axes", 0)? != 0;
    let axes: Vec<isize> = match given {
        Some(a) if !a.is_empty() => a
            .iter()
            .map(|&k| axis(c, k, x.ndim()).map(|k| k as isize))
            .collect::<Result<_>>()?,
        _ if noop => {
            // the identity, but the elementwise part of L1/L2/SumSquare/LogSum still applies
            let y = match op {
                O::ReduceL1 => x.abs(),
                O::ReduceL2 => x.abs(),
                O::ReduceSumSquare => x.mul(&x),
                O::ReduceLogSum => x.log(),
                O::ReduceLogSumExp => Ok(x.clone()),
                _ => Ok(x.clone()),
            }
            .at(c)?;
            return Ok(vec![c.out(y)]);
        }
        _ => (0..x.ndim() as isize).collect(),
    };
    let a = Some(axes.as_slice());
    let y: R<DynTensor> = match op {
        O::ReduceSum => x.sum(a, keep),
        O::ReduceMean => x.mean(a, keep),
        O::ReduceMax => x.max(a, keep),
        O::ReduceMin => x.min(a, keep),
        O::ReduceProd => x.prod(a, keep),
        O::ReduceL1 => x.abs().and_then(|t| t.sum(a, keep)),
        O::ReduceL2 => x.mul(&x).and_then(|t| t.sum(a, keep)?.sqrt()),
        O::ReduceLogSum => x.sum(a, keep).and_then(|t| t.log()),
        O::ReduceLogSumExp => x.logsumexp(a, keep),
        O::ReduceSumSquare => x.mul(&x).and_then(|t| t.sum(a, keep)),
        // the dispatcher sends Reduce* nodes only
        _ => {
            return Err(Error::Internal(format!(
                "node {:?}: {op:?} was dispatched to the reductions",
                c.node.name
            )));
        }
    };
    // ONNX keeps the input's dtype (tg sums narrow integers into i32)
    Ok(vec![c.out(y.at(c)?.cast(x.dtype()))])
}

pub(crate) fn cumulative(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let a0 = c.scalar_i64(1)?;
    let a = axis(c, a0, x.ndim())? as isize;
    let exclusive = c.node.int_or("exclusive", 0)? != 0;
    let reverse = c.node.int_or("reverse", 0)? != 0;
    let prod = c.node.op == OpType::CumProd;
    let y = (|| -> R<DynTensor> {
        let mut t = if reverse { x.flip(&[a])? } else { x.clone() };
        if exclusive {
            // shift by one along the axis, the identity element first
            let n = t.shape()[a as usize];
            let mut pads = vec![(0isize, 0isize); t.ndim()];
            pads[a as usize] = (1, -1);
            let _ = n;
            t = t.pad(&pads, if prod { 1 } else { 0 })?;
        }
        let s = if prod { t.cumprod(a)? } else { t.cumsum(a)? };
        let s = s.cast(x.dtype());
        if reverse { s.flip(&[a]) } else { Ok(s) }
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}

pub(crate) fn softmax(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let log = c.node.op == OpType::LogSoftmax;
    let f = |t: &DynTensor, a: isize| {
        if log {
            t.log_softmax(a, None)
        } else {
            t.softmax(a, None)
        }
    };
    let y = if c.node.since < 13 {
        let a0 = c.node.int_or("axis", 1)?;
        let r = x.ndim() as i64;
        let a = if a0 < 0 { a0 + r } else { a0 };
        if !(0..=r).contains(&a) {
            return Err(c.node.axis_error(a0, x.ndim()));
        }
        let rows: usize = x.shape()[..a as usize].iter().product();
        let shape: Vec<isize> = x.shape().iter().map(|&d| d as isize).collect();
        (|| f(&x.reshape(&[rows as isize, -1])?, 1)?.reshape(&shape))().at(c)?
    } else {
        let a = axis(c, c.node.int_or("axis", -1)?, x.ndim())?;
        f(&x, a as isize).at(c)?
    };
    Ok(vec![c.out(y)])
}
