//! `Embedding`: rows of a table picked by integer ids; `TypedEmbedding<VOCAB, DIM>`, the same
//! layer with its sizes in its type.

use tg_ops::shape::{Const, Shape};
use tg_ops::tensor::ok;
use tg_ops::typed::ranges::AppendDim;
use tg_ops::{DynTensor, Int, Tensor};
use tg_runtime::{DType, Error, Result};

use super::init;
use super::module::{Inspector, Module, Role, Visitor, visit_typed};

/// A `(vocab, dim)` table, glorot-uniform initialised (tinygrad); `forward` maps ids of any
/// shape to `(..., dim)`. The lookup gathers the rows (work in the output's size, where a
/// one-hot matmul took `vocab` times that); the table's gradient is the gather's, the ids
/// sorted once and the rows' gradients summed per id (`O((ids + vocab) log ids)` per column).
pub struct Embedding {
    /// `(vocab_size, dim)`.
    pub weight: DynTensor,
}

impl Embedding {
    /// A table of `vocab_size` rows of `dim` values.
    pub fn new(vocab_size: usize, dim: usize) -> Result<Embedding> {
        Ok(Embedding {
            weight: init::parameter(&DynTensor::glorot_uniform(&[vocab_size, dim], DType::F32)?)?,
        })
    }

    /// The rows of `ids` (an integer tensor; ids outside the table give zero rows).
    pub fn forward(&self, ids: &DynTensor) -> Result<DynTensor> {
        lookup(&self.weight, ids)
    }
}

/// The rows of `table` `(vocab, dim)` that `ids` pick, `ids.shape() + (dim,)`: the lookup
/// behind [`Embedding`] and [`TypedEmbedding`].
fn lookup(table: &DynTensor, ids: &DynTensor) -> Result<DynTensor> {
    if !ids.dtype().is_int() {
        return Err(Error::DType {
            op: "Embedding",
            dtype: ids.dtype(),
            message: "ids must be integers".into(),
        });
    }
    let dim = table.shape()[1];
    let n = ids.numel();
    let rows = ids
        .reshape(&[n as isize, 1])?
        .expand(&[n as isize, dim as isize])?;
    let mut shape = ids.shape().to_vec();
    shape.push(dim);
    let shape: Vec<isize> = shape.iter().map(|&s| s as isize).collect();
    table.gather(0, &rows)?.reshape(&shape)
}

impl Module for Embedding {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        f("weight", Role::Parameter, &mut self.weight)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        f("weight", Role::Parameter, &self.weight)
    }
}

/// [`Embedding`] with its sizes in its type: the table is `weight: Tensor<(VOCAB, DIM)>`,
/// and `forward` takes ids of any shape `S` (`[B, T]`, static or dynamic dims) to `S` with a
/// last axis of `DIM`, so a model whose typed layers do not fit together does not compile.
/// The same initialisation, lookup and tensor name (`weight`) as `Embedding`, so state dicts
/// match.
///
/// ```
/// use tg_ops::prelude::*;
/// use tg_nn::nn::{Module, TypedEmbedding};
/// let emb = TypedEmbedding::<10, 4>::new().unwrap();
/// let ids = Tensor::<Rank2<2, 3>, i32>::from_slice(&[0, 1, 2, 3, 4, 9]).unwrap();
/// let x: Tensor<Rank3<2, 3, 4>> = emb.forward(&ids);
/// assert_eq!(x.dims(), vec![2, 3, 4]);
/// assert_eq!(x.to_vec().unwrap()[20..], emb.weight.to_vec().unwrap()[36..]);
/// assert_eq!(emb.parameters().unwrap()[0].0, "weight");
/// ```
pub struct TypedEmbedding<const VOCAB: usize, const DIM: usize> {
    /// `(VOCAB, DIM)`.
    pub weight: Tensor<(Const<VOCAB>, Const<DIM>)>,
}

impl<const VOCAB: usize, const DIM: usize> TypedEmbedding<VOCAB, DIM> {
    /// A table with tinygrad's initialisation (as [`Embedding::new`]).
    pub fn new() -> Result<Self> {
        Ok(TypedEmbedding {
            weight: Tensor::try_from_dyn(Embedding::new(VOCAB, DIM)?.weight)?,
        })
    }

    /// The rows of `ids` (ids outside the table give zero rows, as [`Embedding::forward`]).
    #[track_caller]
    pub fn forward<S, I>(&self, ids: &Tensor<S, I>) -> Tensor<S::Output>
    where
        S: AppendDim<Const<DIM>>,
        I: Int,
    {
        ok(self.try_forward(ids))
    }

    /// [`TypedEmbedding::forward`], returning a device failure instead of panicking.
    pub fn try_forward<S, I>(&self, ids: &Tensor<S, I>) -> Result<Tensor<S::Output>>
    where
        S: AppendDim<Const<DIM>> + Shape,
        I: Int,
    {
        Tensor::try_from_dyn(lookup(self.weight.as_dyn(), ids.as_dyn())?)
    }
}

impl<const VOCAB: usize, const DIM: usize> Module for TypedEmbedding<VOCAB, DIM> {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        visit_typed("weight", Role::Parameter, &mut self.weight, f)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        f("weight", Role::Parameter, self.weight.as_dyn())
    }
}
