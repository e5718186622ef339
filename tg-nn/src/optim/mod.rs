//! Optimizers (SGD with momentum, Nesterov and weight decay; Adam; AdamW) and learning-rate
//! schedules.
//!
//! An optimizer step is split in two, so that a recorded training step can replay it:
//! [`Optimizer::advance`] is the host side (the step count, the learning rate, Adam's bias
//! corrections: runtime scalars whose new values it returns for a replay to bind), and
//! [`Optimizer::update`] builds the device side: every parameter and state tensor written in
//! place with `assign`, all of it realized in one schedule. [`Optimizer::step`] does both.

mod adam;
mod core;
mod scalar;
pub mod schedule;
mod sgd;
mod slots;

pub use adam::{Adam, AdamConfig, AdamW, decay_matrices};
pub use scalar::RuntimeScalar;
pub use sgd::Sgd;

use tg_ops::DynTensor;
use tg_runtime::{Result, Scalar};

use crate::nn::Module;
use crate::state::StateDict;

/// What every optimizer does.
pub trait Optimizer {
    /// The host side of a step: counts it and sets the runtime scalars (learning rate, bias
    /// corrections) for it; returns their `(id, value)` binds for a replayed step.
    fn advance(&mut self) -> Vec<(u64, Scalar)>;

    /// The device side of a step: writes the update of every parameter of `model` (given
    /// `grads`, in [`Module::parameters`] order) and of the optimizer's state in place.
    /// Lazy; returns the written tensors (parameters, then state) to realize. (Buffers a
    /// forward pass writes, as BatchNorm's running statistics, are the model's: realize
    /// `model.tensors()` with these.)
    fn update(&mut self, model: &mut dyn Module, grads: &[DynTensor]) -> Result<Vec<DynTensor>>;

    /// The learning rate of the next step.
    fn lr(&self) -> f64;

    /// Sets the learning rate (a runtime scalar: nothing recompiles).
    fn set_lr(&mut self, lr: f64);

    /// Steps taken.
    fn steps(&self) -> u64;

    /// The state tensors (momenta, moments), to realize with a step.
    fn state_tensors(&self) -> Vec<DynTensor>;

    /// The state: `"{param}.{kind}"` tensors and `"step"` (i32, `(1,)`).
    fn state_dict(&self) -> Result<StateDict>;

    /// Loads a state written by [`Optimizer::state_dict`] in place, so training resumes
    /// where it stopped (recorded steps included).
    fn load_state_dict(&mut self, dict: &StateDict) -> Result<()>;

    /// The gradients of `loss` with respect to every parameter, then [`Optimizer::update`]:
    /// a step's device side, without [`Optimizer::advance`] (which a recorded step runs
    /// outside the recording, to bind its scalars). Returns the written tensors (unrealized).
    fn descend(&mut self, model: &mut dyn Module, loss: &DynTensor) -> Result<Vec<DynTensor>> {
        let grads = gradients(model, loss)?;
        self.update(model, &grads)
    }

    /// A whole eager step: [`Optimizer::advance`], then [`Optimizer::descend`]; returns the
    /// written tensors (unrealized). In a `#[kernel]` body, which takes the optimizer by
    /// `&mut` and advances it before each call (replays included), `step` is `descend`.
    fn step(&mut self, model: &mut dyn Module, loss: &DynTensor) -> Result<Vec<DynTensor>> {
        if !tg_ops::kernel_cache::in_kernel_body() {
            self.advance();
        }
        self.descend(model, loss)
    }
}

/// The gradients of the scalar `loss` with respect to every parameter of `model`, in
/// [`Module::parameters`] order.
pub fn gradients(model: &mut dyn Module, loss: &DynTensor) -> Result<Vec<DynTensor>> {
    let params = model.parameters()?;
    let refs: Vec<&DynTensor> = params.iter().map(|(_, p)| p).collect();
    loss.gradient(&refs, None)
}

/// Applies `rule` to every parameter of `model` with its gradient (by position) and its
/// name; `rule` returns the parameter's new value, which is assigned in place.
pub(crate) fn each_parameter(
    model: &mut dyn Module,
    grads: &[DynTensor],
    mut rule: impl FnMut(&str, &DynTensor, &DynTensor) -> Result<DynTensor>,
) -> Result<Vec<DynTensor>> {
    let mut i = 0;
    let mut written = Vec::new();
    model.visit(&mut |name, role, p| {
        if role != crate::nn::Role::Parameter {
            return Ok(());
        }
        let g = grads.get(i).ok_or_else(|| tg_runtime::Error::Argument {
            op: "Optimizer::update",
            message: format!(
                "{} gradients for more parameters (at `{name}`)",
                grads.len()
            ),
        })?;
        i += 1;
        if g.shape() != p.shape() {
            return Err(tg_runtime::Error::Shape {
                op: "Optimizer::update",
                message: format!(
                    "the gradient of `{name}` has shape {:?}, the parameter {:?}",
                    g.shape(),
                    p.shape()
                ),
            });
        }
        let new = rule(name, p, g)?;
        p.assign(&new)?;
        written.push(p.clone());
        Ok(())
    })?;
    if i != grads.len() {
        return Err(tg_runtime::Error::Argument {
            op: "Optimizer::update",
            message: format!("{} gradients for {i} parameters", grads.len()),
        });
    }
    Ok(written)
}
