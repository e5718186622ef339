//! `Embedding`: rows of a table picked by integer ids.

use tg_ops::DynTensor;
use tg_runtime::{DType, Error, Result};

use super::init;
use super::module::{Module, Role, Visitor};

/// A `(vocab, dim)` table, glorot-uniform initialised (tinygrad); `forward` maps ids of any
/// shape to `(..., dim)`. The lookup is a one-hot matmul, so its gradient is an ordinary
/// matmul's (no scatter).
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
        let vocab = self.weight.shape()[0];
        ids.one_hot(vocab)?
            .cast(self.weight.dtype())
            .matmul(&self.weight)
    }
}

impl Module for Embedding {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        f("weight", Role::Parameter, &mut self.weight)
    }
}
