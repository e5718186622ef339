//! Text generation: a prompt prefilled in one recorded step, then one recorded decode step per
//! token, each returning only the sampled id.

use std::time::{Duration, Instant};

use super::model::Model;
use super::sample::Sampler;
use super::tokenizer::Tokenizer;
use crate::{Error, Result};

/// What a generation did.
#[derive(Clone, Debug, PartialEq)]
pub struct Generation {
    /// The prompt's token ids.
    pub prompt: Vec<u32>,
    /// The generated token ids (the end-of-sequence token, if met, is the last).
    pub tokens: Vec<u32>,
    /// Time of the prefill and the first token.
    pub prefill: Duration,
    /// Time of the decode steps after it.
    pub decode: Duration,
}

impl Generation {
    /// Decoded tokens per second (the tokens after the first over the decode time).
    pub fn decode_tokens_per_second(&self) -> f64 {
        let n = self.tokens.len().saturating_sub(1);
        if n == 0 {
            0.0
        } else {
            n as f64 / self.decode.as_secs_f64()
        }
    }
}

/// Generates up to `n` tokens after `prompt`, calling `on_token` with each id as it comes.
/// Stops at the end-of-sequence token or the end of the context.
pub fn generate(
    model: &mut Model,
    tokenizer: &Tokenizer,
    prompt: &str,
    n: usize,
    sampler: &Sampler,
    mut on_token: impl FnMut(u32) -> Result<()>,
) -> Result<Generation> {
    let ids = tokenizer.encode(prompt)?;
    if ids.is_empty() {
        return Err(Error::Argument {
            op: "generate",
            message: "the prompt has no tokens".into(),
        });
    }
    let start = Instant::now();
    let mut tokens = Vec::with_capacity(n);
    let mut next = model.prefill(&ids, sampler)?;
    let prefill = start.elapsed();
    let start = Instant::now();
    let mut pos = ids.len();
    while tokens.len() < n {
        tokens.push(next);
        on_token(next)?;
        if Some(next) == tokenizer.eos || tokens.len() == n || pos >= model.context() {
            break;
        }
        next = model.decode_step(next, pos, sampler)?;
        pos += 1;
    }
    Ok(Generation {
        prompt: ids,
        tokens,
        prefill,
        decode: start.elapsed(),
    })
}
