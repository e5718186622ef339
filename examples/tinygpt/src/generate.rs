//! Generation with a context that grows from a short prompt up to the model's context, then
//! slides, compiling a few kernel sets however many lengths it passes through.
//!
//! A kernel's shapes are fixed when it is recorded, so a window of every length would record
//! (and compile) a kernel set per length. Here the window is padded to the smallest of a few
//! sizes (`bucket`: 8, 16, 32, ... up to the context), one recording each, and the length is a
//! value the device reads: `next` takes the last real position as a scalar argument used
//! only as an operand, so it is a var of the recording (push-constant data a replay rebinds),
//! not a key of it. Causal attention keeps the positions after it from changing the ones
//! before, so the padded window's row at that position is the exact window's last row, picked
//! on the device by `select`, then divided by the temperature, softmaxed and drawn from with
//! `multinomial`.

use tg::prelude::*;

use crate::Gpt;

/// The next id's probabilities after `window` `(1, W)`, whose real ids end at position
/// `last` (the rest is padding), at `temperature`, and one id drawn from them.
#[kernel]
pub fn next<const W: usize>(
    model: &Gpt,
    window: &Tensor<shape![1, W], i32>,
    last: i32,
    temperature: f32,
) -> tg::Result<(Tensor<shape![1, _]>, Tensor<shape![1, 1], i32>)> {
    let logits: Tensor<shape![1, W, _]> = model.forward(window.as_dyn())?;
    let probs = (logits.select(1, last) / temperature).softmax(-1);
    (probs, probs.multinomial(1, true))
}

/// The padded window size for `len` ids under a model of `context` positions: the smallest
/// power of two of at least 8 that holds them, at most `context`.
pub fn bucket(len: usize, context: usize) -> usize {
    len.next_power_of_two().max(8).min(context)
}

/// [`next`] for the last `context` ids of `ids` (at least one), padded to their bucket: the
/// probabilities `(vocab)` and the drawn id.
pub fn next_padded(
    model: &Gpt,
    context: usize,
    ids: &[i32],
    temperature: f32,
) -> tg::Result<(DynTensor, i32)> {
    let window = &ids[ids.len().saturating_sub(context)..];
    if window.is_empty() {
        return Err(tg::Error::Argument {
            op: "tinygpt::generate",
            message: "needs a prompt of at least one id".into(),
        });
    }
    let width = bucket(window.len(), context);
    let mut padded = window.to_vec();
    padded.resize(width, 0);
    let last = window.len() as i32 - 1;
    macro_rules! at {
        ($($w:literal)*) => {
            match width {
                $($w => {
                    let w = Tensor::<Rank2<1, $w>, i32>::from_slice(&padded)?;
                    let (p, id) = next(model, &w, last, temperature)?;
                    (p.into_dyn(), id)
                })*
                _ => {
                    return Err(tg::Error::Argument {
                        op: "tinygpt::generate",
                        message: format!(
                            "a context of {context} positions pads to {width}, not one of the window sizes 8 to 256 (powers of two)"
                        ),
                    })
                }
            }
        };
    }
    let (probs, id) = at!(8 16 32 64 128 256);
    let v = probs.shape()[1] as isize;
    Ok((probs.reshape(&[v])?, id.to_vec()?[0]))
}

/// `count` ids drawn one after another after `prompt` at `temperature`, each from the last
/// `context` ids: at most one recording per window size, whatever the prompt's length.
pub fn generate(
    model: &Gpt,
    context: usize,
    prompt: &[i32],
    count: usize,
    temperature: f32,
) -> tg::Result<Vec<i32>> {
    let mut ids = prompt.to_vec();
    for _ in 0..count {
        let (_, id) = next_padded(model, context, &ids, temperature)?;
        ids.push(id);
    }
    Ok(ids.split_off(prompt.len()))
}
