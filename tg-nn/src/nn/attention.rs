//! Scaled dot-product attention as a function of its three tensors (tg-ops'
//! `DynTensor::scaled_dot_product_attention`, which a kernel body calls too), and causal
//! multi-head self-attention as a layer: `SelfAttention` on runtime shapes and
//! `TypedSelfAttention<D, H>` with its sizes in its type.

use tg_ops::shape::{Const, Dim};
use tg_ops::tensor::ok;
use tg_ops::{DynTensor, Tensor};
use tg_runtime::{Error, Result};

use super::linear::project;
use super::module::{Inspector, Module, Role, Visitor, child, child_ref, visit_typed};
use super::{Linear, TypedLinear};

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
        self_attention(
            x,
            self.heads,
            [&self.q.weight, &self.k.weight, &self.v.weight],
            (&self.proj.weight, self.proj.bias.as_ref()),
        )
    }
}

/// Causal multi-head self-attention of `x` `(batch, time, dim)` with projection weights
/// `(dim, dim)` for q, k and v and an output projection: [`SelfAttention`] and
/// [`TypedSelfAttention`].
fn self_attention(
    x: &DynTensor,
    heads: usize,
    [q, k, v]: [&DynTensor; 3],
    (proj, proj_bias): (&DynTensor, Option<&DynTensor>),
) -> Result<DynTensor> {
    let dim = q.shape()[1];
    if x.ndim() != 3 || x.shape()[2] != dim {
        return Err(Error::Shape {
            op: "SelfAttention",
            message: format!("the input {:?} must be (batch, time, {dim})", x.shape()),
        });
    }
    let [b, t, d] = [0, 1, 2].map(|i| x.shape()[i] as isize);
    let (h, hd) = (heads as isize, d / heads as isize);
    let split = |w: &DynTensor| {
        project(x, w, None)?
            .reshape(&[b, t, h, hd])?
            .permute(&[0, 2, 1, 3])
    };
    let a = split(q)?
        .scaled_dot_product_attention(&split(k)?, &split(v)?, None, 0.0, true)?
        .permute(&[0, 2, 1, 3])?
        .reshape(&[b, t, d])?;
    project(&a, proj, proj_bias)
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
/// checked when `new` is compiled for the pair: another pair fails `cargo build`), the
/// projections `Tensor<(D, D)>` and a `TypedLinear<D, D>`, and `forward` takes `(B, T, D)` to
/// `(B, T, D)` for any batch and length (static or dynamic). The same initialisation,
/// arithmetic and tensor names (`q.weight`, ..., `proj.bias`) as `SelfAttention`.
///
/// ```
/// use tg_ops::prelude::*;
/// use tg_nn::nn::{Module, TypedSelfAttention};
/// let attn = TypedSelfAttention::<8, 2>::new().unwrap();
/// let x = Tensor::<Rank3<1, 3, 8>>::ones();
/// let y: Tensor<Rank3<1, 3, 8>> = attn.forward(&x);
/// assert_eq!(y.dims(), vec![1, 3, 8]);
/// assert_eq!(attn.q.dims(), vec![8, 8]);
/// assert_eq!(attn.parameters().unwrap().len(), 5);
/// ```
pub struct TypedSelfAttention<const D: usize, const H: usize> {
    /// Queries, `(D, D)` (out, in), no bias.
    pub q: Tensor<(Const<D>, Const<D>)>,
    /// Keys, `(D, D)`, no bias.
    pub k: Tensor<(Const<D>, Const<D>)>,
    /// Values, `(D, D)`, no bias.
    pub v: Tensor<(Const<D>, Const<D>)>,
    /// Output projection, with a bias.
    pub proj: TypedLinear<D, D>,
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
        let l = SelfAttention::new(D, H)?;
        Ok(TypedSelfAttention {
            q: Tensor::try_from_dyn(l.q.weight)?,
            k: Tensor::try_from_dyn(l.k.weight)?,
            v: Tensor::try_from_dyn(l.v.weight)?,
            proj: TypedLinear::from_untyped(l.proj)?,
        })
    }

    /// The layer applied to a batch of sequences.
    #[track_caller]
    pub fn forward<B: Dim, T: Dim>(
        &self,
        x: &Tensor<(B, T, Const<D>)>,
    ) -> Tensor<(B, T, Const<D>)> {
        ok(self.try_forward(x))
    }

    /// [`TypedSelfAttention::forward`], returning a device failure instead of panicking.
    pub fn try_forward<B: Dim, T: Dim>(
        &self,
        x: &Tensor<(B, T, Const<D>)>,
    ) -> Result<Tensor<(B, T, Const<D>)>> {
        Tensor::try_from_dyn(self_attention(
            x.as_dyn(),
            H,
            [self.q.as_dyn(), self.k.as_dyn(), self.v.as_dyn()],
            (self.proj.weight.as_dyn(), Some(self.proj.bias.as_dyn())),
        )?)
    }
}

impl<const D: usize, const H: usize> Module for TypedSelfAttention<D, H> {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        visit_typed("q.weight", Role::Parameter, &mut self.q, f)?;
        visit_typed("k.weight", Role::Parameter, &mut self.k, f)?;
        visit_typed("v.weight", Role::Parameter, &mut self.v, f)?;
        child("proj", &mut self.proj, f)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        f("q.weight", Role::Parameter, self.q.as_dyn())?;
        f("k.weight", Role::Parameter, self.k.as_dyn())?;
        f("v.weight", Role::Parameter, self.v.as_dyn())?;
        child_ref("proj", &self.proj, f)
    }
}
