//! `Dropout`: zeroes a random fraction of values while training, the identity otherwise.

use tg_ops::DynTensor;
use tg_runtime::{Error, Result};

use super::module::{Inspector, Module, Visitor};

/// Keeps each value with probability `1 - p`, scaled by `1 / (1 - p)`, while training
/// (numbers from the process-wide random stream, so a replayed step draws fresh ones);
/// passes values through unchanged in evaluation.
pub struct Dropout {
    /// The probability of dropping a value, in `[0, 1)`.
    pub p: f64,
    /// Whether values are dropped (true, the default).
    pub training: bool,
}

impl Dropout {
    /// Dropout with probability `p` in `[0, 1)`.
    pub fn new(p: f64) -> Result<Dropout> {
        if !(0.0..1.0).contains(&p) {
            return Err(Error::Argument {
                op: "Dropout",
                message: format!("p = {p} is not in [0, 1)"),
            });
        }
        Ok(Dropout { p, training: true })
    }

    /// The layer applied to `x`.
    pub fn forward(&self, x: &DynTensor) -> Result<DynTensor> {
        dropout(x, self.p, self.training)
    }
}

/// [`Dropout`] as a function.
pub fn dropout(x: &DynTensor, p: f64, training: bool) -> Result<DynTensor> {
    if !training {
        return Ok(x.clone());
    }
    x.dropout(p)
}

impl Module for Dropout {
    fn visit(&mut self, _f: &mut Visitor<'_>) -> Result<()> {
        Ok(())
    }

    fn inspect(&self, _f: &mut Inspector<'_>) -> Result<()> {
        Ok(())
    }

    fn set_training(&mut self, training: bool) {
        self.training = training;
    }

    fn modes(&self, out: &mut Vec<u64>) {
        out.push(u64::from(self.training));
    }
}
