//! Scaled dot-product attention, as tinygrad composes it.

use tg_ops::DynTensor;
use tg_runtime::{DType, Error, Result};

use super::dropout::dropout;

/// `softmax(q @ k^T / sqrt(d) + mask) @ v` over `(..., L, d)` queries, `(..., S, d)` keys and
/// `(..., S, dv)` values. `mask` is a bool tensor (true: attend) or an additive float one,
/// broadcasting to `(..., L, S)`; `causal` lets query `i` attend keys `0..=i` only (and
/// excludes `mask`). `dropout_p` drops attention weights (training).
pub fn scaled_dot_product_attention(
    q: &DynTensor,
    k: &DynTensor,
    v: &DynTensor,
    mask: Option<&DynTensor>,
    dropout_p: f64,
    causal: bool,
) -> Result<DynTensor> {
    const OP: &str = "scaled_dot_product_attention";
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
    if causal && mask.is_some() {
        return Err(Error::Argument {
            op: OP,
            message: "a causal attention takes no mask".into(),
        });
    }
    let l = q.shape()[q.ndim() - 2];
    let s = k.shape()[k.ndim() - 2];
    let d = q.shape()[q.ndim() - 1] as f64;
    let scores = q.matmul(&k.transpose(-2, -1)?)?.div(d.sqrt())?;
    let additive = match (causal, mask) {
        (true, _) => Some(DynTensor::ones(&[l, s], DType::Bool)?.tril(0)?),
        (false, Some(m)) => Some(m.clone()),
        (false, None) => None,
    };
    let scores = match additive {
        Some(m) if m.dtype() == DType::Bool => m.where_(&scores, f32::NEG_INFINITY)?,
        Some(m) => scores.add(&m)?,
        None => scores,
    };
    let weights = dropout(&scores.softmax(-1, None)?, dropout_p, dropout_p > 0.0)?;
    weights.matmul(v)
}
