//! Sampling the next token on the device, so only its id is read back: greedy (argmax), or
//! temperature with optional top-k and top-p (nucleus) filtering, drawn by the Gumbel-max
//! trick (`argmax(logits / T + g)`, `g = -log(-log(u))`, u uniform: a draw from
//! `softmax(logits / T)`).
//!
//! The uniforms are a hash of each token's index and a key (a runtime var the host sets from
//! the seed and the position), not tg's process-wide random stream: a generation's draws
//! then depend on its seed alone, whatever other threads draw meanwhile.

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
    /// Seed of the draws: with the position, it keys each step's uniforms.
    pub seed: u32,
}

impl Default for Sampler {
    fn default() -> Sampler {
        Sampler {
            temperature: 0.0,
            top_k: None,
            top_p: 1.0,
            seed: 0,
        }
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

/// The key of the draws at `position` for `seed` (a splitmix64 step of both, folded to 32
/// bits).
pub(crate) fn draw_key(seed: u32, position: usize) -> u32 {
    let mut z = (u64::from(seed) << 32 | position as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z ^ (z >> 32)) as u32
}

/// Uniforms on `[0, 1)` `[n]`: murmur3's finalizer of `index + key` (key a u32 runtime
/// scalar), the top 24 bits as a fraction.
fn uniform(n: usize, key: &DynTensor) -> Result<DynTensor> {
    let idx = DynTensor::from_lazy(tg_runtime::Lazy::arange_u32(n)?);
    let mut h = idx.add(&key.reshape(&[1])?.expand(&[n as isize])?)?;
    for (shift, mul) in [(16u32, 0x85eb_ca6bu32), (13, 0xc2b2_ae35)] {
        h = h.bitwise_xor(&h.shr(shift)?)?.mul(mul)?;
    }
    h = h.bitwise_xor(&h.shr(16u32)?)?;
    h.shr(8u32)?.cast(DType::F32).mul(1.0f32 / 16_777_216.0)
}

/// The sampled token id (i32 `[1]`) from `logits` `[vocab]`; `temp`, `top_p` and `key` (u32)
/// are runtime scalars (rank 0), so a replay may change them.
pub(crate) fn sample(
    logits: &DynTensor,
    s: &Sampler,
    temp: &DynTensor,
    top_p: &DynTensor,
    key: &DynTensor,
) -> Result<DynTensor> {
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
    let u = uniform(vocab, key)?;
    let g = u.log()?.neg()?.log()?.neg()?;
    l.add(&g)?.argmax(Some(0), true)
}
