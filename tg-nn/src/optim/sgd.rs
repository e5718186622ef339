//! Stochastic gradient descent with momentum, Nesterov momentum and weight decay
//! (tinygrad's and torch's `SGD`, dampening 0).

use tg_ops::DynTensor;
use tg_runtime::{Error, Result, Scalar};

use super::scalar::RuntimeScalar;
use super::slots::Slots;
use super::{Optimizer, each_parameter};
use crate::nn::Module;
use crate::state::StateDict;

/// `g += weight_decay * p; b = momentum * b + g; g = nesterov ? g + momentum * b : b;
/// p -= lr * g` (without momentum, `p -= lr * g`).
pub struct Sgd {
    lr: RuntimeScalar,
    momentum: f64,
    weight_decay: f64,
    nesterov: bool,
    slots: Slots,
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
        let kinds: &'static [&'static str] = if momentum != 0.0 { &["momentum"] } else { &[] };
        Ok(Sgd {
            lr: RuntimeScalar::new(lr),
            momentum,
            weight_decay,
            nesterov,
            slots: Slots::new(model, kinds)?,
        })
    }
}

impl Optimizer for Sgd {
    fn advance(&mut self) -> Vec<(u64, Scalar)> {
        self.slots.step += 1;
        vec![self.lr.bind()]
    }

    fn update(&mut self, model: &mut dyn Module, grads: &[DynTensor]) -> Result<Vec<DynTensor>> {
        let (lr, mu, wd, nesterov) = (self.lr, self.momentum, self.weight_decay, self.nesterov);
        let slots = &mut self.slots;
        let mut written = each_parameter(model, grads, |name, p, g| {
            let mut g = g.clone();
            if wd != 0.0 {
                g = g.add(&p.mul(wd)?)?;
            }
            if mu != 0.0 {
                let b = &mut slots.of(name)?[0];
                b.assign(&b.mul(mu)?.add(&g)?)?;
                g = if nesterov {
                    g.add(&b.mul(mu)?)?
                } else {
                    b.clone()
                };
            }
            p.sub(&g.mul(lr.operand())?)
        })?;
        written.extend(self.slots.tensors());
        Ok(written)
    }

    fn lr(&self) -> f64 {
        self.lr.value()
    }

    fn set_lr(&mut self, lr: f64) {
        self.lr.set(lr);
    }

    fn steps(&self) -> u64 {
        self.slots.step
    }

    fn state_tensors(&self) -> Vec<DynTensor> {
        self.slots.tensors()
    }

    fn state_dict(&self) -> Result<StateDict> {
        self.slots.state_dict()
    }

    fn load_state_dict(&mut self, dict: &StateDict) -> Result<()> {
        self.slots.load_state_dict(dict)
    }
}
