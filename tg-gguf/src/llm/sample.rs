//! Sampling the next token on the device, so only its id is read back: greedy (argmax), or
//! temperature with optional top-k and top-p (nucleus) filtering, drawn by the Gumbel-max
//! trick (`argmax(logits / T + g)`, `g = -log(-log(u))`, u uniform: a draw from
//! `softmax(logits / T)`) with tg's seeded random stream.

use tg_ops::DynTensor;
use tg_runtime::{DType, Result};

/// How the next token is chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampler {
    /// Softmax temperature; 0 (or less) is greedy.
    pub temperature: f32,
    /// Keep only the `k` most likely tokens.
    pub top_k: Option<usize>,
    /// Keep the most likely tokens whose probabilities sum to at least this (1: all).
    pub top_p: f32,
    /// Seed of the random stream (`tg_ops::untyped::random::manual_seed`), set when a
    /// generation starts.
    pub seed: u32,
}

impl Default for Sampler {
    fn default() -> Sampler {
        Sampler { temperature: 0.0, top_k: None, top_p: 1.0, seed: 0 }
    }
}

impl Sampler {
    /// Greedy decoding: the most likely token.
    pub fn greedy() -> Sampler {
        Sampler::default()
    }

    /// Whether this is greedy decoding.
    pub fn is_greedy(&self) -> bool {
        self.temperature <= 0.0
    }
}

/// The sampled token id (i32 `[1]`) from `logits` `[vocab]`; `temp` and `top_p` are runtime
/// scalars (rank 0), so a replay may change them.
pub(crate) fn sample(logits: &DynTensor, s: &Sampler, temp: &DynTensor, top_p: &DynTensor) -> Result<DynTensor> {
    if s.is_greedy() {
        return logits.argmax(Some(0), true);
    }
    let vocab = logits.shape()[0];
    let mut l = logits.div(temp)?;
    if let Some(k) = s.top_k.filter(|&k| k > 0 && k < vocab) {
        // the k-th largest value is the threshold
        let (top, _) = l.topk(k, 0, true)?;
        let kth = top.shrink(&[(k - 1, k)])?;
        l = l.lt(&kth)?.where_(f32::NEG_INFINITY, &l)?;
    }
    if s.top_p < 1.0 {
        // the smallest probability among the most likely tokens whose mass reaches top_p:
        // a token is kept when the mass before it (in descending order) is below top_p
        let p = l.softmax(0, None)?;
        let (sorted, _) = p.sort(0, true)?;
        let before = sorted.cumsum(0)?.sub(&sorted)?;
        let kept = before.lt(top_p)?;
        let threshold = kept.where_(&sorted, f32::INFINITY)?.min(Some(&[0]), true)?;
        l = p.lt(&threshold)?.where_(f32::NEG_INFINITY, &l)?;
    }
    let u = DynTensor::rand(&[vocab], DType::F32)?;
    let g = u.log()?.neg()?.log()?.neg()?;
    l.add(&g)?.argmax(Some(0), true)
}
