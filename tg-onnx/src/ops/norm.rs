//! Normalizations: BatchNormalization (inference and training mode), InstanceNormalization,
//! LayerNormalization (with its Mean and InvStdDev outputs), GroupNormalization (opset 18's
//! per-group and 21's per-channel affine), RMSNormalization, MeanVarianceNormalization, LRN,
//! LpNormalization.

use tg_onnx_format::{DType, Result};
use tg_ops::DynTensor;

use super::axis;
use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

/// A per-channel vector `(C,)` shaped to broadcast over axis 1 of a rank-`rank` tensor.
fn per_channel(v: &DynTensor, rank: usize) -> R<DynTensor> {
    let mut shape = vec![1isize; rank];
    if rank > 1 {
        shape[1] = v.numel() as isize;
    }
    v.reshape(&shape)
}

pub(crate) fn lp_normalization(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let a = axis(c, c.node.int_or("axis", -1)?, x.ndim())? as isize;
    let p = c.node.int_or("p", 2)?;
    let y = (|| -> R<DynTensor> {
        let norm = match p {
            1 => x.abs()?.sum(Some(&[a]), true)?,
            _ => x.mul(&x)?.sum(Some(&[a]), true)?.sqrt()?,
        };
        norm.eq(0)?.where_(x.zeros_like(), x.div(&norm)?)
    })()
    .at(c)?
    .cast(x.dtype());
    if p != 1 && p != 2 {
        return Err(c.node.bad_attr("p", format!("{p} is not 1 or 2")));
    }
    Ok(vec![c.out(y)])
}

pub(crate) fn batch_norm(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, scale, bias, mean, var) = (c.t(0)?, c.t(1)?, c.t(2)?, c.t(3)?, c.t(4)?);
    let eps = c.node.float_or("epsilon", 1e-5)? as f64;
    let momentum = c.node.float_or("momentum", 0.9)? as f64;
    let training = c.node.int_or("training_mode", 0)? != 0;
    let r = x.ndim();
    let dt = x.dtype();
    let outs = (|| -> R<Vec<DynTensor>> {
        let norm = |m: &DynTensor, v: &DynTensor| -> R<DynTensor> {
            let inv = per_channel(v, r)?.add(eps)?.rsqrt()?;
            x.sub(&per_channel(m, r)?)?
                .mul(&inv)?
                .mul(&per_channel(&scale, r)?)?
                .add(&per_channel(&bias, r)?)
        };
        if !training {
            return Ok(vec![norm(&mean, &var)?.cast(dt)]);
        }
        let axes: Vec<isize> = (0..r as isize).filter(|&a| a != 1).collect();
        let bm = x.mean(Some(&axes), false)?;
        let bv = x.var(Some(&axes), false, 0.0)?;
        let y = norm(&bm, &bv)?.cast(dt);
        let rm = mean.mul(momentum)?.add(&bm.mul(1.0 - momentum)?)?.cast(dt);
        let rv = var.mul(momentum)?.add(&bv.mul(1.0 - momentum)?)?.cast(dt);
        Ok(vec![y, rm, rv])
    })()
    .at(c)?;
    Ok(outs.into_iter().map(|t| c.out(t)).collect())
}

pub(crate) fn instance_norm(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, scale, bias) = (c.t(0)?, c.t(1)?, c.t(2)?);
    let eps = c.node.float_or("epsilon", 1e-5)? as f64;
    let r = x.ndim();
    let axes: Vec<isize> = (2..r as isize).collect();
    let y = (|| -> R<DynTensor> {
        x.layernorm(&axes, eps)?
            .mul(&per_channel(&scale, r)?)?
            .add(&per_channel(&bias, r)?)
    })()
    .at(c)?
    .cast(x.dtype());
    Ok(vec![c.out(y)])
}

pub(crate) fn layer_norm(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let scale = c.t(1)?;
    let bias = c.opt_t(2)?;
    let eps = c.node.float_or("epsilon", 1e-5)? as f64;
    let a = axis(c, c.node.int_or("axis", -1)?, x.ndim())?;
    let stash = c.node.int_or("stash_type", 1)?;
    let dt = x.dtype();
    let axes: Vec<isize> = (a as isize..x.ndim() as isize).collect();
    let outs = (|| -> R<Vec<DynTensor>> {
        let xs = if stash == 1 {
            x.cast(DType::F32)
        } else {
            x.clone()
        };
        let mean = xs.mean(Some(&axes), true)?;
        let d = xs.sub(&mean)?;
        let var = d.mul(&d)?.mean(Some(&axes), true)?;
        let inv = var.add(eps)?.rsqrt()?;
        let mut y = d.mul(&inv)?.cast(dt).mul(&scale)?;
        if let Some(b) = &bias {
            y = y.add(b)?;
        }
        let st = if stash == 1 { DType::F32 } else { dt };
        Ok(vec![y.cast(dt), mean.cast(st), inv.cast(st)])
    })()
    .at(c)?;
    Ok(outs.into_iter().map(|t| c.out(t)).collect())
}

pub(crate) fn group_norm(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, scale, bias) = (c.t(0)?, c.t(1)?, c.t(2)?);
    let eps = c.node.float_or("epsilon", 1e-5)? as f64;
    let g = c
        .node
        .int("num_groups")?
        .ok_or_else(|| c.node.bad_attr("num_groups", "missing"))?;
    let s = x.shape().to_vec();
    if s.len() < 2 || g <= 0 || s[1] % g as usize != 0 {
        return Err(c.bad(format!("{g} groups do not divide the channels")));
    }
    let g = g as usize;
    let shape: Vec<isize> = s.iter().map(|&d| d as isize).collect();
    let y = (|| -> R<DynTensor> {
        let xg = x
            .cast(DType::F32)
            .reshape(&[s[0] as isize, g as isize, -1])?;
        let n = xg.layernorm(&[-1], eps)?.reshape(&shape)?.cast(x.dtype());
        let (sc, bi) = if scale.numel() == g && g != s[1] {
            // opset 18: one scale and bias per group
            let per = (s[1] / g) as isize;
            (
                scale
                    .reshape(&[g as isize, 1])?
                    .expand(&[g as isize, per])?
                    .reshape(&[-1])?,
                bias.reshape(&[g as isize, 1])?
                    .expand(&[g as isize, per])?
                    .reshape(&[-1])?,
            )
        } else {
            (scale.clone(), bias.clone())
        };
        n.mul(&per_channel(&sc, s.len())?)?
            .add(&per_channel(&bi, s.len())?)
    })()
    .at(c)?
    .cast(x.dtype());
    Ok(vec![c.out(y)])
}

pub(crate) fn rms_norm(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, scale) = (c.t(0)?, c.t(1)?);
    let eps = c.node.float_or("epsilon", 1e-5)? as f64;
    let a = axis(c, c.node.int_or("axis", -1)?, x.ndim())?;
    let stash = c.node.int_or("stash_type", 1)?;
    let axes: Vec<isize> = (a as isize..x.ndim() as isize).collect();
    let y = (|| -> R<DynTensor> {
        let xs = if stash == 1 {
            x.cast(DType::F32)
        } else {
            x.clone()
        };
        let inv = xs.mul(&xs)?.mean(Some(&axes), true)?.add(eps)?.rsqrt()?;
        xs.mul(&inv)?.cast(x.dtype()).mul(&scale)
    })()
    .at(c)?
    .cast(x.dtype());
    Ok(vec![c.out(y)])
}

pub(crate) fn mean_variance_norm(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let axes: Vec<isize> = match c.node.ints("axes")? {
        Some(a) => a
            .iter()
            .map(|&k| axis(c, k, x.ndim()).map(|k| k as isize))
            .collect::<Result<_>>()?,
        None => vec![0, 2, 3],
    };
    let y = (|| -> R<DynTensor> {
        let m = x.mean(Some(&axes), true)?;
        let m2 = x.mul(&x)?.mean(Some(&axes), true)?;
        let sd = m2.sub(&m.mul(&m)?)?.sqrt()?;
        x.sub(&m)?.div(&sd.add(1e-9)?)
    })()
    .at(c)?
    .cast(x.dtype());
    Ok(vec![c.out(y)])
}

pub(crate) fn lrn(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let alpha = c.node.float_or("alpha", 1e-4)? as f64;
    let beta = c.node.float_or("beta", 0.75)? as f64;
    let bias = c.node.float_or("bias", 1.0)? as f64;
    let size = c
        .node
        .int("size")?
        .ok_or_else(|| c.node.bad_attr("size", "missing"))?
        .max(1) as usize;
    if x.ndim() < 2 {
        return Err(c.bad("LRN takes (N, C, ...) inputs"));
    }
    let ch = x.shape()[1];
    let before = (size - 1) / 2;
    let after = size - 1 - before;
    let y = (|| -> R<DynTensor> {
        let sq = x.mul(&x)?;
        let mut pads = vec![(0isize, 0isize); x.ndim()];
        pads[1] = (before as isize, after as isize);
        let padded = sq.pad(&pads, 0)?;
        // the channel window's sum: `size` shifted views added
        let mut sum: Option<DynTensor> = None;
        for k in 0..size {
            let mut r: Vec<(usize, usize)> = x.shape().iter().map(|&d| (0, d)).collect();
            r[1] = (k, k + ch);
            let v = padded.shrink(&r)?;
            sum = Some(match sum {
                None => v,
                Some(s) => s.add(&v)?,
            });
        }
        let s = sum.ok_or(tg_runtime::Error::Argument {
            op: "LRN",
            message: "size 0".into(),
        })?;
        x.div(&s.mul(alpha / size as f64)?.add(bias)?.pow(beta)?)
    })()
    .at(c)?
    .cast(x.dtype());
    Ok(vec![c.out(y)])
}
