//! Scaled dot-product attention: the runtime's fused attention (`Lazy::attention`, no
//! `L x S` scores stored forward or backward) where it applies, else as tinygrad composes it.

use tg_runtime::graph::lazy::{MAX_ATTENTION_LEN, MAX_ATTENTION_WIDTH};
use tg_runtime::{DType, Error, Result};

use crate::untyped::DynTensor;
use crate::untyped::broadcast::broadcast_shapes;

impl DynTensor {
    /// `softmax(q @ k^T / sqrt(d) + mask) @ v` with `self` the `(..., L, d)` queries, `key`
    /// `(..., S, d)` and `value` `(..., S, dv)`: `(..., L, dv)`, batch axes broadcast.
    /// `attn_mask` is a bool tensor (true: attend) or an additive float one, broadcasting to
    /// `(..., L, S)`; `is_causal` lets query `i` attend keys `0..=i` only (and takes no mask);
    /// `dropout_p` drops attention weights (training).
    ///
    /// f32 or f16 queries, keys and values (one dtype; f16 is computed in f32 and rounded
    /// once) of up to [`MAX_ATTENTION_LEN`] rows of up to [`MAX_ATTENTION_WIDTH`], with no
    /// mask, a causal one or a bool or float mask, take the runtime's fused attention
    /// (`Lazy::attention`: one pass a query row by an online softmax, the gradients one pass
    /// a query row and one a key row), which stores no `L x S` scores (a mask is read as it
    /// broadcasts: one row for every query is stored once, as a bool mask's 0 and `-inf`);
    /// everything else the composition, `dropout(softmax(q k^T / sqrt(d) + mask)) v` of ops.
    /// Dropout draws the composition's numbers (`rand` of the weights' shape and dtype from
    /// the process-wide stream), so a seed drops the same weights either way; the fused
    /// attention stores the decisions a byte a weight, packs them to a bit a weight
    /// (`Lazy::attention_dropout`) and its forward and backward passes read the bits, where
    /// the composition stores the scores, the weights, the draw and the dropped weights, 4
    /// bytes each.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let q = DynTensor::ones(&[2, 3, 4], DType::F32).unwrap();
    /// let v = DynTensor::from_slice(&[2, 3, 1], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let y = q.scaled_dot_product_attention(&q, &v, None, 0.0, true).unwrap();
    /// assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.0, 1.5, 2.0, 4.0, 4.5, 5.0]);
    /// ```
    pub fn scaled_dot_product_attention(
        &self,
        key: &DynTensor,
        value: &DynTensor,
        attn_mask: Option<&DynTensor>,
        dropout_p: f64,
        is_causal: bool,
    ) -> Result<DynTensor> {
        const OP: &str = "scaled_dot_product_attention";
        let (q, k, v) = (self, key, value);
        if q.ndim() < 2
            || k.ndim() < 2
            || v.ndim() < 2
            || q.shape()[q.ndim() - 1] != k.shape()[k.ndim() - 1]
        {
            return Err(Error::Shape {
                op: OP,
                message: format!(
                    "queries {:?} and keys {:?} need (..., L, d) and (..., S, d); values {:?} (..., S, dv)",
                    q.shape(),
                    k.shape(),
                    v.shape()
                ),
            });
        }
        if is_causal && attn_mask.is_some() {
            return Err(Error::Argument {
                op: OP,
                message: "a causal attention takes no mask".into(),
            });
        }
        if !(0.0..1.0).contains(&dropout_p) {
            return Err(Error::Argument {
                op: OP,
                message: format!("dropout_p = {dropout_p} is not in [0, 1)"),
            });
        }
        if let Some(y) = fused(q, k, v, attn_mask, dropout_p, is_causal)? {
            return Ok(y);
        }
        let l = q.shape()[q.ndim() - 2];
        let s = k.shape()[k.ndim() - 2];
        let d = q.shape()[q.ndim() - 1] as f64;
        let scores = q.matmul(&k.transpose(-2, -1)?)?.div(d.sqrt())?;
        let mask = match (is_causal, attn_mask) {
            (true, _) => Some(DynTensor::ones(&[l, s], DType::Bool)?.tril(0)?),
            (false, m) => m.cloned(),
        };
        let scores = match mask {
            Some(m) if m.dtype() == DType::Bool => m.where_(&scores, f32::NEG_INFINITY)?,
            Some(m) => scores.add(&m)?,
            None => scores,
        };
        scores.softmax(-1, None)?.dropout(dropout_p)?.matmul(v)
    }
}

/// The fused attention of `q`, `k` and `v` (their batch axes and the mask's broadcast), or
/// `None` where it does not apply (another dtype, a length or width past its limits, no
/// keys, or shapes the composition rejects with its own message).
fn fused(
    q: &DynTensor,
    k: &DynTensor,
    v: &DynTensor,
    mask: Option<&DynTensor>,
    dropout_p: f64,
    causal: bool,
) -> Result<Option<DynTensor>> {
    let rows = |t: &DynTensor| t.shape()[t.ndim() - 2];
    let width = |t: &DynTensor| t.shape()[t.ndim() - 1];
    fn batch(t: &DynTensor) -> &[usize] {
        &t.shape()[..t.ndim() - 2]
    }
    // f16 is computed in f32 and rounded once, at the end (the composition rounds its scores,
    // weights and sums to f16 op by op)
    let dtype = q.dtype();
    let applies = matches!(dtype, DType::F32 | DType::F16)
        && [k, v].iter().all(|t| t.dtype() == dtype)
        && rows(k) == rows(v)
        && [rows(q), rows(k)]
            .iter()
            .all(|n| (1..=MAX_ATTENTION_LEN).contains(n))
        && [width(q), width(v)]
            .iter()
            .all(|n| (1..=MAX_ATTENTION_WIDTH).contains(n));
    let mask_applies = mask.is_none_or(|m| {
        matches!(m.dtype(), DType::Bool | DType::F32 | DType::F16)
            && m.ndim() >= 2
            && broadcast_shapes(
                "scaled_dot_product_attention",
                &[&m.shape()[m.ndim() - 2..], &[rows(q), rows(k)]],
            )
            .is_ok_and(|s| s == [rows(q), rows(k)])
    });
    if !applies || !mask_applies {
        return Ok(None);
    }
    let mut batches = vec![batch(q), batch(k), batch(v)];
    batches.extend(mask.map(batch));
    let Ok(batch) = broadcast_shapes("scaled_dot_product_attention", &batches) else {
        return Ok(None);
    };
    let full = |t: &DynTensor| {
        let mut shape = batch.clone();
        shape.extend_from_slice(&t.shape()[t.ndim() - 2..]);
        t.cast(DType::F32).broadcast_to(&shape)
    };
    // the mask as the kernel reads it: its batch axes the queries' or ones, a row for every
    // query or one for all, a value a key; a bool mask as 0 and -inf
    let mask = match mask {
        None => None,
        Some(m) => {
            let m = match m.dtype() {
                DType::Bool => m.where_(0.0f32, f32::NEG_INFINITY)?.cast(DType::F32),
                _ => m.cast(DType::F32),
            };
            let own = &m.shape()[..m.ndim() - 2];
            let mut shape = match own.iter().all(|&n| n == 1) {
                true => vec![1; batch.len()],
                false => batch.clone(),
            };
            shape.extend([m.shape()[m.ndim() - 2], rows(k)]);
            Some(m.broadcast_to(&shape)?)
        }
    };
    let (fq, fk, fv) = (full(q)?, full(k)?, full(v)?);
    let mask = mask.as_ref().map(|m| m.lazy());
    let out = if dropout_p > 0.0 {
        // the weights' shape and dtype, as the composition draws them
        let mut weights = batch.clone();
        weights.extend([rows(q), rows(k)]);
        // the decisions stored a byte a weight by an elementwise kernel (as `rand` stores its
        // values), then packed: the draw's threefry under the packing's reduction took the
        // scheduler 60 ms an eager call (B 16, H 4, T 128), and the GPU time was the same
        let kept = DynTensor::wrap(DynTensor::rand_values(&weights, dtype)?)
            .ge(dropout_p)?
            .contiguous();
        fq.lazy().attention_dropout(
            fk.lazy(),
            fv.lazy(),
            causal,
            mask,
            &kept.lazy().pack_bits()?,
            dropout_p,
        )?
    } else {
        fq.lazy().attention(fk.lazy(), fv.lazy(), causal, mask)?
    };
    // the values, without the logsumexp's column
    let values = out.narrow(out.ndim() - 1, 0, width(v))?;
    Ok(Some(DynTensor::wrap(values).cast(dtype)))
}
