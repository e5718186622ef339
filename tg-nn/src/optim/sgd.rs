//! Stochastic gradient descent with momentum, Nesterov momentum and weight decay
//! (tinygrad's and torch's `SGD`, dampening 0).

use tg_ops::DynTensor;
use tg_ops::prelude::Operand;
use tg_runtime::{Error, Result, Scalar};

use super::core::{Core, Rule, has_core};
use crate::nn::Module;

/// `g += weight_decay * p; b = momentum * b + g; g = nesterov ? g + momentum * b : b;
/// p -= lr * g` (without momentum, `p -= lr * g`).
pub struct Sgd(Core<SgdRule>);

/// SGD's hyperparameters.
#[derive(Clone, Copy, Debug)]
pub struct SgdRule {
    momentum: f64,
    weight_decay: f64,
    nesterov: bool,
}

impl Sgd {
    /// SGD over `model`'s parameters. Nesterov needs a momentum.
    pub fn new(
        model: &mut dyn Module,
        lr: f64,
        momentum: f64,
        weight_decay: f64,
        nesterov: bool,
    ) -> Result<Sgd> {
        if nesterov && momentum <= 0.0 {
            return Err(Error::Argument {
                op: "Sgd::new",
                message: format!("Nesterov momentum needs a momentum > 0 (got {momentum})"),
            });
        }
        let rule = SgdRule {
            momentum,
            weight_decay,
            nesterov,
        };
        Ok(Sgd(Core::new(model, lr, rule)?))
    }
}

has_core!(Sgd, SgdRule);

impl Rule for SgdRule {
    fn structure(&self) -> Vec<u64> {
        vec![
            self.momentum.to_bits(),
            self.weight_decay.to_bits(),
            u64::from(self.nesterov),
        ]
    }

    fn kinds(&self) -> &'static [&'static str] {
        if self.momentum != 0.0 {
            &["momentum"]
        } else {
            &[]
        }
    }

    fn at_step(&mut self, _t: u64) -> Vec<(u64, Scalar)> {
        Vec::new()
    }

    fn apply(
        &self,
        lr: Operand<'static>,
        p: &DynTensor,
        g: &DynTensor,
        state: &mut [DynTensor],
        decay: bool,
    ) -> Result<DynTensor> {
        let mut g = g.clone();
        if decay && self.weight_decay != 0.0 {
            g = g.add(&p.mul(self.weight_decay)?)?;
        }
        if let [b] = state {
            b.assign(&b.mul(self.momentum)?.add(&g)?)?;
            g = if self.nesterov {
                g.add(&b.mul(self.momentum)?)?
            } else {
                b.clone()
            };
        }
        p.sub(&g.mul(lr)?)
    }
}
