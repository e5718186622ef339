//! Scaled dot-product attention as a function of its three tensors (tg-ops'
//! `DynTensor::scaled_dot_product_attention`, which a kernel body calls too).

use tg_ops::DynTensor;
use tg_runtime::Result;

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
    q.scaled_dot_product_attention(k, v, mask, dropout_p, causal)
}
