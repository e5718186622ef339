//! Scaled dot-product attention as a function of its three tensors (tg-ops'
//! `DynTensor::scaled_dot_product_attention`, which a kernel body calls too), and causal
//! multi-head self-attention as a layer: `SelfAttention` on runtime shapes and
//! `TypedSelfAttention<D, H>` with its sizes in its type.

use tg_ops::shape::{Const, Dim};
use tg_ops::{DynTensor, Tensor};
use tg_runtime::{Error, Result};

use super::Linear;
use super::module::{Inspector, Module, Visitor, child, child_ref, visit_fixed};

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

/// Causal multi-head self-attention over `(batch, time, dim)`: projections `q`, `k`, `v`
/// (without biases: a key's bias shifts all of one query's scores alike, so the softmax
/// ignores it and it would get no gradient) and `proj` (with one), the heads splitting `dim`
/// evenly; each position attends to itself and the positions before it.
pub struct SelfAttention {
    /// Queries, `dim -> dim`.
    pub q: Linear,
    /// Keys, `dim -> dim`.
    pub k: Linear,
    /// Values, `dim -> dim`.
    pub v: Linear,
    /// Output projection, `dim -> dim`, with a bias.
    pub proj: Linear,
    /// Heads, dividing `dim`.
    pub heads: usize,
}

impl SelfAttention {
    /// A layer of width `dim` with `heads` heads (tinygrad's `Linear` initialisation);
    /// `heads` must divide `dim` (else [`Error::Argument`] naming both).
    pub fn new(dim: usize, heads: usize) -> Result<SelfAttention> {
        if heads == 0 || !dim.is_multiple_of(heads) {
            return Err(Error::Argument {
                op: "SelfAttention",
                message: format!("{heads} heads do not divide the width {dim}"),
            });
        }
        Ok(SelfAttention {
            q: Linear::new(dim, dim, false)?,
            k: Linear::new(dim, dim, false)?,
            v: Linear::new(dim, dim, false)?,
            proj: Linear::new(dim, dim, true)?,
            heads,
        })
    }

    /// The layer applied to `x` `(batch, time, dim)`, to the same shape.
    pub fn forward(&self, x: &DynTensor) -> Result<DynTensor> {
        let dim = self.q.weight.shape()[1];
        if x.ndim() != 3 || x.shape()[2] != dim {
            return Err(Error::Shape {
                op: "SelfAttention",
                message: format!("the input {:?} must be (batch, time, {dim})", x.shape()),
            });
        }
        let [b, t, d] = [0, 1, 2].map(|i| x.shape()[i] as isize);
        let (h, hd) = (self.heads as isize, d / self.heads as isize);
        let heads = |y: DynTensor| y.reshape(&[b, t, h, hd])?.permute(&[0, 2, 1, 3]);
        let (q, k, v) = (
            heads(self.q.forward(x)?)?,
            heads(self.k.forward(x)?)?,
            heads(self.v.forward(x)?)?,
        );
        let a = q
            .scaled_dot_product_attention(&k, &v, None, 0.0, true)?
            .permute(&[0, 2, 1, 3])?
            .reshape(&[b, t, d])?;
        self.proj.forward(&a)
    }
}

impl Module for SelfAttention {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        child("q", &mut self.q, f)?;
        child("k", &mut self.k, f)?;
        child("v", &mut self.v, f)?;
        child("proj", &mut self.proj, f)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        child_ref("q", &self.q, f)?;
        child_ref("k", &self.k, f)?;
        child_ref("v", &self.v, f)?;
        child_ref("proj", &self.proj, f)
    }
}

/// [`SelfAttention`] with its sizes in its type: width `D`, `H` heads (`H` dividing `D` is
/// checked when `new` is compiled for the pair: another pair fails `cargo build`), and
/// `forward` takes `(B, T, D)` to `(B, T, D)` for any batch and length (static or dynamic).
/// It wraps a `SelfAttention` (the same parameters `q.weight`, ..., `proj.bias`).
///
/// ```
/// use tg_ops::prelude::*;
/// use tg_nn::nn::{Module, TypedSelfAttention};
/// let attn = TypedSelfAttention::<8, 2>::new().unwrap();
/// let x = Tensor::<Rank3<1, 3, 8>>::ones();
/// let y: Tensor<Rank3<1, 3, 8>> = attn.forward(&x);
/// assert_eq!(y.dims(), vec![1, 3, 8]);
/// assert_eq!(attn.parameters().unwrap().len(), 5);
/// ```
pub struct TypedSelfAttention<const D: usize, const H: usize> {
    layer: SelfAttention,
}

impl<const D: usize, const H: usize> TypedSelfAttention<D, H> {
    /// A layer with tinygrad's initialisation (as [`SelfAttention::new`]).
    pub fn new() -> Result<Self> {
        const {
            assert!(
                H > 0 && D.is_multiple_of(H),
                "TypedSelfAttention<D, H>: the heads H must divide the width D"
            )
        };
        Ok(TypedSelfAttention {
            layer: SelfAttention::new(D, H)?,
        })
    }

    /// The untyped layer it wraps.
    pub fn as_untyped(&self) -> &SelfAttention {
        &self.layer
    }

    /// The layer applied to a batch of sequences.
    #[track_caller]
    pub fn forward<B: Dim, T: Dim>(
        &self,
        x: &Tensor<(B, T, Const<D>)>,
    ) -> Tensor<(B, T, Const<D>)> {
        match self.try_forward(x) {
            Ok(y) => y,
            Err(e) => panic!("{e}"),
        }
    }

    /// [`TypedSelfAttention::forward`], returning a device failure instead of panicking.
    pub fn try_forward<B: Dim, T: Dim>(
        &self,
        x: &Tensor<(B, T, Const<D>)>,
    ) -> Result<Tensor<(B, T, Const<D>)>> {
        Tensor::try_from_dyn(self.layer.forward(x.as_dyn())?)
    }
}

impl<const D: usize, const H: usize> Module for TypedSelfAttention<D, H> {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        visit_fixed(&mut self.layer, f)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        self.layer.inspect(f)
    }
}
