//! Fully connected layers: `Linear` on runtime shapes and `TypedLinear<IN, OUT>`, whose
//! parameters and forward pass have their sizes in their types.

use tg_ops::shape::{Const, Dim};
use tg_ops::tensor::ok;
use tg_ops::{DynTensor, Tensor};
use tg_runtime::Result;

use super::init;
use super::module::{
    Inspector, Module, Role, Visitor, inspect_weight_bias, visit_typed, visit_weight_bias,
};

/// `y = x @ weight.T + bias`, weight `(out, in)` as tinygrad and torch store it (so their
/// checkpoints load), kaiming-uniform initialised, bias uniform in `±1/sqrt(in)`.
pub struct Linear {
    /// `(out_features, in_features)`.
    pub weight: DynTensor,
    /// `(out_features,)`, if the layer has one.
    pub bias: Option<DynTensor>,
}

impl Linear {
    /// A layer from `in_features` to `out_features`, with a bias when `bias`.
    pub fn new(in_features: usize, out_features: usize, bias: bool) -> Result<Linear> {
        Ok(Linear {
            weight: init::weight(&[out_features, in_features])?,
            bias: init::bias_if(bias, out_features, in_features)?,
        })
    }

    /// The layer applied to `x` (`(..., in)` to `(..., out)`).
    pub fn forward(&self, x: &DynTensor) -> Result<DynTensor> {
        project(x, &self.weight, self.bias.as_ref())
    }
}

/// `x @ weight.T + bias`, `weight` `(out, in)`: the product behind [`Linear`],
/// [`TypedLinear`] and the attention layers' projections, whatever holds the tensors.
pub(crate) fn project(
    x: &DynTensor,
    weight: &DynTensor,
    bias: Option<&DynTensor>,
) -> Result<DynTensor> {
    x.linear(&weight.transpose(0, 1)?, bias)
}

impl Module for Linear {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        visit_weight_bias(f, &mut self.weight, self.bias.as_mut())
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        inspect_weight_bias(f, &self.weight, self.bias.as_ref())
    }
}

/// [`Linear`] with its sizes in its type: `weight: Tensor<(OUT, IN)>`, and `forward` takes
/// `(B, IN)` to `(B, OUT)` for any batch dimension `B` (static or dynamic), so a model of
/// typed layers that does not fit together does not compile.
///
/// ```
/// use tg_ops::prelude::*;
/// use tg_nn::nn::{Module, TypedLinear};
/// let mut fc = TypedLinear::<3, 2>::new().unwrap();
/// let x = Tensor::<Rank2<4, 3>>::ones();
/// let y: Tensor<Rank2<4, 2>> = fc.forward(&x);
/// assert_eq!(y.dims(), vec![4, 2]);
/// assert_eq!(fc.parameters().unwrap().len(), 2);
/// ```
pub struct TypedLinear<const IN: usize, const OUT: usize> {
    /// `(OUT, IN)`.
    pub weight: Tensor<(Const<OUT>, Const<IN>)>,
    /// `(OUT,)`.
    pub bias: Tensor<(Const<OUT>,)>,
}

impl<const IN: usize, const OUT: usize> TypedLinear<IN, OUT> {
    /// A layer with tinygrad's initialisation (as [`Linear::new`] with a bias).
    pub fn new() -> Result<Self> {
        TypedLinear::from_untyped(Linear::new(IN, OUT, true)?)
    }

    /// `layer`'s tensors, typed (a layer with a bias: `new`, and the typed layers built of
    /// untyped ones with their initialisation).
    pub(crate) fn from_untyped(layer: Linear) -> Result<Self> {
        let bias = layer.bias.ok_or_else(|| {
            tg_runtime::Error::internal("TypedLinear", "the untyped layer has no bias")
        })?;
        Ok(TypedLinear {
            weight: Tensor::try_from_dyn(layer.weight)?,
            bias: Tensor::try_from_dyn(bias)?,
        })
    }

    /// The layer applied to a batch of rows.
    #[track_caller]
    pub fn forward<B: Dim>(&self, x: &Tensor<(B, Const<IN>)>) -> Tensor<(B, Const<OUT>)> {
        ok(self.try_forward(x))
    }

    /// [`TypedLinear::forward`], returning a device failure instead of panicking.
    pub fn try_forward<B: Dim>(
        &self,
        x: &Tensor<(B, Const<IN>)>,
    ) -> Result<Tensor<(B, Const<OUT>)>> {
        Tensor::try_from_dyn(project(
            x.as_dyn(),
            self.weight.as_dyn(),
            Some(self.bias.as_dyn()),
        )?)
    }
}

impl<const IN: usize, const OUT: usize> Module for TypedLinear<IN, OUT> {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        visit_typed("weight", Role::Parameter, &mut self.weight, f)?;
        visit_typed("bias", Role::Parameter, &mut self.bias, f)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        f("weight", Role::Parameter, self.weight.as_dyn())?;
        f("bias", Role::Parameter, self.bias.as_dyn())
    }
}
