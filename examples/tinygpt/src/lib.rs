//! The character-level GPT of `examples/tinygpt`: pre-LN blocks of causal multi-head attention
//! and a GELU MLP, learned token and position embeddings, the output head tied to the token
//! table. Built of tg-nn's layers; its `Module` is derived, so an optimizer, a state dict and
//! a `#[kernel]` taking it by `&mut` see every tensor by name (`blocks.0.attn.q.weight`, ...).
//! Its training step (`train_step`) lives here with it, in the library of the `tinygpt`
//! package: tg's `tests/nn/tinygpt.rs` checks that kernel step against the eager one, and
//! tg-bench's GPT rows time it.

pub mod generate;

use tg::nn::{Embedding, LayerNorm, Linear, Module, SelfAttention};
use tg::optim::{AdamW, Optimizer};
use tg::prelude::*;
use tg::untyped::loss::Reduction;

/// The model's sizes.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Distinct characters.
    pub vocab: usize,
    /// Positions a sequence may have.
    pub context: usize,
    /// Width of the residual stream.
    pub dim: usize,
    /// Attention heads (dividing `dim`).
    pub heads: usize,
    /// Blocks.
    pub layers: usize,
}

/// One pre-LN transformer block.
#[derive(Module)]
pub struct Block {
    ln1: LayerNorm,
    attn: SelfAttention,
    ln2: LayerNorm,
    fc: Linear,
    out: Linear,
}

impl Block {
    fn new(c: &Config) -> tg::Result<Block> {
        let d = c.dim;
        Ok(Block {
            ln1: LayerNorm::new(d)?,
            attn: SelfAttention::new(d, c.heads)?,
            ln2: LayerNorm::new(d)?,
            fc: Linear::new(d, 4 * d, true)?,
            out: Linear::new(4 * d, d, true)?,
        })
    }

    /// `x + attention(ln1(x))`, then `+ mlp(ln2(x))`, for `x` `(B, T, D)`.
    fn forward(&self, x: &DynTensor) -> tg::Result<DynTensor> {
        let x = x.add(&self.attn.forward(&self.ln1.forward(x)?)?)?;
        let m = self
            .out
            .forward(&self.fc.forward(&self.ln2.forward(&x)?)?.gelu()?)?;
        x.add(&m)
    }
}

/// The GPT.
#[derive(Module)]
pub struct Gpt {
    tok: Embedding,
    pos: Embedding,
    blocks: Vec<Block>,
    ln: LayerNorm,
}

impl Gpt {
    /// A model of the given sizes, initialised as tg-nn's layers are.
    pub fn new(c: &Config) -> tg::Result<Gpt> {
        Ok(Gpt {
            tok: Embedding::new(c.vocab, c.dim)?,
            pos: Embedding::new(c.context, c.dim)?,
            blocks: (0..c.layers)
                .map(|_| Block::new(c))
                .collect::<tg::Result<_>>()?,
            ln: LayerNorm::new(c.dim)?,
        })
    }

    /// The logits `(B, T, vocab)` of ids `(B, T)` (i32).
    pub fn forward(&self, ids: &DynTensor) -> tg::Result<DynTensor> {
        let t = ids.shape()[1];
        let positions = DynTensor::arange(0, t as i64, 1, Some(DType::I32))?;
        let mut x = self.tok.forward(ids)?.add(&self.pos.forward(&positions)?)?;
        for block in &self.blocks {
            x = block.forward(&x)?;
        }
        self.ln
            .forward(&x)?
            .matmul(&self.tok.weight.transpose(0, 1)?)
    }

    /// The mean cross-entropy of predicting `targets` `(B, T)` from `ids` `(B, T)`.
    pub fn loss(&self, ids: &DynTensor, targets: &DynTensor) -> tg::Result<DynTensor> {
        let logits = self.forward(ids)?;
        let v = logits.shape()[2] as isize;
        logits.reshape(&[-1, v])?.sparse_categorical_crossentropy(
            &targets.reshape(&[-1])?,
            None,
            0.0,
            Reduction::Mean,
        )
    }

    /// One id drawn for each row of `ids` `(B, T)` from the softmax of its last position's
    /// logits at `temperature`: `(B, 1)` i32. The exact-window sample, which the tests and
    /// tg-bench-gpt compare `generate.rs`'s padded one with (the example itself generates
    /// with that one).
    pub fn sample(&self, ids: &DynTensor, temperature: f64) -> tg::Result<DynTensor> {
        let logits = self.forward(ids)?;
        let [b, t, v] = [0, 1, 2].map(|i| logits.shape()[i]);
        let last = logits
            .shrink(&[(0, b), (t - 1, t), (0, v)])?
            .reshape(&[b as isize, v as isize])?;
        last.div(temperature)?
            .softmax(-1, None)?
            .multinomial(1, true)
    }
}

/// One training step: the loss of `x` predicting `y`, its gradients, AdamW's update. One
/// `#[kernel]` taking the model and the optimizer by `&mut`: recorded on the first call,
/// replayed after, the optimizer advanced each call.
#[kernel]
pub fn train_step<const B: usize, const T: usize>(
    model: &mut Gpt,
    opt: &mut AdamW,
    x: &Tensor<shape![B, T], i32>,
    y: &Tensor<shape![B, T], i32>,
) -> Tensor<shape![]> {
    let loss = model.loss(x.as_dyn(), y.as_dyn())?;
    opt.step(model, &loss)?;
    loss
}
