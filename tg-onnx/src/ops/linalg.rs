//! Products: MatMul, Gemm, Einsum, MatMulInteger.

use tg_onnx_format::{DType, Result};
use tg_ops::DynTensor;

use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

pub(crate) fn matmul(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (a, b) = (c.t(0)?, c.t(1)?);
    let y = a.matmul(&b).at(c)?.cast(a.dtype());
    Ok(vec![c.out(y)])
}

pub(crate) fn gemm(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (a, b) = (c.t(0)?, c.t(1)?);
    let bias = c.opt_t(2)?;
    let alpha = c.node.float_or("alpha", 1.0)? as f64;
    let beta = c.node.float_or("beta", 1.0)? as f64;
    let ta = c.node.int_or("transA", 0)? != 0;
    let tb = c.node.int_or("transB", 0)? != 0;
    if a.ndim() != 2 || b.ndim() != 2 {
        return Err(c.bad("Gemm takes 2-D A and B"));
    }
    let y = (|| -> R<DynTensor> {
        let a2 = if ta { a.t()? } else { a.clone() };
        let b2 = if tb { b.t()? } else { b.clone() };
        let mut y = a2.matmul(&b2)?.cast(a.dtype());
        if alpha != 1.0 {
            y = y.mul(alpha)?;
        }
        if let Some(bias) = &bias {
            y = if beta != 1.0 {
                y.add(&bias.mul(beta)?)?
            } else {
                y.add(bias)?
            };
        }
        Ok(y.cast(a.dtype()))
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}

pub(crate) fn einsum(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let eq: String = c
        .node
        .string_or("equation", "")?
        .chars()
        .filter(|ch| !ch.is_whitespace())
        .collect();
    let ops: Vec<DynTensor> = (0..c.ins.len())
        .filter(|&i| c.has(i))
        .map(|i| c.t(i))
        .collect::<Result<_>>()?;
    let dtype = ops.first().map(|t| t.dtype()).unwrap_or(DType::F32);
    let y = DynTensor::einsum(&eq, &ops, None).at(c)?.cast(dtype);
    Ok(vec![c.out(y)])
}

/// `x - zero_point` in i32, a 1-D zero point lying along `axis` of `x`.
pub(crate) fn centered(x: &DynTensor, zp: Option<&DynTensor>, axis: usize) -> R<DynTensor> {
    let xi = x.cast(DType::I32);
    match zp {
        None => Ok(xi),
        Some(z) if z.numel() == 1 => xi.sub(z.reshape(&[])?.cast(DType::I32)),
        Some(z) => {
            let shape: Vec<isize> = (0..x.ndim())
                .map(|k| if k == axis { z.numel() as isize } else { 1 })
                .collect();
            xi.sub(&z.cast(DType::I32).reshape(&shape)?)
        }
    }
}

pub(crate) fn matmul_integer(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (a, b) = (c.t(0)?, c.t(1)?);
    let (az, bz) = (c.opt_t(2)?, c.opt_t(3)?);
    let y = (|| -> R<DynTensor> {
        // a's zero point is per row (axis -2), b's per column (axis -1)
        let ai = centered(&a, az.as_ref(), a.ndim().saturating_sub(2))?;
        let bi = centered(&b, bz.as_ref(), b.ndim().saturating_sub(1))?;
        Ok(ai.matmul(&bi)?.cast(DType::I32))
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}
