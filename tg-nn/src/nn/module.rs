//! The `Module` trait: a model names its tensors once (`visit`), and everything that walks a
//! model (optimizers, state dicts, gradient lists) is written against that one method.

use tg_ops::{DynTensor, Shape, Tensor};
use tg_runtime::{Error, Result};

use crate::state::{self, Extra, StateDict};

/// What a named tensor of a module is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Trained: an optimizer updates it from its gradient.
    Parameter,
    /// Kept but not trained (BatchNorm's running statistics): saved and loaded with the
    /// parameters, never given a gradient.
    Buffer,
}

/// A visitor of a module's tensors: the tensor's name (dotted, as torch's state dicts name
/// them), its role, and the tensor, which the visitor may replace (an in-place update gives
/// a tensor a new node; a typed layer checks the replacement's shape).
pub type Visitor<'a> = dyn FnMut(&str, Role, &mut DynTensor) -> Result<()> + 'a;

/// A read-only visitor of a module's tensors: the tensor's name, its role, the tensor.
pub type Inspector<'a> = dyn FnMut(&str, Role, &DynTensor) -> Result<()> + 'a;

/// Visits an affine layer's `weight` and, if it has one, its `bias`, both trained: the
/// tensors of Linear, the convolutions and the norm layers' scale and shift.
pub(crate) fn visit_weight_bias(
    f: &mut Visitor<'_>,
    weight: &mut DynTensor,
    bias: Option<&mut DynTensor>,
) -> Result<()> {
    f("weight", Role::Parameter, weight)?;
    match bias {
        Some(b) => f("bias", Role::Parameter, b),
        None => Ok(()),
    }
}

/// [`visit_weight_bias`] read-only.
pub(crate) fn inspect_weight_bias(
    f: &mut Inspector<'_>,
    weight: &DynTensor,
    bias: Option<&DynTensor>,
) -> Result<()> {
    f("weight", Role::Parameter, weight)?;
    match bias {
        Some(b) => f("bias", Role::Parameter, b),
        None => Ok(()),
    }
}

/// Replaces a typed tensor through a visitor: the visitor sees it untyped, and what it puts
/// back must have the type's shape and dtype (else the error names the tensor).
pub fn visit_typed<S: Shape>(
    name: &str,
    role: Role,
    t: &mut Tensor<S>,
    f: &mut Visitor<'_>,
) -> Result<()> {
    let mut d = t.as_dyn().clone();
    f(name, role, &mut d)?;
    *t = Tensor::try_from_dyn(d).map_err(|e| Error::Argument {
        op: "Module::visit",
        message: format!("`{name}`: {e}"),
    })?;
    Ok(())
}

/// A layer or a model built of layers.
///
/// Implementors write `visit` (each tensor by name, and each child through [`child`]), its
/// read-only twin `inspect` (the same names in the same order, children through
/// [`child_ref`]) and, when they hold layers that behave differently in training,
/// `set_training`; `#[derive(Module)]` (tg's `tg::nn::Module`) writes all three from the
/// struct's fields. The provided methods list parameters, make and load state dicts; those
/// that only read take `&self`.
pub trait Module {
    /// Calls `f` with every tensor of the module, in a fixed order; `f` may replace them.
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()>;

    /// Calls `f` with every tensor of the module, read-only, in `visit`'s order and with its
    /// names.
    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()>;

    /// Switches training behaviour (BatchNorm's batch statistics, Dropout) on or off. The
    /// default does nothing: a module without such layers has no mode.
    fn set_training(&mut self, training: bool) {
        let _ = training;
    }

    /// Appends the state of each behaviour switch [`Module::set_training`] sets (a word per
    /// layer that has one, in `visit` order): a `#[kernel]` taking the module keys its
    /// recordings with it, so a step recorded while training is not replayed in evaluation.
    /// The default appends nothing; a container passes it on to its children.
    fn modes(&self, out: &mut Vec<u64>) {
        let _ = out;
    }

    /// The parameters (trained tensors) by name, in `visit` order.
    fn parameters(&self) -> Result<Vec<(String, DynTensor)>> {
        named(self, Some(Role::Parameter))
    }

    /// Every tensor (parameters and buffers) by name, in `visit` order.
    fn tensors(&self) -> Result<Vec<(String, DynTensor)>> {
        named(self, None)
    }

    /// The module's state: every tensor by name.
    fn state_dict(&self) -> Result<StateDict> {
        let mut dict = StateDict::new();
        for (name, t) in self.tensors()? {
            dict.insert(name, t);
        }
        Ok(dict)
    }

    /// Saves [`Module::state_dict`] as a safetensors file.
    fn save(&self, path: &std::path::Path) -> Result<()> {
        let tensors = self.tensors()?;
        let refs: Vec<(&str, &DynTensor)> = tensors.iter().map(|(n, t)| (n.as_str(), t)).collect();
        state::save(path, &refs)
    }

    /// Loads a safetensors file written by [`Module::save`] (or any file with exactly these
    /// names, dtypes and shapes), writing each value into the module's tensor in place, so
    /// an optimizer or a recorded step that holds the tensors sees the loaded values. A file
    /// that does not fit loads nothing; the error names every tensor that differs.
    fn load(&mut self, path: &std::path::Path) -> Result<()> {
        let current = self.tensors()?;
        let refs: Vec<(&str, &DynTensor)> = current.iter().map(|(n, t)| (n.as_str(), t)).collect();
        let loaded = state::load_into(path, &refs, Extra::Refuse)?;
        load_values(self, current.iter().map(|(n, _)| n.as_str()).zip(loaded))
    }

    /// Writes the tensors of `dict` into the module's tensors of the same names in place.
    /// Every tensor of the module must be in `dict` with its shape and dtype; all of it is
    /// checked first, so a dict that does not fit writes nothing, and the error names every
    /// tensor at fault.
    fn load_state_dict(&mut self, dict: &StateDict) -> Result<()> {
        let mut problems = Vec::new();
        let mut values = Vec::new();
        for (name, t) in self.tensors()? {
            match dict.get(&name) {
                None => problems.push(format!("`{name}` is missing")),
                Some(v) if v.shape() != t.shape() || v.dtype() != t.dtype() => {
                    problems.push(format!(
                        "`{name}`: the module has {} {:?}, the state dict {} {:?}",
                        t.dtype(),
                        t.shape(),
                        v.dtype(),
                        v.shape()
                    ))
                }
                Some(v) => values.push((name, v.clone())),
            }
        }
        if !problems.is_empty() {
            return Err(Error::Argument {
                op: "load_state_dict",
                message: problems.join("; "),
            });
        }
        load_values(self, values.iter().map(|(n, v)| (n.as_str(), v.clone())))
    }
}

/// Visits `module` as the child `name` of a module being visited: its tensors' names get
/// the prefix `name.`.
pub fn child(name: &str, module: &mut dyn Module, f: &mut Visitor<'_>) -> Result<()> {
    module.visit(&mut |n, role, t| f(&format!("{name}.{n}"), role, t))
}

/// [`child`] read-only: inspects `module` as the child `name` of a module being inspected.
pub fn child_ref(name: &str, module: &dyn Module, f: &mut Inspector<'_>) -> Result<()> {
    module.inspect(&mut |n, role, t| f(&format!("{name}.{n}"), role, t))
}

fn named<M: Module + ?Sized>(m: &M, role: Option<Role>) -> Result<Vec<(String, DynTensor)>> {
    let mut out = Vec::new();
    m.inspect(&mut |name, r, t| {
        if role.is_none_or(|want| want == r) {
            out.push((name.to_string(), t.clone()));
        }
        Ok(())
    })?;
    Ok(out)
}

/// Assigns values, in `visit` order, to the module's tensors.
fn load_values<'a, M: Module + ?Sized>(
    m: &mut M,
    values: impl Iterator<Item = (&'a str, DynTensor)>,
) -> Result<()> {
    let mut values = values;
    let mut written = Vec::new();
    m.visit(&mut |name, _, t| {
        let (want, v) = values
            .next()
            .ok_or_else(|| Error::internal("load_state_dict", format!("no value for `{name}`")))?;
        if want != name {
            return Err(Error::internal(
                "load_state_dict",
                format!("visit order changed: `{name}` where `{want}` was"),
            ));
        }
        t.assign(&v)?;
        written.push(t.lazy().clone());
        Ok(())
    })?;
    tg_runtime::realize(&written.iter().collect::<Vec<_>>())
}

/// `Module` for a container of modules through its slice's impl, so that each container
/// names its tensors exactly as a slice does.
macro_rules! module_as_slice {
    ($(#[$doc:meta])* [$($generics:tt)*] $ty:ty) => {
        $(#[$doc])*
        impl<$($generics)*> Module for $ty {
            fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
                self.as_mut_slice().visit(f)
            }

            fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
                self.as_slice().inspect(f)
            }

            fn set_training(&mut self, training: bool) {
                self.as_mut_slice().set_training(training)
            }

            fn modes(&self, out: &mut Vec<u64>) {
                self.as_slice().modes(out)
            }
        }
    };
}

module_as_slice!(
    /// A list of modules (torch's `ModuleList`): the tensors of the `i`-th are named `"{i}.…"`.
    [M: Module] Vec<M>
);
module_as_slice!(
    /// A fixed number of modules, named as a `Vec`'s.
    [M: Module, const N: usize] [M; N]
);

/// The modules of a slice, the `i`-th's tensors named `"{i}.…"`.
impl<M: Module> Module for [M] {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        self.iter_mut()
            .enumerate()
            .try_for_each(|(i, m)| child(&i.to_string(), m, f))
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        self.iter()
            .enumerate()
            .try_for_each(|(i, m)| child_ref(&i.to_string(), m, f))
    }

    fn set_training(&mut self, training: bool) {
        self.iter_mut().for_each(|m| m.set_training(training))
    }

    fn modes(&self, out: &mut Vec<u64>) {
        self.iter().for_each(|m| m.modes(out))
    }
}

/// A module that may be absent: its tensors, unprefixed, or none.
impl<M: Module> Module for Option<M> {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        self.as_mut().map_or(Ok(()), |m| m.visit(f))
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        self.as_ref().map_or(Ok(()), |m| m.inspect(f))
    }

    fn set_training(&mut self, training: bool) {
        if let Some(m) = self {
            m.set_training(training)
        }
    }

    fn modes(&self, out: &mut Vec<u64>) {
        if let Some(m) = self {
            m.modes(out)
        }
    }
}

/// A boxed module (`Box<dyn Module>` among them) is the module.
impl<M: Module + ?Sized> Module for Box<M> {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        (**self).visit(f)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        (**self).inspect(f)
    }

    fn set_training(&mut self, training: bool) {
        (**self).set_training(training)
    }

    fn modes(&self, out: &mut Vec<u64>) {
        (**self).modes(out)
    }
}
