//! Adam and AdamW (decoupled weight decay), as tinygrad's `LAMB(adam=True)` computes them:
//! `m = b1 m + (1 - b1) g`, `v = b2 v + (1 - b2) g^2`, `up = m c1 / (sqrt(v c2) + eps)
//! (+ wd p)`, `p -= lr up`, with the bias corrections `c1 = 1 / (1 - b1^t)` and `c2 = 1 /
//! (1 - b2^t)` runtime scalars (computed on the host each step).

use tg_ops::DynTensor;
use tg_ops::prelude::Operand;
use tg_runtime::{Error, Result, Scalar};

use super::core::{Core, Rule, has_core};
use super::scalar::RuntimeScalar;
use crate::nn::Module;

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
pub struct Adam(Core<AdamRule>);

/// AdamW: Adam with decoupled weight decay (`p -= lr * wd * p` besides Adam's update).
pub struct AdamW(Core<AdamRule>);

/// Adam's hyperparameters and its bias corrections (runtime scalars).
#[derive(Clone, Copy, Debug)]
pub struct AdamRule {
    cfg: AdamConfig,
    c1: RuntimeScalar,
    c2: RuntimeScalar,
}

impl AdamRule {
    fn core(
        model: &mut dyn Module,
        cfg: AdamConfig,
        decays: &dyn Fn(&str, &DynTensor) -> bool,
    ) -> Result<Core<AdamRule>> {
        let rule = AdamRule {
            cfg,
            c1: RuntimeScalar::new(1.0),
            c2: RuntimeScalar::new(1.0),
        };
        Core::grouped(model, cfg.lr, rule, decays)
    }
}

/// The parameter groups PyTorch users expect of AdamW (nanoGPT's, among others): weight decay
/// on matrices and convolution kernels (2 axes or more), none on biases and norms' scales
/// and shifts (vectors). For [`AdamW::with_groups`].
pub fn decay_matrices(_name: &str, p: &DynTensor) -> bool {
    p.ndim() >= 2
}

impl Adam {
    /// Adam over `model`'s parameters with learning rate `lr` and the other defaults.
    pub fn new(model: &mut dyn Module, lr: f64) -> Result<Adam> {
        Adam::with_config(model, AdamConfig::new(lr, 0.0))
    }

    /// Adam with every hyperparameter given (`weight_decay` is decoupled, as AdamW's).
    pub fn with_config(model: &mut dyn Module, cfg: AdamConfig) -> Result<Adam> {
        Ok(Adam(AdamRule::core(model, cfg, &|_, _| true)?))
    }
}

impl AdamW {
    /// AdamW over `model`'s parameters: learning rate `lr`, weight decay `weight_decay`
    /// (tinygrad's default 0.01), the other defaults as Adam's.
    pub fn new(model: &mut dyn Module, lr: f64, weight_decay: f64) -> Result<AdamW> {
        AdamW::with_groups(model, AdamConfig::new(lr, weight_decay), |_, _| true)
    }

    /// AdamW with two parameter groups: weight decay `cfg.weight_decay` on the parameters
    /// `decays` accepts (given each one's name and tensor), none on the others;
    /// [`decay_matrices`] leaves out biases and norms, as PyTorch users do.
    ///
    /// ```no_run
    /// use tg_nn::nn::Linear;
    /// use tg_nn::optim::{AdamConfig, AdamW, decay_matrices};
    /// # fn main() -> tg_runtime::Result<()> {
    /// let mut model = Linear::new(4, 3, true)?;
    /// let opt = AdamW::with_groups(&mut model, AdamConfig::new(3e-4, 0.1), decay_matrices)?;
    /// # Ok(())
    /// # }
    /// ```
    pub fn with_groups(
        model: &mut dyn Module,
        cfg: AdamConfig,
        decays: impl Fn(&str, &DynTensor) -> bool,
    ) -> Result<AdamW> {
        Ok(AdamW(AdamRule::core(model, cfg, &decays)?))
    }
}

has_core!(Adam, AdamRule);
has_core!(AdamW, AdamRule);

impl Rule for AdamRule {
    fn kinds(&self) -> &'static [&'static str] {
        &["m", "v"]
    }

    fn structure(&self) -> Vec<u64> {
        let c = self.cfg;
        [c.b1, c.b2, c.eps, c.weight_decay]
            .map(f64::to_bits)
            .to_vec()
    }

    /// The bias corrections of step `t`.
    fn at_step(&mut self, t: u64) -> Vec<(u64, Scalar)> {
        let t = i32::try_from(t).unwrap_or(i32::MAX);
        self.c1.set(1.0 / (1.0 - self.cfg.b1.powi(t)));
        self.c2.set(1.0 / (1.0 - self.cfg.b2.powi(t)));
        vec![self.c1.bind(), self.c2.bind()]
    }

    fn apply(
        &self,
        lr: Operand<'static>,
        p: &DynTensor,
        g: &DynTensor,
        state: &mut [DynTensor],
        decay: bool,
    ) -> Result<DynTensor> {
        let cfg = self.cfg;
        let [m, v] = state else {
            return Err(Error::internal(
                "Adam",
                format!("{} state tensors for a parameter, not m and v", state.len()),
            ));
        };
        m.assign(&m.mul(cfg.b1)?.add(&g.mul(1.0 - cfg.b1)?)?)?;
        v.assign(&v.mul(cfg.b2)?.add(&g.square()?.mul(1.0 - cfg.b2)?)?)?;
        let denom = v.mul(self.c2.operand())?.sqrt()?.add(cfg.eps)?;
        let mut up = m.mul(self.c1.operand())?.div(&denom)?;
        if decay && cfg.weight_decay != 0.0 {
            up = up.add(&p.mul(cfg.weight_decay)?)?;
        }
        p.sub(&up.mul(lr)?)
    }
}
