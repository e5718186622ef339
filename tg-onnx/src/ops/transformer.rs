//! The transformer ops of opsets 23 and later: Attention (3-D or 4-D inputs, grouped key
//! and value heads, a past cache, boolean or additive masks, causal and sliding-window masks,
//! the padding lengths of a static cache, softcap, the four `qk_matmul_output_mode`s),
//! RotaryEmbedding, SwiGLU and TensorScatter.
//!
//! Masks are additive biases built from position comparisons on the device; a row that every
//! bias masks gives 0, as ONNX says (a plain softmax would give NaN there).

use tg_onnx_format::{DType, Result};
use tg_ops::DynTensor;
use tg_ops::untyped::indexing::Index;

use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

fn arange(n: usize) -> R<DynTensor> {
    DynTensor::arange(0i64, n as i64, 1i64, Some(DType::I64))
}

/// `0` where allowed, `-inf` elsewhere, as `dt`.
fn bias_of(allowed: &DynTensor, dt: DType) -> R<DynTensor> {
    allowed.where_(
        DynTensor::full(&[], 0.0, dt)?,
        DynTensor::full(&[], f64::NEG_INFINITY, dt)?,
    )
}

/// (B, S, H * D) -> (B, H, S, D).
fn heads(x: &DynTensor, h: usize) -> R<DynTensor> {
    let s = x.shape();
    x.reshape(&[s[0] as isize, s[1] as isize, h as isize, -1])?
        .permute(&[0, 2, 1, 3])
}

pub(crate) fn attention(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (q, k, v) = (c.t(0)?, c.t(1)?, c.t(2)?);
    let mask = c.opt_t(3)?;
    let (past_k, past_v) = (c.opt_t(4)?, c.opt_t(5)?);
    let nonpad = c.opt_t(6)?;
    let n = c.node;
    let scale_attr = n
        .attrs
        .get("scale")
        .map(|_| n.float_or("scale", 1.0))
        .transpose()?;
    let causal = n.int_or("is_causal", 0)? != 0;
    let qh = n.int("q_num_heads")?;
    let kvh = n.int("kv_num_heads")?;
    let softcap = n.float_or("softcap", 0.0)? as f64;
    let mode = n.int_or("qk_matmul_output_mode", 0)?;
    let left = n.int_or("left_window_size", -1)?;
    let right = n.int_or("right_window_size", -1)?;
    let precision = match n.int("softmax_precision")? {
        Some(code) => Some(tg_onnx_format::dtype::from_onnx(code as i32, &n.name)?),
        None => None,
    };
    if q.ndim() != k.ndim() || q.ndim() != v.ndim() || !(q.ndim() == 3 || q.ndim() == 4) {
        return Err(c.bad("Q, K and V must all be 3-D or all 4-D"));
    }
    if (past_k.is_some()) != (past_v.is_some()) {
        return Err(c.bad("past_key and past_value come together"));
    }
    let three = q.ndim() == 3;
    let (qh, kvh) = if three {
        match (qh, kvh) {
            (Some(a), Some(b)) if a > 0 && b > 0 => (a as usize, b as usize),
            _ => {
                return Err(c.node.bad_attr(
                    "q_num_heads",
                    "3-D inputs need q_num_heads and kv_num_heads",
                ));
            }
        }
    } else {
        (q.shape()[1], k.shape()[1])
    };
    let dt = q.dtype();
    // bfloat16 inputs: every step rounds to bfloat16, as the reference's numpy ops do
    let bf16 = c.value(0)?.exotic() == Some(tg_onnx_format::Exotic::BF16);
    let rnd = |t: DynTensor| -> R<DynTensor> {
        if bf16 {
            super::exotic::round_bf16(&t)
        } else {
            Ok(t)
        }
    };
    let outs = (|| -> R<Vec<DynTensor>> {
        let (q4, mut k4, mut v4) = if three {
            (heads(&q, qh)?, heads(&k, kvh)?, heads(&v, kvh)?)
        } else {
            (q.clone(), k.clone(), v.clone())
        };
        if let (Some(pk), Some(pv)) = (&past_k, &past_v) {
            k4 = DynTensor::cat(&[pk.clone(), k4], 2)?;
            v4 = DynTensor::cat(&[pv.clone(), v4], 2)?;
        }
        let (present_k, present_v) = (k4.clone(), v4.clone());
        let (b, sq, skv) = (q4.shape()[0], q4.shape()[2], k4.shape()[2]);
        let head = q4.shape()[3];
        let scale = scale_attr
            .map(f64::from)
            .unwrap_or(1.0 / (head as f64).sqrt());
        let s = scale.sqrt();
        // the bias: (q, kv), or (b, 1, q, kv) once a per-batch term joins
        let mut bias = DynTensor::zeros(&[sq, skv], dt)?;
        let mut masked_mask: Option<DynTensor> = None;
        if let Some(m) = &mask {
            if m.ndim() == 0 {
                return Err(tg_runtime::Error::Argument {
                    op: "Attention",
                    message: "the mask must have rank 1 or more".into(),
                });
            }
            let pad = skv as isize - m.shape()[m.ndim() - 1] as isize;
            let mut m = m.clone();
            if pad > 0 {
                let mut pads = vec![(0isize, 0isize); m.ndim()];
                pads[m.ndim() - 1] = (0, pad);
                m = if m.dtype() == DType::Bool {
                    m.pad(&pads, false)?
                } else {
                    m.pad(&pads, f64::NEG_INFINITY)?
                };
            }
            masked_mask = Some(if m.dtype() == DType::Bool {
                bias_of(&m, dt)?
            } else {
                m.cast(dt)
            });
        }
        let i = arange(sq)?.reshape(&[-1, 1])?;
        let j = arange(skv)?.reshape(&[1, -1])?;
        // where the query block sits among the keys: after the past, or (static cache)
        // at the end of each batch's valid keys
        let offset: DynTensor = match (&past_k, &nonpad) {
            (Some(pk), _) => DynTensor::full(&[], pk.shape()[2] as i64, DType::I64)?,
            (None, Some(np)) => np
                .cast(DType::I64)
                .sub(sq as i64)?
                .reshape(&[-1, 1, 1, 1])?,
            _ => DynTensor::full(&[], 0i64, DType::I64)?,
        };
        let pos = i.add(&offset)?;
        if causal {
            let base = masked_mask.clone().unwrap_or(bias.clone());
            bias = base.add(&bias_of(&j.le(&pos)?, dt)?)?;
        } else if let Some(m) = &masked_mask {
            bias = bias.add(m)?;
        }
        if left >= 0 || right >= 0 {
            let diff = pos.sub(&j)?;
            let mut allowed = diff.eq(&diff)?;
            if left >= 0 {
                allowed = allowed.logical_and(&diff.le(left)?)?;
            }
            if right >= 0 {
                allowed = allowed.logical_and(&diff.neg()?.le(right)?)?;
            }
            bias = bias.add(&bias_of(&allowed, dt)?)?;
        }
        if let Some(np) = &nonpad {
            let valid = j.lt(&np.cast(DType::I64).reshape(&[-1, 1, 1, 1])?)?;
            bias = bias.add(&bias_of(
                &valid.reshape(&[b as isize, 1, 1, skv as isize])?,
                dt,
            )?)?;
        }
        let hq = q4.shape()[1];
        let hk = k4.shape()[1];
        if hq != hk && hk > 0 && hq % hk == 0 {
            k4 = k4.repeat_interleave(hq / hk, Some(1))?;
            v4 = v4.repeat_interleave(hq / hk, Some(1))?;
        }
        let qs = rnd(q4.mul(s)?)?;
        let ks = rnd(k4.transpose(-1, -2)?.mul(s)?)?;
        let mut qk = rnd(qs.matmul(&ks)?)?;
        if softcap > 0.0 {
            qk = rnd(rnd(rnd(qk.div(softcap)?)?.tanh()?)?.mul(softcap)?)?;
        }
        let with_bias = rnd(qk.add(&bias)?)?;
        let mut qk_out = if mode == 2 {
            with_bias.clone()
        } else {
            qk.clone()
        };
        let sm_in = match precision {
            Some(p) => with_bias.cast(p),
            None => with_bias.clone(),
        };
        let sm = if bf16 {
            let m = sm_in.max(Some(&[-1]), true)?;
            let m = m.isinf(false, true)?.where_(m.zeros_like(), &m)?;
            let e = rnd(rnd(sm_in.sub(&m)?)?.exp()?)?;
            let total = rnd(e.sum(Some(&[-1]), true)?)?;
            rnd(e.div(&total)?)?
        } else {
            sm_in.softmax(-1, None)?
        };
        let all_masked = bias.max(Some(&[-1]), true)?.isinf(false, true)?;
        let sm = all_masked.where_(sm.zeros_like(), &sm)?.cast(dt);
        if mode == 3 {
            qk_out = sm.clone();
        }
        let mut y = rnd(sm.matmul(&v4)?)?;
        if three {
            let ys = y.shape().to_vec();
            y = y
                .permute(&[0, 2, 1, 3])?
                .reshape(&[ys[0] as isize, ys[2] as isize, -1])?;
        }
        Ok(vec![y.cast(dt), present_k, present_v, qk_out.cast(dt)])
    })()
    .at(c)?;
    Ok(outs.into_iter().map(|t| c.out(t)).collect())
}

pub(crate) fn rotary_embedding(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, cos, sin) = (c.t(0)?, c.t(1)?, c.t(2)?);
    let pos = c.opt_t(3)?;
    let interleaved = c.node.int_or("interleaved", 0)? != 0;
    let heads = c.node.int_or("num_heads", 0)?;
    let rot = c.node.int_or("rotary_embedding_dim", 0)?;
    let shape: Vec<isize> = x.shape().iter().map(|&d| d as isize).collect();
    if !(x.ndim() == 3 || x.ndim() == 4) || (x.ndim() == 3 && heads <= 0) {
        return Err(c.bad("takes (B, H, S, D), or (B, S, H * D) with num_heads"));
    }
    let y = (|| -> R<DynTensor> {
        // (B, S, H, D)
        let x4 = if x.ndim() == 4 {
            x.permute(&[0, 2, 1, 3])?
        } else {
            x.reshape(&[shape[0], shape[1], heads as isize, -1])?
        };
        let d = x4.shape()[3];
        let r = if rot == 0 { d } else { rot as usize };
        let half = r / 2;
        let (mut cs, mut sn) = (cos.clone(), sin.clone());
        if let Some(p) = &pos {
            let p = p.cast(DType::I64);
            cs = cs.index(&[Index::Tensor(p.clone())])?;
            sn = sn.index(&[Index::Tensor(p)])?;
        }
        // (B, S, 1, r/2)
        cs = cs.unsqueeze(-2)?;
        sn = sn.unsqueeze(-2)?;
        let rotate = x4.index(&[Index::Ellipsis, Index::slice(..r as isize, 1)])?;
        let keep = x4.index(&[Index::Ellipsis, Index::slice(r as isize.., 1)])?;
        let (x1, x2) = if interleaved {
            (
                rotate.index(&[Index::Ellipsis, Index::slice(.., 2)])?,
                rotate.index(&[Index::Ellipsis, Index::slice(1.., 2)])?,
            )
        } else {
            (
                rotate.index(&[Index::Ellipsis, Index::slice(..half as isize, 1)])?,
                rotate.index(&[Index::Ellipsis, Index::slice(half as isize.., 1)])?,
            )
        };
        let real = cs.mul(&x1)?.sub(&sn.mul(&x2)?)?;
        let imag = sn.mul(&x1)?.add(&cs.mul(&x2)?)?;
        let rotated = if interleaved {
            let rs: Vec<isize> = rotate.shape().iter().map(|&v| v as isize).collect();
            DynTensor::stack(&[real, imag], -1)?.reshape(&rs)?
        } else {
            DynTensor::cat(&[real, imag], -1)?
        };
        let out = DynTensor::cat(&[rotated, keep], -1)?;
        if x.ndim() == 4 {
            out.permute(&[0, 2, 1, 3])
        } else {
            out.reshape(&shape)
        }
    })()
    .at(c)?
    .cast(x.dtype());
    Ok(vec![c.out(y)])
}

pub(crate) fn swiglu(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (a, b) = (c.t(0)?, c.t(1)?);
    let alpha = c.node.float_or("alpha", 1.0)? as f64;
    let y = (|| a.mul(&a.mul(alpha)?.sigmoid()?)?.mul(&b))()
        .at(c)?
        .cast(a.dtype());
    Ok(vec![c.out(y)])
}

pub(crate) fn tensor_scatter(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (cache, upd) = (c.t(0)?, c.t(1)?);
    let idx = c.opt_t(2)?;
    let r = cache.ndim();
    let a = super::axis(c, c.node.int_or("axis", -2)?, r)?;
    let circular = match c.node.string_or("mode", "linear")?.as_str() {
        "linear" => false,
        "circular" => true,
        other => {
            return Err(c
                .node
                .bad_attr("mode", format!("{other:?} is not linear or circular")));
        }
    };
    if upd.ndim() != r || a == 0 {
        return Err(c.bad(
            "the update must have the cache's rank, and the axis must not be the batch axis",
        ));
    }
    let (max_len, len) = (cache.shape()[a], upd.shape()[a]);
    let batch = cache.shape()[0];
    let y = (|| -> R<DynTensor> {
        // positions along the axis: write_indices[b] + s (mod max_len when circular),
        // broadcast over the update's shape
        let start = match &idx {
            Some(i) => i.cast(DType::I64),
            None => DynTensor::zeros(&[batch], DType::I64)?,
        };
        let mut bshape = vec![1isize; r];
        bshape[0] = batch as isize;
        let mut sshape = vec![1isize; r];
        sshape[a] = len as isize;
        let mut p = start
            .reshape(&bshape)?
            .add(&arange(len)?.reshape(&sshape)?)?;
        if circular {
            p = p.modulo(max_len as i64)?;
        }
        let full: Vec<isize> = upd.shape().iter().map(|&d| d as isize).collect();
        cache.scatter(a as isize, &p.expand(&full)?, &upd, None)
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}
