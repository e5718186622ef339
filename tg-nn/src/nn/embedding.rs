//! `Embedding`: rows of a table picked by integer ids.

use tg_ops::DynTensor;
use tg_runtime::{DType, Error, Result};

use super::init;
use super::module::{Inspector, Module, Role, Visitor};

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
        if !ids.dtype().is_int() {
            return Err(Error::DType {
                op: "Embedding",
                dtype: ids.dtype(),
                message: "ids must be integers".into(),
            });
        }
        let dim = self.weight.shape()[1];
        let n = ids.numel();
        let rows = ids
            .reshape(&[n as isize, 1])?
            .expand(&[n as isize, dim as isize])?;
        let mut shape = ids.shape().to_vec();
        shape.push(dim);
        let shape: Vec<isize> = shape.iter().map(|&s| s as isize).collect();
        self.weight.gather(0, &rows)?.reshape(&shape)
    }
}

impl Module for Embedding {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        f("weight", Role::Parameter, &mut self.weight)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        f("weight", Role::Parameter, &self.weight)
    }
}
