//! Layers in a row: [`Layer`] (a module with a forward pass from one tensor to one tensor) and
//! [`Sequential`], torch's container of that name, whose `i`-th layer's tensors are named
//! `"{i}.…"` (so `Sequential[Linear, relu, Linear]` has `0.weight` and `2.weight`, as torch's
//! state dicts do). A plain function is a layer through [`Func`].

use tg_ops::DynTensor;
use tg_runtime::Result;

use super::conv::{Conv2d, ConvTranspose2d};
use super::dropout::Dropout;
use super::embedding::Embedding;
use super::linear::Linear;
use super::models::{DigitsCnn, Mlp};
use super::module::{Inspector, Module, Visitor};
use super::norm::{BatchNorm2d, GroupNorm, LayerNorm, RMSNorm};

/// A module whose forward pass takes one tensor to one tensor: what [`Sequential`] chains.
/// `&mut self`, as BatchNorm's forward updates its running statistics while training.
pub trait Layer: Module {
    /// The layer applied to `x`.
    fn forward(&mut self, x: &DynTensor) -> Result<DynTensor>;
}

/// Every layer of this crate whose forward pass takes one tensor: its own `forward`.
macro_rules! layers {
    ($($ty:ty),*) => {$(
        impl Layer for $ty {
            fn forward(&mut self, x: &DynTensor) -> Result<DynTensor> {
                <$ty>::forward(self, x)
            }
        }
    )*};
}

layers!(
    Linear,
    Conv2d,
    ConvTranspose2d,
    BatchNorm2d,
    LayerNorm,
    RMSNorm,
    GroupNorm,
    Embedding,
    Dropout,
    Mlp,
    DigitsCnn
);

/// A function as a layer without tensors (`Func(|x| x.relu())`, `Func(DynTensor::gelu)`).
#[derive(Clone, Copy)]
pub struct Func(pub fn(&DynTensor) -> Result<DynTensor>);

impl Module for Func {
    fn visit(&mut self, _f: &mut Visitor<'_>) -> Result<()> {
        Ok(())
    }

    fn inspect(&self, _f: &mut Inspector<'_>) -> Result<()> {
        Ok(())
    }
}

impl Layer for Func {
    fn forward(&mut self, x: &DynTensor) -> Result<DynTensor> {
        (self.0)(x)
    }
}

/// Layers applied in order, each to the previous one's output.
#[derive(Default)]
pub struct Sequential {
    layers: Vec<Box<dyn Layer>>,
}

impl Sequential {
    /// No layers yet (its forward pass is the identity).
    pub fn new() -> Sequential {
        Sequential::default()
    }

    /// `self` with `layer` appended.
    pub fn with(mut self, layer: impl Layer + 'static) -> Sequential {
        self.push(layer);
        self
    }

    /// Appends `layer`.
    pub fn push(&mut self, layer: impl Layer + 'static) {
        self.layers.push(Box::new(layer));
    }

    /// The layers, in order.
    pub fn layers(&self) -> &[Box<dyn Layer>] {
        &self.layers
    }

    /// The layers, in order, to change.
    pub fn layers_mut(&mut self) -> &mut [Box<dyn Layer>] {
        &mut self.layers
    }

    /// How many layers.
    pub fn len(&self) -> usize {
        self.layers.len()
    }

    /// Whether it has no layers.
    pub fn is_empty(&self) -> bool {
        self.layers.is_empty()
    }

    /// The layers applied to `x` in order.
    pub fn forward(&mut self, x: &DynTensor) -> Result<DynTensor> {
        self.layers
            .iter_mut()
            .try_fold(x.clone(), |h, layer| layer.forward(&h))
    }
}

impl Module for Sequential {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        self.layers.visit(f)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        self.layers.inspect(f)
    }

    fn set_training(&mut self, training: bool) {
        self.layers.set_training(training)
    }

    fn modes(&self, out: &mut Vec<u64>) {
        self.layers.modes(out)
    }
}

impl Layer for Sequential {
    fn forward(&mut self, x: &DynTensor) -> Result<DynTensor> {
        Sequential::forward(self, x)
    }
}
