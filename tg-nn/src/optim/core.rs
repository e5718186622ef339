//! What every optimizer of this crate shares: the learning rate, the per-parameter state and
//! the step count, and with them every [`Optimizer`] method. An optimizer is its update rule
//! ([`Rule`]: its hyperparameters, the runtime scalars it sets each step and the new value of
//! one parameter) held in a [`Core`]; the one blanket impl below makes it an `Optimizer`.
//!
//! `Rule` and `HasCore` are public traits in a private module: nameable only here, so other
//! crates implement `Optimizer` itself and the blanket impl never overlaps theirs.

use std::collections::HashSet;

use tg_ops::DynTensor;
use tg_ops::prelude::Operand;
use tg_runtime::{Result, Scalar};

use super::scalar::RuntimeScalar;
use super::slots::Slots;
use super::{Optimizer, each_parameter};
use crate::nn::Module;
use crate::state::StateDict;

/// An update rule: its hyperparameters and runtime scalars (`Copy`, so the update of each
/// parameter reads them while the state tensors are written).
pub trait Rule: Copy {
    /// The state tensors each parameter has (`["m", "v"]`), named so in state dicts.
    fn kinds(&self) -> &'static [&'static str];

    /// Sets the rule's runtime scalars for step `t` (1-based) and returns their binds for a
    /// replayed step (the learning rate's is the core's).
    fn at_step(&mut self, t: u64) -> Vec<(u64, Scalar)>;

    /// The hyperparameters the update builds in as constants (not the runtime scalars), as
    /// bits: a recorded step made with other values must not be replayed for these.
    fn structure(&self) -> Vec<u64>;

    /// The new value of parameter `p` given its gradient `g` and learning rate `lr`; writes
    /// the parameter's `state` tensors (in `kinds` order) in place. `decay` says whether the
    /// rule's weight decay applies to this parameter (its group's: see [`Core::grouped`]).
    fn apply(
        &self,
        lr: Operand<'static>,
        p: &DynTensor,
        g: &DynTensor,
        state: &mut [DynTensor],
        decay: bool,
    ) -> Result<DynTensor>;
}

/// A rule with the learning rate and the state it updates.
pub struct Core<R> {
    lr: RuntimeScalar,
    slots: Slots,
    rule: R,
    /// The parameters (by name) the rule's weight decay leaves out.
    undecayed: HashSet<String>,
}

impl<R: Rule> Core<R> {
    /// What a recorded step of this core depends on besides tensor shapes: the rule's
    /// constants, then a hash of the parameters its weight decay leaves out.
    pub(crate) fn structure(&self) -> Vec<u64> {
        use std::hash::{Hash, Hasher};
        let mut names: Vec<&String> = self.undecayed.iter().collect();
        names.sort();
        let mut h = std::collections::hash_map::DefaultHasher::new();
        names.hash(&mut h);
        let mut key = self.rule.structure();
        key.push(h.finish());
        key
    }

    /// `rule` over `model`'s parameters, learning rate `lr`, state tensors zero, weight decay
    /// (if the rule has one) on every parameter.
    pub(crate) fn new(model: &mut dyn Module, lr: f64, rule: R) -> Result<Core<R>> {
        Core::grouped(model, lr, rule, &|_, _| true)
    }

    /// [`Core::new`] with two parameter groups: weight decay on the parameters `decays`
    /// accepts (given each parameter's name and tensor), none on the others.
    pub(crate) fn grouped(
        model: &mut dyn Module,
        lr: f64,
        rule: R,
        decays: &dyn Fn(&str, &DynTensor) -> bool,
    ) -> Result<Core<R>> {
        let undecayed = model
            .parameters()?
            .into_iter()
            .filter(|(name, p)| !decays(name, p))
            .map(|(name, _)| name)
            .collect();
        Ok(Core {
            lr: RuntimeScalar::new(lr),
            slots: Slots::new(model, rule.kinds())?,
            rule,
            undecayed,
        })
    }
}

/// An optimizer made of a [`Core`].
pub trait HasCore {
    /// Its update rule.
    type Rule: Rule;
    /// Its core.
    fn core(&self) -> &Core<Self::Rule>;
    /// Its core, to step.
    fn core_mut(&mut self) -> &mut Core<Self::Rule>;
}

/// `HasCore` for a newtype over a `Core` of `$rule`.
macro_rules! has_core {
    ($optimizer:ty, $rule:ty) => {
        impl $crate::optim::core::HasCore for $optimizer {
            type Rule = $rule;
            fn core(&self) -> &$crate::optim::core::Core<$rule> {
                &self.0
            }
            fn core_mut(&mut self) -> &mut $crate::optim::core::Core<$rule> {
                &mut self.0
            }
        }

        /// In a `#[kernel]`: its state tensors are the recording's, and each call advances
        /// it (its step count, learning rate and the rule's runtime scalars).
        impl $crate::replay::KernelState for $optimizer {
            fn kernel_tensors(&self) -> tg_runtime::Result<::std::vec::Vec<tg_ops::DynTensor>> {
                Ok($crate::optim::Optimizer::state_tensors(self))
            }

            fn kernel_advance(&mut self) -> ::std::vec::Vec<(u64, tg_runtime::Scalar)> {
                $crate::optim::Optimizer::advance(self)
            }

            fn kernel_key(&self) -> ::std::vec::Vec<u64> {
                $crate::optim::core::HasCore::core(self).structure()
            }
        }
    };
}
pub(crate) use has_core;

impl<O: HasCore> Optimizer for O {
    fn advance(&mut self) -> Vec<(u64, Scalar)> {
        let core = self.core_mut();
        core.slots.step += 1;
        let mut binds = vec![core.lr.bind()];
        binds.extend(core.rule.at_step(core.slots.step));
        binds
    }

    fn update(&mut self, model: &mut dyn Module, grads: &[DynTensor]) -> Result<Vec<DynTensor>> {
        let core = self.core_mut();
        let (rule, lr, slots, undecayed) = (core.rule, core.lr, &mut core.slots, &core.undecayed);
        let mut written = each_parameter(model, grads, |name, p, g| {
            let decay = !undecayed.contains(name);
            rule.apply(lr.operand(), p, g, slots.of(name)?, decay)
        })?;
        written.extend(core.slots.tensors());
        Ok(written)
    }

    fn lr(&self) -> f64 {
        self.core().lr.value()
    }

    fn set_lr(&mut self, lr: f64) {
        self.core_mut().lr.set(lr);
    }

    fn steps(&self) -> u64 {
        self.core().slots.step
    }

    fn state_tensors(&self) -> Vec<DynTensor> {
        self.core().slots.tensors()
    }

    fn state_dict(&self) -> Result<StateDict> {
        self.core().slots.state_dict()
    }

    fn load_state_dict(&mut self, dict: &StateDict) -> Result<()> {
        let core = self.core_mut();
        core.slots.load_state_dict(dict)?;
        // the rule's scalars as they were for the loaded step (the first step's before any)
        core.rule.at_step(core.slots.step.max(1));
        Ok(())
    }
}
