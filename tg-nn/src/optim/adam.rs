//! Adam and AdamW (decoupled weight decay), as tinygrad's `LAMB(adam=True)` computes them:
//! `m = b1 m + (1 - b1) g`, `v = b2 v + (1 - b2) g^2`, `up = m c1 / (sqrt(v c2) + eps)
//! (+ wd p)`, `p -= lr up`, with the bias corrections `c1 = 1 / (1 - b1^t)` and `c2 = 1 /
//! (1 - b2^t)` runtime scalars (computed on the host each step).

use tg_ops::DynTensor;
use tg_runtime::{Result, Scalar};

use super::scalar::RuntimeScalar;
use super::slots::Slots;
use super::{Optimizer, each_parameter};
use crate::nn::Module;
use crate::state::StateDict;

/// Adam's hyperparameters.
#[derive(Clone, Copy, Debug)]
pub struct AdamConfig {
    /// Learning rate (0.001).
    pub lr: f64,
    /// First-moment decay (0.9).
    pub b1: f64,
    /// Second-moment decay (0.999).
    pub b2: f64,
    /// Added to the root of the second moment (1e-8).
    pub eps: f64,
    /// Decoupled weight decay (0 for Adam, 0.01 for AdamW).
    pub weight_decay: f64,
}

impl AdamConfig {
    /// Learning rate `lr` and decoupled weight decay `weight_decay`, with tinygrad's
    /// defaults for the rest (b1 0.9, b2 0.999, eps 1e-8).
    pub fn new(lr: f64, weight_decay: f64) -> AdamConfig {
        AdamConfig {
            lr,
            b1: 0.9,
            b2: 0.999,
            eps: 1e-8,
            weight_decay,
        }
    }
}

/// Adam (no weight decay, tinygrad's `Adam`).
pub struct Adam {
    cfg: AdamConfig,
    lr: RuntimeScalar,
    c1: RuntimeScalar,
    c2: RuntimeScalar,
    slots: Slots,
}

/// AdamW: Adam with decoupled weight decay (`p -= lr * wd * p` besides Adam's update).
pub struct AdamW(Adam);

impl Adam {
    /// Adam over `model`'s parameters with learning rate `lr` and the other defaults.
    pub fn new(model: &mut dyn Module, lr: f64) -> Result<Adam> {
        Adam::with_config(model, AdamConfig::new(lr, 0.0))
    }

    /// Adam with every hyperparameter given (`weight_decay` is decoupled, as AdamW's).
    pub fn with_config(model: &mut dyn Module, cfg: AdamConfig) -> Result<Adam> {
        Ok(Adam {
            cfg,
            lr: RuntimeScalar::new(cfg.lr),
            c1: RuntimeScalar::new(1.0),
            c2: RuntimeScalar::new(1.0),
            slots: Slots::new(model, &["m", "v"])?,
        })
    }

    /// Sets the bias corrections for step `t` (1-based).
    fn corrections(&mut self, t: u64) {
        let t = i32::try_from(t).unwrap_or(i32::MAX);
        self.c1.set(1.0 / (1.0 - self.cfg.b1.powi(t)));
        self.c2.set(1.0 / (1.0 - self.cfg.b2.powi(t)));
    }
}

impl AdamW {
    /// AdamW over `model`'s parameters: learning rate `lr`, weight decay `weight_decay`
    /// (tinygrad's default 0.01), the other defaults as Adam's.
    pub fn new(model: &mut dyn Module, lr: f64, weight_decay: f64) -> Result<AdamW> {
        Ok(AdamW(Adam::with_config(
            model,
            AdamConfig::new(lr, weight_decay),
        )?))
    }
}

impl Optimizer for Adam {
    fn advance(&mut self) -> Vec<(u64, Scalar)> {
        self.slots.step += 1;
        self.corrections(self.slots.step);
        vec![self.lr.bind(), self.c1.bind(), self.c2.bind()]
    }

    fn update(&mut self, model: &mut dyn Module, grads: &[DynTensor]) -> Result<Vec<DynTensor>> {
        let cfg = self.cfg;
        let (lr, c1, c2) = (self.lr, self.c1, self.c2);
        let slots = &mut self.slots;
        let mut written = each_parameter(model, grads, |name, p, g| {
            let st = slots.of(name)?;
            let m = &mut st[0];
            m.assign(&m.mul(cfg.b1)?.add(&g.mul(1.0 - cfg.b1)?)?)?;
            let m = m.clone();
            let v = &mut st[1];
            v.assign(&v.mul(cfg.b2)?.add(&g.square()?.mul(1.0 - cfg.b2)?)?)?;
            let denom = v.mul(c2.operand())?.sqrt()?.add(cfg.eps)?;
            let mut up = m.mul(c1.operand())?.div(&denom)?;
            if cfg.weight_decay != 0.0 {
                up = up.add(&p.mul(cfg.weight_decay)?)?;
            }
            p.sub(&up.mul(lr.operand())?)
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
        self.slots.load_state_dict(dict)?;
        let t = self.slots.step;
        self.corrections(t.max(1));
        Ok(())
    }
}

impl Optimizer for AdamW {
    fn advance(&mut self) -> Vec<(u64, Scalar)> {
        self.0.advance()
    }
    fn update(&mut self, model: &mut dyn Module, grads: &[DynTensor]) -> Result<Vec<DynTensor>> {
        self.0.update(model, grads)
    }
    fn lr(&self) -> f64 {
        self.0.lr()
    }
    fn set_lr(&mut self, lr: f64) {
        self.0.set_lr(lr)
    }
    fn steps(&self) -> u64 {
        self.0.steps()
    }
    fn state_tensors(&self) -> Vec<DynTensor> {
        self.0.state_tensors()
    }
    fn state_dict(&self) -> Result<StateDict> {
        self.0.state_dict()
    }
    fn load_state_dict(&mut self, dict: &StateDict) -> Result<()> {
        self.0.load_state_dict(dict)
    }
}
