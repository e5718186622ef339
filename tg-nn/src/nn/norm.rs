//! Normalization layers: BatchNorm2d (batch statistics while training, running statistics
//! in evaluation), LayerNorm, RMSNorm and GroupNorm, as tinygrad defines them, and
//! `TypedLayerNorm<D>` / `TypedRMSNorm<D>` with their sizes in their types.

use tg_ops::shape::Const;
use tg_ops::shape::axis::SelectAxis;
use tg_ops::tensor::ok;
use tg_ops::{DynTensor, Tensor};
use tg_runtime::{DType, Error, Result};

use super::init;
use super::module::{
    Inspector, Module, Role, Visitor, inspect_weight_bias, visit_typed, visit_weight_bias,
};

fn rank_error(op: &'static str, want: &str, x: &DynTensor) -> Error {
    Error::Shape {
        op,
        message: format!("the input {:?} must be {want}", x.shape()),
    }
}

/// Batch normalization over the channel axis of `(batch, channels, h, w)`.
///
/// Training: normalizes with the batch's mean and biased variance and moves the running
/// statistics towards them (`running = (1 - momentum) * running + momentum * batch`, the
/// variance unbiased), written in place. Evaluation: normalizes with the running statistics.
pub struct BatchNorm2d {
    /// Scale, `(channels,)`, ones.
    pub weight: DynTensor,
    /// Shift, `(channels,)`, zeros.
    pub bias: DynTensor,
    /// Running mean, `(channels,)`, a buffer.
    pub running_mean: DynTensor,
    /// Running (unbiased) variance, `(channels,)`, a buffer.
    pub running_var: DynTensor,
    /// Training steps taken, `(1,)` f32, a buffer.
    pub num_batches_tracked: DynTensor,
    /// Added to the variance.
    pub eps: f64,
    /// Weight of a batch in the running statistics.
    pub momentum: f64,
    /// Batch statistics (true, the default) or running ones.
    pub training: bool,
}

impl BatchNorm2d {
    /// A layer over `channels`, eps 1e-5, momentum 0.1, in training mode.
    pub fn new(channels: usize) -> Result<BatchNorm2d> {
        Ok(BatchNorm2d {
            weight: init::filled(channels, 1.0)?,
            bias: init::filled(channels, 0.0)?,
            running_mean: init::buffer(&[channels], 0.0, DType::F32)?,
            running_var: init::buffer(&[channels], 1.0, DType::F32)?,
            num_batches_tracked: init::buffer(&[1], 0.0, DType::F32)?,
            eps: 1e-5,
            momentum: 0.1,
            training: true,
        })
    }

    /// The layer applied to `x`; in training it also updates the running statistics (in
    /// place, realized with whatever is realized next).
    pub fn forward(&mut self, x: &DynTensor) -> Result<DynTensor> {
        if x.ndim() != 4 || x.shape()[1] != self.weight.shape()[0] {
            return Err(rank_error(
                "BatchNorm2d",
                &format!("(batch, {}, h, w)", self.weight.shape()[0]),
                x,
            ));
        }
        let axes = [0isize, 2, 3];
        let (mean, invstd) = if self.training {
            let mean = x.mean(Some(&axes), false)?;
            // d var / d mean is zero: the mean is detached here as tinygrad does
            let centered = x.sub(&mean.detach().reshape(&[1, -1, 1, 1])?)?;
            let var = centered.square()?.mean(Some(&axes), false)?;
            let n = (x.shape().iter().product::<usize>() / x.shape()[1]) as f64;
            let m = self.momentum;
            let rm = self
                .running_mean
                .mul(1.0 - m)?
                .add(&mean.detach().mul(m)?)?;
            let unbiased = var.detach().mul(m * n / (n - 1.0).max(1.0))?;
            let rv = self.running_var.mul(1.0 - m)?.add(&unbiased)?;
            let nb = self.num_batches_tracked.add(1.0)?;
            self.running_mean.assign(&rm)?;
            self.running_var.assign(&rv)?;
            self.num_batches_tracked.assign(&nb)?;
            (mean, var.add(self.eps)?.rsqrt()?)
        } else {
            (
                self.running_mean.clone(),
                self.running_var.add(self.eps)?.rsqrt()?,
            )
        };
        x.batchnorm(Some(&self.weight), Some(&self.bias), &mean, &invstd, &[1])
    }
}

impl Module for BatchNorm2d {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        visit_weight_bias(f, &mut self.weight, Some(&mut self.bias))?;
        f("running_mean", Role::Buffer, &mut self.running_mean)?;
        f("running_var", Role::Buffer, &mut self.running_var)?;
        f(
            "num_batches_tracked",
            Role::Buffer,
            &mut self.num_batches_tracked,
        )
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        inspect_weight_bias(f, &self.weight, Some(&self.bias))?;
        f("running_mean", Role::Buffer, &self.running_mean)?;
        f("running_var", Role::Buffer, &self.running_var)?;
        f(
            "num_batches_tracked",
            Role::Buffer,
            &self.num_batches_tracked,
        )
    }

    fn set_training(&mut self, training: bool) {
        self.training = training;
    }

    fn modes(&self, out: &mut Vec<u64>) {
        out.push(u64::from(self.training));
    }
}

/// `weight * (x - mean) / sqrt(var + eps) + bias` over the last axis (tinygrad's
/// `LayerNorm(normalized_shape)` with one trailing axis): weight ones, bias zeros.
pub struct LayerNorm {
    /// `(dim,)`, ones.
    pub weight: DynTensor,
    /// `(dim,)`, zeros.
    pub bias: DynTensor,
    /// Added to the variance (1e-5).
    pub eps: f64,
}

impl LayerNorm {
    /// A layer over a last axis of `dim`.
    pub fn new(dim: usize) -> Result<LayerNorm> {
        Ok(LayerNorm {
            weight: init::filled(dim, 1.0)?,
            bias: init::filled(dim, 0.0)?,
            eps: 1e-5,
        })
    }

    /// The layer applied to `x` `(..., dim)`.
    pub fn forward(&self, x: &DynTensor) -> Result<DynTensor> {
        layer_norm(x, &self.weight, &self.bias, self.eps)
    }
}

/// `weight * (x - mean) / sqrt(var + eps) + bias` over the last axis: [`LayerNorm`] and
/// [`TypedLayerNorm`].
fn layer_norm(x: &DynTensor, weight: &DynTensor, bias: &DynTensor, eps: f64) -> Result<DynTensor> {
    x.layernorm(&[-1], eps)?.mul(weight)?.add(bias)
}

impl Module for LayerNorm {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        visit_weight_bias(f, &mut self.weight, Some(&mut self.bias))
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        inspect_weight_bias(f, &self.weight, Some(&self.bias))
    }
}

/// [`LayerNorm`] with its size in its type: `weight` and `bias` are `Tensor<(D,)>`, and
/// `forward` takes any shape whose last axis is `D` (`[B, T, D]`, `[N, D]`, ...) to the same
/// shape, so an input of another width does not compile. The same initialisation, eps
/// (1e-5), arithmetic and tensor names as `LayerNorm`.
///
/// ```
/// use tg_ops::prelude::*;
/// use tg_nn::nn::{Module, TypedLayerNorm};
/// let ln = TypedLayerNorm::<4>::new().unwrap();
/// let x = Tensor::<Rank3<2, 3, 4>>::ones();
/// let y: Tensor<Rank3<2, 3, 4>> = ln.forward(&x);
/// assert_eq!(y.dims(), vec![2, 3, 4]);
/// assert_eq!(ln.bias.to_vec().unwrap(), vec![0.0; 4]);
/// assert_eq!(ln.parameters().unwrap().len(), 2);
/// ```
pub struct TypedLayerNorm<const D: usize> {
    /// `(D,)`, ones.
    pub weight: Tensor<(Const<D>,)>,
    /// `(D,)`, zeros.
    pub bias: Tensor<(Const<D>,)>,
    /// Added to the variance (1e-5).
    pub eps: f64,
}

impl<const D: usize> TypedLayerNorm<D> {
    /// A layer over a last axis of `D` (as [`LayerNorm::new`]).
    pub fn new() -> Result<Self> {
        let l = LayerNorm::new(D)?;
        Ok(TypedLayerNorm {
            weight: Tensor::try_from_dyn(l.weight)?,
            bias: Tensor::try_from_dyn(l.bias)?,
            eps: l.eps,
        })
    }

    /// The layer applied to `x`, normalized over its last axis.
    #[track_caller]
    pub fn forward<S: SelectAxis<-1, Dim = Const<D>>>(&self, x: &Tensor<S>) -> Tensor<S> {
        ok(self.try_forward(x))
    }

    /// [`TypedLayerNorm::forward`], returning a device failure instead of panicking.
    pub fn try_forward<S: SelectAxis<-1, Dim = Const<D>>>(
        &self,
        x: &Tensor<S>,
    ) -> Result<Tensor<S>> {
        Tensor::try_from_dyn(layer_norm(
            x.as_dyn(),
            self.weight.as_dyn(),
            self.bias.as_dyn(),
            self.eps,
        )?)
    }
}

impl<const D: usize> Module for TypedLayerNorm<D> {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        visit_typed("weight", Role::Parameter, &mut self.weight, f)?;
        visit_typed("bias", Role::Parameter, &mut self.bias, f)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        inspect_weight_bias(f, self.weight.as_dyn(), Some(self.bias.as_dyn()))
    }
}

/// `weight * x / sqrt(mean(x^2) + eps)` over the last axis (tinygrad's `RMSNorm`, eps
/// 1e-6).
pub struct RMSNorm {
    /// `(dim,)`, ones.
    pub weight: DynTensor,
    /// Added to the mean square (1e-6).
    pub eps: f64,
}

impl RMSNorm {
    /// A layer over a last axis of `dim`.
    pub fn new(dim: usize) -> Result<RMSNorm> {
        Ok(RMSNorm {
            weight: init::filled(dim, 1.0)?,
            eps: 1e-6,
        })
    }

    /// The layer applied to `x` `(..., dim)`.
    pub fn forward(&self, x: &DynTensor) -> Result<DynTensor> {
        rms_norm(x, &self.weight, self.eps)
    }
}

/// `weight * x / sqrt(mean(x^2) + eps)` over the last axis: [`RMSNorm`] and
/// [`TypedRMSNorm`].
fn rms_norm(x: &DynTensor, weight: &DynTensor, eps: f64) -> Result<DynTensor> {
    let ms = x.square()?.mean(Some(&[-1]), true)?;
    x.mul(&ms.add(eps)?.rsqrt()?)?.mul(weight)
}

impl Module for RMSNorm {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        f("weight", Role::Parameter, &mut self.weight)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        f("weight", Role::Parameter, &self.weight)
    }
}

/// [`RMSNorm`] with its size in its type: `weight` is `Tensor<(D,)>`, and `forward` takes
/// any shape whose last axis is `D` to the same shape (a llama-style block's norms). The
/// same initialisation, eps (1e-6), arithmetic and tensor name as `RMSNorm`.
///
/// ```
/// use tg_ops::prelude::*;
/// use tg_nn::nn::{Module, TypedRMSNorm};
/// let norm = TypedRMSNorm::<4>::new().unwrap();
/// let x = Tensor::<Rank2<2, 4>>::from_slice(&[3.0, 3.0, 3.0, 3.0, 1.0, -1.0, 1.0, -1.0]).unwrap();
/// let y: Tensor<Rank2<2, 4>> = norm.forward(&x);
/// for v in y.to_vec().unwrap() {
///     assert!((v.abs() - 1.0).abs() < 1e-5);
/// }
/// assert_eq!(norm.parameters().unwrap()[0].0, "weight");
/// ```
pub struct TypedRMSNorm<const D: usize> {
    /// `(D,)`, ones.
    pub weight: Tensor<(Const<D>,)>,
    /// Added to the mean square (1e-6).
    pub eps: f64,
}

impl<const D: usize> TypedRMSNorm<D> {
    /// A layer over a last axis of `D` (as [`RMSNorm::new`]).
    pub fn new() -> Result<Self> {
        let l = RMSNorm::new(D)?;
        Ok(TypedRMSNorm {
            weight: Tensor::try_from_dyn(l.weight)?,
            eps: l.eps,
        })
    }

    /// The layer applied to `x`, normalized over its last axis.
    #[track_caller]
    pub fn forward<S: SelectAxis<-1, Dim = Const<D>>>(&self, x: &Tensor<S>) -> Tensor<S> {
        ok(self.try_forward(x))
    }

    /// [`TypedRMSNorm::forward`], returning a device failure instead of panicking.
    pub fn try_forward<S: SelectAxis<-1, Dim = Const<D>>>(
        &self,
        x: &Tensor<S>,
    ) -> Result<Tensor<S>> {
        Tensor::try_from_dyn(rms_norm(x.as_dyn(), self.weight.as_dyn(), self.eps)?)
    }
}

impl<const D: usize> Module for TypedRMSNorm<D> {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        visit_typed("weight", Role::Parameter, &mut self.weight, f)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        f("weight", Role::Parameter, self.weight.as_dyn())
    }
}

/// Layer normalization of each group of channels of `(batch, channels, ...)` over the
/// group's channels and all spatial positions, then a per-channel scale and shift
/// (tinygrad's `GroupNorm`, eps 1e-5).
pub struct GroupNorm {
    /// Number of channel groups.
    pub groups: usize,
    /// `(channels,)`, ones.
    pub weight: DynTensor,
    /// `(channels,)`, zeros.
    pub bias: DynTensor,
    /// Added to the variance (1e-5).
    pub eps: f64,
}

impl GroupNorm {
    /// `channels` in `groups` groups (which must divide them).
    pub fn new(groups: usize, channels: usize) -> Result<GroupNorm> {
        if groups == 0 || !channels.is_multiple_of(groups) {
            return Err(Error::Argument {
                op: "GroupNorm",
                message: format!("{channels} channels do not divide into {groups} groups"),
            });
        }
        Ok(GroupNorm {
            groups,
            weight: init::filled(channels, 1.0)?,
            bias: init::filled(channels, 0.0)?,
            eps: 1e-5,
        })
    }

    /// The layer applied to `x` `(batch, channels, ...)`.
    pub fn forward(&self, x: &DynTensor) -> Result<DynTensor> {
        let c = self.weight.shape()[0];
        if x.ndim() < 2 || x.shape()[1] != c {
            return Err(rank_error("GroupNorm", &format!("(batch, {c}, ...)"), x));
        }
        let b = x.shape()[0] as isize;
        let shape: Vec<isize> = x.shape().iter().map(|&d| d as isize).collect();
        let normed = x
            .reshape(&[b, self.groups as isize, -1])?
            .layernorm(&[-1], self.eps)?
            .reshape(&shape)?;
        let mut per_channel = vec![1isize, -1];
        per_channel.resize(x.ndim(), 1);
        normed
            .mul(&self.weight.reshape(&per_channel)?)?
            .add(&self.bias.reshape(&per_channel)?)
    }
}

impl Module for GroupNorm {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        visit_weight_bias(f, &mut self.weight, Some(&mut self.bias))
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        inspect_weight_bias(f, &self.weight, Some(&self.bias))
    }
}
