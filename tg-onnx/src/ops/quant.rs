//! Quantization: QuantizeLinear and DequantizeLinear (per tensor, per axis, blocked),
//! DynamicQuantizeLinear, QLinearMatMul and QLinearConv. Integer products accumulate exactly
//! in i32; scales apply in f32 and results round half to even and saturate, as ONNX says.

use tg_onnx_format::{DType, Result};
use tg_ops::DynTensor;
use tg_ops::untyped::elementwise::Operand;

use super::axis;
use super::linalg::centered;
use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

/// A scale or zero point shaped to broadcast against `x`: a scalar, a vector along `axis`,
/// or (with `block > 0`) a tensor of x's rank whose `axis` is repeated `block` times.
fn along(v: &DynTensor, x: &[usize], axis: usize, block: usize) -> R<DynTensor> {
    if v.numel() == 1 && block == 0 {
        return v.reshape(&[]);
    }
    if block > 0 {
        let rep = v.repeat_interleave(block, Some(axis as isize))?;
        let keep: Vec<Option<usize>> = (0..x.len())
            .map(|k| if k == axis { Some(x[k]) } else { None })
            .collect();
        return rep.shrink_to(&keep);
    }
    let shape: Vec<isize> = (0..x.len())
        .map(|k| if k == axis { v.numel() as isize } else { 1 })
        .collect();
    v.reshape(&shape)
}

fn saturate(y: &DynTensor, dt: DType) -> R<DynTensor> {
    let lo = Operand::from(tg_runtime::Scalar::Float(dt.min_f64()));
    let hi = Operand::from(tg_runtime::Scalar::Float(dt.max_f64()));
    Ok(y.clamp(Some(lo), Some(hi))?.cast(dt))
}

/// The axis a per-axis or blocked scale lies along (unused, and so unchecked, for a scalar
/// scale) and the block size.
fn axis_block(c: &NodeCtx, rank: usize, scale: &DynTensor) -> Result<(usize, usize)> {
    let block = c.node.int_or("block_size", 0)?.max(0) as usize;
    if scale.numel() == 1 && block == 0 {
        return Ok((0, 0));
    }
    Ok((axis(c, c.node.int_or("axis", 1)?, rank.max(1))?, block))
}

pub(crate) fn quantize(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, scale) = (c.t(0)?, c.t(1)?);
    let zp = c.opt_t(2)?;
    let (out_dt, exotic) = match (&zp, c.node.int_or("output_dtype", 0)?) {
        (Some(z), _) => (z.dtype(), c.value(2)?.exotic()),
        (None, 0) => (DType::U8, None),
        (None, code) => tg_onnx_format::dtype::elem_from_onnx(code as i32, &c.node.name)?,
    };
    let sat = c.node.int_or("saturate", 1)? != 0;
    let (a, block) = axis_block(c, x.ndim(), &scale)?;
    let y = (|| -> R<DynTensor> {
        let s = along(&scale.cast(DType::F32), x.shape(), a, block)?;
        let scaled = exact_div(&x.cast(DType::F32), &s)?;
        let zpf = match &zp {
            Some(z) => Some(along(&z.cast(DType::F32), x.shape(), a, block)?),
            None => None,
        };
        match exotic {
            // a float format rounds the scaled value itself (its zero point is 0)
            Some(e) if e.int_range().is_none() => {
                let v = match &zpf {
                    Some(z) => scaled.add(z)?,
                    None => scaled,
                };
                super::exotic::to_exotic(&v, e, sat)
            }
            _ => {
                let mut q = scaled.round()?;
                if let Some(z) = &zpf {
                    q = q.add(z)?;
                }
                match exotic.and_then(|e| e.int_range()) {
                    Some((lo, hi)) => Ok(q
                        .clamp(
                            Some(Operand::from(tg_runtime::Scalar::Float(lo as f64))),
                            Some(Operand::from(tg_runtime::Scalar::Float(hi as f64))),
                        )?
                        .cast(out_dt)),
                    None => saturate(&q, out_dt),
                }
            }
        }
    })()
    .at(c)?;
    let dynamic = c.ins.iter().flatten().any(Value::dynamic);
    Ok(vec![Value::Dev {
        t: y,
        dynamic,
        exotic,
    }])
}

pub(crate) fn dequantize(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, scale) = (c.t(0)?, c.t(1)?);
    let zp = c.opt_t(2)?;
    let (a, block) = axis_block(c, x.ndim(), &scale)?;
    let out_dt = match c.node.int_or("output_dtype", 0)? {
        0 => scale.dtype(),
        code => tg_onnx_format::dtype::from_onnx(code as i32, &c.node.name)?,
    };
    let scale_exotic = c.value(1)?.exotic();
    let y = (|| -> R<DynTensor> {
        // integers subtract exactly in a wider integer; float storage (8-bit floats) in f32
        let wide = if x.dtype().is_float() {
            DType::F32
        } else if x.dtype() == DType::I32 {
            DType::I64
        } else {
            DType::I32
        };
        let mut v = x.cast(wide);
        if let Some(z) = &zp {
            v = v.sub(&along(&z.cast(wide), x.shape(), a, block)?)?;
        }
        let s = along(&scale.cast(DType::F32), x.shape(), a, block)?;
        let y = v.cast(DType::F32).mul(&s)?.cast(out_dt);
        match scale_exotic {
            Some(e) => super::exotic::round_result(&y, e),
            None => Ok(y),
        }
    })()
    .at(c)?;
    let dynamic = c.ins.iter().flatten().any(Value::dynamic);
    Ok(vec![Value::Dev {
        t: y,
        dynamic,
        exotic: scale_exotic,
    }])
}

pub(crate) fn dynamic_quantize(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let outs = (|| -> R<Vec<DynTensor>> {
        let xf = x.cast(DType::F32);
        let hi = xf.max(None, false)?.maximum(0.0)?;
        let lo = xf.min(None, false)?.minimum(0.0)?;
        let scale = hi.sub(&lo)?.div(255.0)?;
        let zp = saturate(&exact_div(&lo.neg()?, &scale)?.round()?, DType::U8)?;
        let y = saturate(
            &exact_div(&xf, &scale)?.round()?.add(zp.cast(DType::F32))?,
            DType::U8,
        )?;
        Ok(vec![y, scale, zp])
    })()
    .at(c)?;
    Ok(outs.into_iter().map(|t| c.out(t)).collect())
}

/// `a / b` correctly rounded in f32 (tg's `div` multiplies by the reciprocal, which can land
/// a quotient just below a .5 on the .5 and round it the wrong way): the quotient is formed
/// in f64 and rounded once.
fn exact_div(a: &DynTensor, b: &DynTensor) -> R<DynTensor> {
    Ok(a.cast(DType::F64).div(b.cast(DType::F64))?.cast(DType::F32))
}

/// `round(acc * scale) + zero point`, saturated into the zero point's dtype.
fn requantize(acc: &DynTensor, scale: &DynTensor, yz: &DynTensor) -> R<DynTensor> {
    let y = acc
        .cast(DType::F32)
        .mul(scale)?
        .round()?
        .add(yz.reshape(&[])?.cast(DType::F32))?;
    saturate(&y, yz.dtype())
}

pub(crate) fn qlinear_matmul(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (a, a_s, a_z) = (c.t(0)?, c.t(1)?, c.t(2)?);
    let (b, b_s, b_z) = (c.t(3)?, c.t(4)?, c.t(5)?);
    let (y_s, y_z) = (c.t(6)?, c.t(7)?);
    let y = (|| -> R<DynTensor> {
        let ar = a.ndim().saturating_sub(2);
        let bc = b.ndim().saturating_sub(1);
        let ai = centered(&a, Some(&a_z), ar)?;
        let bi = centered(&b, Some(&b_z), bc)?;
        let acc = ai.matmul(&bi)?;
        let sa = along(&a_s.cast(DType::F32), a.shape(), ar, 0)?;
        let sb = along(&b_s.cast(DType::F32), b.shape(), bc, 0)?;
        let scale = sa.mul(&sb)?.div(y_s.reshape(&[])?.cast(DType::F32))?;
        requantize(&acc, &scale, &y_z)
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}

pub(crate) fn qlinear_conv(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, x_s, x_z) = (c.t(0)?, c.t(1)?, c.t(2)?);
    let (w, w_s, w_z) = (c.t(3)?, c.t(4)?, c.t(5)?);
    let (y_s, y_z) = (c.t(6)?, c.t(7)?);
    let bias = c.opt_t(8)?;
    if x.ndim() < 3 || w.ndim() != x.ndim() {
        return Err(c.bad("takes (N, C, spatial...) inputs and weights of the same rank"));
    }
    let kernel = w.shape()[2..].to_vec();
    let win = super::conv::window(c, &x.shape()[2..], &kernel)?;
    let spec = tg_ops::Conv::new()
        .groups(c.node.int_or("group", 1)?.max(1) as usize)
        .stride(tg_ops::Sizes(win.strides))
        .dilation(tg_ops::Sizes(win.dilations))
        .padding(tg_ops::Padding::Pairs(win.pads));
    let y = (|| -> R<DynTensor> {
        let xi = centered(&x, Some(&x_z), 1)?;
        let wi = centered(&w, Some(&w_z), 0)?;
        let mut acc = xi.conv2d(&wi, None, &spec)?.cast(DType::I32);
        let r = acc.ndim();
        let per_out = |v: &DynTensor| -> R<DynTensor> {
            if v.numel() == 1 {
                v.reshape(&[])
            } else {
                let mut s = vec![1isize; r];
                s[1] = v.numel() as isize;
                v.reshape(&s)
            }
        };
        if let Some(b) = &bias {
            acc = acc.add(&per_out(&b.cast(DType::I32))?)?;
        }
        let scale = x_s
            .reshape(&[])?
            .cast(DType::F32)
            .mul(&per_out(&w_s.cast(DType::F32))?)?
            .div(y_s.reshape(&[])?.cast(DType::F32))?;
        requantize(&acc, &scale, &y_z)
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}
