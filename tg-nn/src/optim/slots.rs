//! Per-parameter optimizer state (momenta, Adam's moments) by parameter name, made when the
//! optimizer is made so that a state dict can be loaded before the first step.

use std::collections::HashMap;

use tg_ops::DynTensor;
use tg_runtime::{DType, Error, Result};

use crate::nn::Module;
use crate::state::StateDict;

/// The state tensors of every parameter: `kinds` names the tensors each parameter has
/// (`["m", "v"]`), each a zero buffer of the parameter's shape.
pub(crate) struct Slots {
    kinds: &'static [&'static str],
    /// Parameter names in the model's order.
    pub(crate) names: Vec<String>,
    state: HashMap<String, Vec<DynTensor>>,
    /// Steps taken.
    pub(crate) step: u64,
}

impl Slots {
    pub(crate) fn new(model: &mut dyn Module, kinds: &'static [&'static str]) -> Result<Slots> {
        let mut names = Vec::new();
        let mut state = HashMap::new();
        for (name, p) in model.parameters()? {
            let zeros = DynTensor::zeros(p.shape(), p.dtype())?;
            let tensors = kinds
                .iter()
                .map(|_| DynTensor::state(&zeros))
                .collect::<Result<Vec<_>>>()?;
            state.insert(name.clone(), tensors);
            names.push(name);
        }
        // realized now, so that a recorded step does not record (and repeat) their zeroing
        let all: Vec<&tg_runtime::Lazy> = state.values().flatten().map(DynTensor::lazy).collect();
        tg_runtime::realize(&all)?;
        Ok(Slots {
            kinds,
            names,
            state,
            step: 0,
        })
    }

    /// The state of parameter `name`, or an error naming it (a model visited differently
    /// from when the optimizer was made).
    pub(crate) fn of(&mut self, name: &str) -> Result<&mut Vec<DynTensor>> {
        self.state.get_mut(name).ok_or_else(|| Error::Argument {
            op: "Optimizer::update",
            message: format!(
                "the parameter `{name}` was not in the model the optimizer was made for"
            ),
        })
    }

    /// Every state tensor, in parameter order.
    pub(crate) fn tensors(&self) -> Vec<DynTensor> {
        self.names
            .iter()
            .flat_map(|n| self.state[n].iter().cloned())
            .collect()
    }

    /// `"{param}.{kind}"` for every state tensor, and `"step"`.
    pub(crate) fn state_dict(&self) -> Result<StateDict> {
        let mut dict = StateDict::new();
        for n in &self.names {
            for (kind, t) in self.kinds.iter().zip(&self.state[n]) {
                dict.insert(format!("{n}.{kind}"), t.clone());
            }
        }
        let step = i32::try_from(self.step).map_err(|_| Error::Argument {
            op: "Optimizer::state_dict",
            message: format!("step {} does not fit the saved i32", self.step),
        })?;
        dict.insert("step", DynTensor::from_slice(&[1], &[step])?);
        Ok(dict)
    }

    /// Writes the state tensors of `dict` in place (recorded steps keep their buffers) and
    /// takes its step count. Every tensor must be there with its shape and dtype.
    pub(crate) fn load_state_dict(&mut self, dict: &StateDict) -> Result<()> {
        let fetch = |name: &str, want: &DynTensor| -> Result<DynTensor> {
            let t = dict.get(name).ok_or_else(|| Error::Argument {
                op: "Optimizer::load_state_dict",
                message: format!("the state dict has no `{name}`"),
            })?;
            if t.shape() != want.shape() || t.dtype() != want.dtype() {
                return Err(Error::Argument {
                    op: "Optimizer::load_state_dict",
                    message: format!(
                        "`{name}`: the optimizer has {} {:?}, the state dict {} {:?}",
                        want.dtype(),
                        want.shape(),
                        t.dtype(),
                        t.shape()
                    ),
                });
            }
            Ok(t.clone())
        };
        let step_t = fetch("step", &DynTensor::zeros(&[1], DType::I32)?)?;
        // everything checked before anything is written
        let mut values = Vec::new();
        for n in &self.names {
            for (kind, t) in self.kinds.iter().zip(&self.state[n]) {
                values.push(fetch(&format!("{n}.{kind}"), t)?);
            }
        }
        let step = step_t.to_vec::<i32>()?[0];
        let mut values = values.into_iter();
        let mut written = Vec::new();
        for n in &self.names {
            for t in self.state.get_mut(n).into_iter().flatten() {
                if let Some(v) = values.next() {
                    t.assign(&v)?;
                    written.push(t.lazy().clone());
                }
            }
        }
        tg_runtime::realize(&written.iter().collect::<Vec<_>>())?;
        self.step = u64::try_from(step).unwrap_or(0);
        Ok(())
    }
}
