//! Prefill and decode throughput of a loaded model, as `llama-bench` measures it: a prompt of
//! `p` tokens, then `n` decoded tokens, greedy, repeated; the first run (recording and
//! compiling both steps) timed apart.

use std::time::Instant;

use super::model::Model;
use super::sample::Sampler;
use crate::Result;

/// What [`run`] measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Throughput {
    /// Seconds of the first prefill (recording and compiling it) and its first token.
    pub first_token: f64,
    /// Seconds of the first decode step (recording it).
    pub first_decode: f64,
    /// Prefill tokens/s of each timed run.
    pub prefill: Vec<f64>,
    /// Decode tokens/s of each timed run.
    pub decode: Vec<f64>,
}

/// The median of `v` (the upper one of an even count).
pub fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Times `runs` prefills of a `p`-token prompt, each followed by `n` decode steps. The model's
/// context must hold `p + n + 1` positions.
pub fn run(model: &mut Model, p: usize, n: usize, runs: usize) -> Result<Throughput> {
    let vocab = model.config().vocab as u32;
    let prompt: Vec<u32> = (0..p as u32).map(|i| (i * 7919 + 1) % vocab).collect();
    let greedy = Sampler::greedy();
    let s = Instant::now();
    let mut t = model.prefill(&prompt, &greedy)?;
    let first_token = s.elapsed().as_secs_f64();
    let s = Instant::now();
    model.decode_step(t, p, &greedy)?;
    let first_decode = s.elapsed().as_secs_f64();
    let (mut prefill, mut decode) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let s = Instant::now();
        t = model.prefill(&prompt, &greedy)?;
        prefill.push(p as f64 / s.elapsed().as_secs_f64());
        let s = Instant::now();
        for i in 0..n {
            t = model.decode_step(t, p + i, &greedy)?;
        }
        decode.push(n as f64 / s.elapsed().as_secs_f64());
    }
    Ok(Throughput {
        first_token,
        first_decode,
        prefill,
        decode,
    })
}
