// The typed wrappers of the table-shaped families, from tg-core's op table (typed/mod.rs).
// Generated from tg-core's tables by tg-ops/tests/generated.rs; do not edit by hand:
// TG_BLESS=1 cargo test -p tg-ops --test generated

use crate::dtype::{Dtype, Numeric};
use crate::shape::Shape;
use crate::shape::axis::{KeepAxis, RemoveAxis};
use crate::shape::ops::RemoveAxes2;
use crate::tensor::{Tensor, ok};
use crate::typed::elementwise::FloatOf;
use crate::typed::reduce::{MeanDtype, SumDtype};

/// The float type of a statistic of `T`.
type F<T> = <T as FloatOf>::Output;

/// The output type of a two-axis reduction that keeps the axes.
type Keep2<S, const A: isize, const B: isize> = <<S as KeepAxis<A>>::Output as KeepAxis<B>>::Output;

impl<S: Shape, T: FloatOf> Tensor<S, T> {
    /// `e^x` (see [`DynTensor::exp`](crate::DynTensor::exp)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.exp().to_vec().unwrap();
    /// let want: [f32; 2] = [1.0, 2.7182817];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn exp(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().exp()))
    }

    /// `2^x` (see [`DynTensor::exp2`](crate::DynTensor::exp2)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 3.0]).unwrap();
    /// let y = t.exp2().to_vec().unwrap();
    /// let want: [f32; 2] = [1.0, 8.0];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn exp2(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().exp2()))
    }

    /// The natural logarithm (see [`DynTensor::log`](crate::DynTensor::log)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, 10.0]).unwrap();
    /// let y = t.log().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 2.3025851];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn log(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().log()))
    }

    /// The base-2 logarithm (see [`DynTensor::log2`](crate::DynTensor::log2)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, 0.25]).unwrap();
    /// let y = t.log2().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, -2.0];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn log2(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().log2()))
    }

    /// The square root (see [`DynTensor::sqrt`](crate::DynTensor::sqrt)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[4.0, 2.0]).unwrap();
    /// let y = t.sqrt().to_vec().unwrap();
    /// let want: [f32; 2] = [2.0, 1.4142135];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn sqrt(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().sqrt()))
    }

    /// `1 / sqrt(x)` (see [`DynTensor::rsqrt`](crate::DynTensor::rsqrt)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[4.0, 0.25]).unwrap();
    /// let y = t.rsqrt().to_vec().unwrap();
    /// let want: [f32; 2] = [0.5, 2.0];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn rsqrt(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().rsqrt()))
    }

    /// Sine (see [`DynTensor::sin`](crate::DynTensor::sin)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.sin().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.84147096];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn sin(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().sin()))
    }

    /// Cosine (see [`DynTensor::cos`](crate::DynTensor::cos)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.cos().to_vec().unwrap();
    /// let want: [f32; 2] = [1.0, 0.5403023];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn cos(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().cos()))
    }

    /// Tangent (see [`DynTensor::tan`](crate::DynTensor::tan)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.tan().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 1.5574077];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn tan(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().tan()))
    }

    /// Arcsine (see [`DynTensor::asin`](crate::DynTensor::asin)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 0.5]).unwrap();
    /// let y = t.asin().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.5235988];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn asin(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().asin()))
    }

    /// Arccosine (see [`DynTensor::acos`](crate::DynTensor::acos)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, 0.5]).unwrap();
    /// let y = t.acos().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 1.0471976];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn acos(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().acos()))
    }

    /// Arctangent (see [`DynTensor::atan`](crate::DynTensor::atan)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.atan().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.7853982];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn atan(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().atan()))
    }

    /// Hyperbolic sine (see [`DynTensor::sinh`](crate::DynTensor::sinh)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.sinh().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 1.1752012];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn sinh(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().sinh()))
    }

    /// Hyperbolic cosine (see [`DynTensor::cosh`](crate::DynTensor::cosh)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.cosh().to_vec().unwrap();
    /// let want: [f32; 2] = [1.0, 1.5430806];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn cosh(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().cosh()))
    }

    /// Hyperbolic tangent (see [`DynTensor::tanh`](crate::DynTensor::tanh)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.tanh().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.7615942];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn tanh(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().tanh()))
    }

    /// Inverse hyperbolic sine (see [`DynTensor::asinh`](crate::DynTensor::asinh)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.asinh().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.8813736];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn asinh(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().asinh()))
    }

    /// Inverse hyperbolic cosine (see [`DynTensor::acosh`](crate::DynTensor::acosh)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, 2.0]).unwrap();
    /// let y = t.acosh().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 1.3169579];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn acosh(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().acosh()))
    }

    /// Inverse hyperbolic tangent (see [`DynTensor::atanh`](crate::DynTensor::atanh)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 0.5]).unwrap();
    /// let y = t.atanh().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.54930615];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn atanh(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().atanh()))
    }

    /// The error function (see [`DynTensor::erf`](crate::DynTensor::erf)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.erf().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.8427008];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn erf(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().erf()))
    }

    /// `1 / x` (see [`DynTensor::reciprocal`](crate::DynTensor::reciprocal)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[4.0, -0.5]).unwrap();
    /// let y = t.reciprocal().to_vec().unwrap();
    /// let want: [f32; 2] = [0.25, -2.0];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn reciprocal(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().reciprocal()))
    }

    /// GELU, tanh approximation (tinygrad's and candle's default) (see [`DynTensor::gelu`](crate::DynTensor::gelu)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.gelu().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.841192];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn gelu(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().gelu()))
    }

    /// GELU, exact erf form (torch's default) (see [`DynTensor::gelu_erf`](crate::DynTensor::gelu_erf)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.gelu_erf().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.8413447];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn gelu_erf(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().gelu_erf()))
    }

    /// `x sigmoid(1.702 x)` (see [`DynTensor::quick_gelu`](crate::DynTensor::quick_gelu)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.quick_gelu().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.8457957];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn quick_gelu(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().quick_gelu()))
    }

    /// SiLU (swish), `x sigmoid(x)` (see [`DynTensor::silu`](crate::DynTensor::silu)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.silu().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.7310586];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn silu(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().silu()))
    }

    /// Swish, tinygrad's `x * sigmoid(x)` (see [`DynTensor::swish`](crate::DynTensor::swish)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.swish().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.7310586];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn swish(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().swish()))
    }

    /// Mish, `x tanh(softplus(x))` (see [`DynTensor::mish`](crate::DynTensor::mish)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.mish().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.8650984];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn mish(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().mish()))
    }

    /// `x / (1 + |x|)` (see [`DynTensor::softsign`](crate::DynTensor::softsign)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, -3.0]).unwrap();
    /// let y = t.softsign().to_vec().unwrap();
    /// let want: [f32; 2] = [0.5, -0.75];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn softsign(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().softsign()))
    }

    /// `1 / (1 + e^-x)`, stable for either sign (see [`DynTensor::sigmoid`](crate::DynTensor::sigmoid)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 2.0]).unwrap();
    /// let y = t.sigmoid().to_vec().unwrap();
    /// let want: [f32; 2] = [0.5, 0.8807971];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn sigmoid(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().sigmoid()))
    }

    /// `ln(sigmoid(x))`, stable for either sign (see [`DynTensor::logsigmoid`](crate::DynTensor::logsigmoid)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, -100.0]).unwrap();
    /// let y = t.logsigmoid().to_vec().unwrap();
    /// let want: [f32; 2] = [-0.6931472, -100.0];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn logsigmoid(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().logsigmoid()))
    }

    /// `clamp(x / 6 + 1/2, 0, 1)` (see [`DynTensor::hardsigmoid`](crate::DynTensor::hardsigmoid)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 4.0]).unwrap();
    /// let y = t.hardsigmoid().to_vec().unwrap();
    /// let want: [f32; 2] = [0.5, 1.0];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn hardsigmoid(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().hardsigmoid()))
    }

    /// `x relu6(x + 3) / 6` (see [`DynTensor::hardswish`](crate::DynTensor::hardswish)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.hardswish().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 0.6666667];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn hardswish(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().hardswish()))
    }

    /// SELU with the paper's constants (see [`DynTensor::selu`](crate::DynTensor::selu)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1.0]).unwrap();
    /// let y = t.selu().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0, 1.050701];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn selu(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().selu()))
    }

    /// `x` for `x >= 0`, `negative_slope * x` below (see [`DynTensor::leaky_relu`](crate::DynTensor::leaky_relu)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, i32>::from_slice(&[-2, 3]).unwrap();
    /// let y = t.leaky_relu(0.5).to_vec().unwrap();
    /// let want: [f32; 2] = [-1.0f32, 3.0];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn leaky_relu(&self, negative_slope: f64) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().leaky_relu(negative_slope)))
    }

    /// ELU: `x` for `x > 0`, `alpha (e^x - 1)` below (see [`DynTensor::elu`](crate::DynTensor::elu)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[-100.0, 2.0]).unwrap();
    /// let y = t.elu(1.0).to_vec().unwrap();
    /// let want: [f32; 2] = [-1.0, 2.0];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn elu(&self, alpha: f64) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().elu(alpha)))
    }

    /// CELU: `x` for `x > 0`, `alpha (e^(x/alpha) - 1)` below (see [`DynTensor::celu`](crate::DynTensor::celu)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[-100.0, 2.0]).unwrap();
    /// let y = t.celu(2.0).to_vec().unwrap();
    /// let want: [f32; 2] = [-2.0, 2.0];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn celu(&self, alpha: f64) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().celu(alpha)))
    }

    /// `ln(1 + e^(beta x)) / beta`, stable for large |x| (see [`DynTensor::softplus`](crate::DynTensor::softplus)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 100.0]).unwrap();
    /// let y = t.softplus(1.0).to_vec().unwrap();
    /// let want: [f32; 2] = [0.6931472, 100.0];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn softplus(&self, beta: f64) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().softplus(beta)))
    }

    /// `clamp(x, min_val, max_val)` as a float function (see [`DynTensor::hardtanh`](crate::DynTensor::hardtanh)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-4.0, 0.5, 4.0]).unwrap();
    /// let y = t.hardtanh(-1.0, 1.0).to_vec().unwrap();
    /// let want: [f32; 3] = [-1.0, 0.5, 1.0];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn hardtanh(&self, min_val: f64, max_val: f64) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().hardtanh(min_val, max_val)))
    }

    /// The base-10 logarithm (see [`DynTensor::log10`](crate::DynTensor::log10)); integer and bool tensors give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, i32>::from_slice(&[1, 100]).unwrap();
    /// let y = t.log10().to_vec().unwrap();
    /// let want: [f32; 2] = [0.0f32, 2.0];
    /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
    /// ```
    pub fn log10(&self) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().log10()))
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// `|x|` in the tensor's dtype (see [`DynTensor::abs`](crate::DynTensor::abs)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-1.5, 2.0, 0.0]).unwrap();
    /// assert_eq!(t.abs().to_vec().unwrap(), vec![1.5, 2.0, 0.0]);
    /// ```
    pub fn abs(&self) -> Tensor<S, T>
    where
        T: Numeric,
    {
        Tensor::from_dyn(ok(self.as_dyn().abs()))
    }

    /// -1, 0 or 1 by the sign (NaN stays NaN) in the tensor's dtype (see [`DynTensor::sign`](crate::DynTensor::sign)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-1.5, 2.0, 0.0]).unwrap();
    /// assert_eq!(t.sign().to_vec().unwrap(), vec![-1.0, 1.0, 0.0]);
    /// ```
    pub fn sign(&self) -> Tensor<S, T>
    where
        T: Numeric,
    {
        Tensor::from_dyn(ok(self.as_dyn().sign()))
    }

    /// Rounding toward zero (integers unchanged) in the tensor's dtype (see [`DynTensor::trunc`](crate::DynTensor::trunc)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-1.5, 2.7, 0.2]).unwrap();
    /// assert_eq!(t.trunc().to_vec().unwrap(), vec![-1.0, 2.0, 0.0]);
    /// ```
    pub fn trunc(&self) -> Tensor<S, T>
    where
        T: Numeric,
    {
        Tensor::from_dyn(ok(self.as_dyn().trunc()))
    }

    /// Rounding toward negative infinity (integers unchanged) in the tensor's dtype (see [`DynTensor::floor`](crate::DynTensor::floor)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-1.5, 2.7, 0.2]).unwrap();
    /// assert_eq!(t.floor().to_vec().unwrap(), vec![-2.0, 2.0, 0.0]);
    /// ```
    pub fn floor(&self) -> Tensor<S, T>
    where
        T: Numeric,
    {
        Tensor::from_dyn(ok(self.as_dyn().floor()))
    }

    /// Rounding toward positive infinity (integers unchanged) in the tensor's dtype (see [`DynTensor::ceil`](crate::DynTensor::ceil)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-1.5, 2.7, 0.2]).unwrap();
    /// assert_eq!(t.ceil().to_vec().unwrap(), vec![-1.0, 3.0, 1.0]);
    /// ```
    pub fn ceil(&self) -> Tensor<S, T>
    where
        T: Numeric,
    {
        Tensor::from_dyn(ok(self.as_dyn().ceil()))
    }

    /// Rounding to nearest, ties to even (integers unchanged) in the tensor's dtype (see [`DynTensor::round`](crate::DynTensor::round)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[0.5, 1.5, 2.5]).unwrap();
    /// assert_eq!(t.round().to_vec().unwrap(), vec![0.0, 2.0, 2.0]);
    /// ```
    pub fn round(&self) -> Tensor<S, T>
    where
        T: Numeric,
    {
        Tensor::from_dyn(ok(self.as_dyn().round()))
    }

    /// `max(x, 0)` (NaN stays NaN) in the tensor's dtype (see [`DynTensor::relu`](crate::DynTensor::relu)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-1.5, 2.0, 0.0]).unwrap();
    /// assert_eq!(t.relu().to_vec().unwrap(), vec![0.0, 2.0, 0.0]);
    /// ```
    pub fn relu(&self) -> Tensor<S, T>
    where
        T: Numeric,
    {
        Tensor::from_dyn(ok(self.as_dyn().relu()))
    }

    /// `min(max(x, 0), 6)` in the tensor's dtype (see [`DynTensor::relu6`](crate::DynTensor::relu6)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-1.5, 2.0, 7.0]).unwrap();
    /// assert_eq!(t.relu6().to_vec().unwrap(), vec![0.0, 2.0, 6.0]);
    /// ```
    pub fn relu6(&self) -> Tensor<S, T>
    where
        T: Numeric,
    {
        Tensor::from_dyn(ok(self.as_dyn().relu6()))
    }

    /// `x * x` in the tensor's dtype (see [`DynTensor::square`](crate::DynTensor::square)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-1.5, 2.0, 0.0]).unwrap();
    /// assert_eq!(t.square().to_vec().unwrap(), vec![2.25, 4.0, 0.0]);
    /// ```
    pub fn square(&self) -> Tensor<S, T>
    where
        T: Numeric,
    {
        Tensor::from_dyn(ok(self.as_dyn().square()))
    }

    /// `-x` (integers wrap) in the tensor's dtype (see [`DynTensor::neg`](crate::DynTensor::neg)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[1.5, -2.0, 0.0]).unwrap();
    /// assert_eq!(t.neg().to_vec().unwrap(), vec![-1.5, 2.0, -0.0]);
    /// ```
    pub fn neg(&self) -> Tensor<S, T>
    where
        T: Numeric,
    {
        Tensor::from_dyn(ok(self.as_dyn().neg()))
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// True where NaN (never for integers and bool) (see [`DynTensor::isnan`](crate::DynTensor::isnan)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, f32::NAN]).unwrap();
    /// assert_eq!(t.isnan().to_vec().unwrap(), vec![false, true]);
    /// ```
    pub fn isnan(&self) -> Tensor<S, bool> {
        Tensor::from_dyn(ok(self.as_dyn().isnan()))
    }

    /// True where +inf (if `detect_positive`) or -inf (if `detect_negative`) (see [`DynTensor::isinf`](crate::DynTensor::isinf)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[f32::NEG_INFINITY, 0.0, f32::INFINITY]).unwrap();
    /// assert_eq!(t.isinf(true, false).to_vec().unwrap(), vec![false, false, true]);
    /// ```
    pub fn isinf(&self, detect_positive: bool, detect_negative: bool) -> Tensor<S, bool> {
        Tensor::from_dyn(ok(self.as_dyn().isinf(detect_positive, detect_negative)))
    }

    /// True where neither infinite nor NaN (see [`DynTensor::isfinite`](crate::DynTensor::isfinite)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[1.0, f32::NAN, f32::INFINITY]).unwrap();
    /// assert_eq!(t.isfinite().to_vec().unwrap(), vec![true, false, false]);
    /// ```
    pub fn isfinite(&self) -> Tensor<S, bool> {
        Tensor::from_dyn(ok(self.as_dyn().isfinite()))
    }

    /// `!bool(x)`: true where the element is zero (see [`DynTensor::logical_not`](crate::DynTensor::logical_not)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, i32>::from_slice(&[0, 7]).unwrap();
    /// assert_eq!(t.logical_not().to_vec().unwrap(), vec![true, false]);
    /// ```
    pub fn logical_not(&self) -> Tensor<S, bool> {
        Tensor::from_dyn(ok(self.as_dyn().logical_not()))
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// The sum (accumulated in a wide type: see `SumDtype`) of all elements, as a rank-0 tensor (see `DynTensor::sum`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.sum();
    /// assert_eq!(r.item().unwrap(), 21.0);
    /// ```
    pub fn sum(&self) -> Tensor<(), <T as SumDtype>::Output>
    where
        T: SumDtype,
    {
        Tensor::from_dyn(ok(self.as_dyn().sum(None, false)))
    }

    /// The sum (accumulated in a wide type: see `SumDtype`) over axis `A`, which is removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.sum_axis::<-1>();
    /// assert_eq!(r.dims(), vec![2]);
    /// ```
    pub fn sum_axis<const A: isize>(&self) -> Tensor<<S as RemoveAxis<A>>::Output, <T as SumDtype>::Output>
    where
        S: RemoveAxis<A>,
        T: SumDtype,
    {
        Tensor::from_dyn(ok(self.as_dyn().sum(Some(&[A]), false)))
    }

    /// The sum (accumulated in a wide type: see `SumDtype`) over axis `A`, which is kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.sum_keepdim::<0>();
    /// assert_eq!(r.dims(), vec![1, 3]);
    /// ```
    pub fn sum_keepdim<const A: isize>(&self) -> Tensor<<S as KeepAxis<A>>::Output, <T as SumDtype>::Output>
    where
        S: KeepAxis<A>,
        T: SumDtype,
    {
        Tensor::from_dyn(ok(self.as_dyn().sum(Some(&[A]), true)))
    }

    /// The sum (accumulated in a wide type: see `SumDtype`) over the two distinct axes `A` and `B`, which are removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.sum_axes::<0, -1>();
    /// assert_eq!(r.dims(), vec![3]);
    /// ```
    pub fn sum_axes<const A: isize, const B: isize>(&self) -> Tensor<<S as RemoveAxes2<A, B>>::Output, <T as SumDtype>::Output>
    where
        S: RemoveAxes2<A, B>,
        T: SumDtype,
    {
        Tensor::from_dyn(ok(self.as_dyn().sum(Some(&[A, B]), false)))
    }

    /// The sum (accumulated in a wide type: see `SumDtype`) over the two distinct axes `A` and `B`, which are kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.sum_axes_keepdim::<0, 1>();
    /// assert_eq!(r.dims(), vec![1, 1, 1]);
    /// ```
    pub fn sum_axes_keepdim<const A: isize, const B: isize>(&self) -> Tensor<Keep2<S, A, B>, <T as SumDtype>::Output>
    where
        S: RemoveAxes2<A, B> + KeepAxis<A>,
        <S as KeepAxis<A>>::Output: KeepAxis<B>,
        T: SumDtype,
    {
        Tensor::from_dyn(ok(self.as_dyn().sum(Some(&[A, B]), true)))
    }

    /// The product (integers wrap; bool gives `all`) of all elements, as a rank-0 tensor (see `DynTensor::prod`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.prod();
    /// assert_eq!(r.item().unwrap(), 720.0);
    /// ```
    pub fn prod(&self) -> Tensor<(), T>
    {
        Tensor::from_dyn(ok(self.as_dyn().prod(None, false)))
    }

    /// The product (integers wrap; bool gives `all`) over axis `A`, which is removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.prod_axis::<-1>();
    /// assert_eq!(r.dims(), vec![2]);
    /// ```
    pub fn prod_axis<const A: isize>(&self) -> Tensor<<S as RemoveAxis<A>>::Output, T>
    where
        S: RemoveAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().prod(Some(&[A]), false)))
    }

    /// The product (integers wrap; bool gives `all`) over axis `A`, which is kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.prod_keepdim::<0>();
    /// assert_eq!(r.dims(), vec![1, 3]);
    /// ```
    pub fn prod_keepdim<const A: isize>(&self) -> Tensor<<S as KeepAxis<A>>::Output, T>
    where
        S: KeepAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().prod(Some(&[A]), true)))
    }

    /// The product (integers wrap; bool gives `all`) over the two distinct axes `A` and `B`, which are removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.prod_axes::<0, -1>();
    /// assert_eq!(r.dims(), vec![3]);
    /// ```
    pub fn prod_axes<const A: isize, const B: isize>(&self) -> Tensor<<S as RemoveAxes2<A, B>>::Output, T>
    where
        S: RemoveAxes2<A, B>,
    {
        Tensor::from_dyn(ok(self.as_dyn().prod(Some(&[A, B]), false)))
    }

    /// The product (integers wrap; bool gives `all`) over the two distinct axes `A` and `B`, which are kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.prod_axes_keepdim::<0, 1>();
    /// assert_eq!(r.dims(), vec![1, 1, 1]);
    /// ```
    pub fn prod_axes_keepdim<const A: isize, const B: isize>(&self) -> Tensor<Keep2<S, A, B>, T>
    where
        S: RemoveAxes2<A, B> + KeepAxis<A>,
        <S as KeepAxis<A>>::Output: KeepAxis<B>,
    {
        Tensor::from_dyn(ok(self.as_dyn().prod(Some(&[A, B]), true)))
    }

    /// The maximum (NaN propagates) of all elements, as a rank-0 tensor (see `DynTensor::max`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.max();
    /// assert_eq!(r.item().unwrap(), 6.0);
    /// ```
    pub fn max(&self) -> Tensor<(), T>
    {
        Tensor::from_dyn(ok(self.as_dyn().max(None, false)))
    }

    /// The maximum (NaN propagates) over axis `A`, which is removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.max_axis::<-1>();
    /// assert_eq!(r.dims(), vec![2]);
    /// ```
    pub fn max_axis<const A: isize>(&self) -> Tensor<<S as RemoveAxis<A>>::Output, T>
    where
        S: RemoveAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().max(Some(&[A]), false)))
    }

    /// The maximum (NaN propagates) over axis `A`, which is kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.max_keepdim::<0>();
    /// assert_eq!(r.dims(), vec![1, 3]);
    /// ```
    pub fn max_keepdim<const A: isize>(&self) -> Tensor<<S as KeepAxis<A>>::Output, T>
    where
        S: KeepAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().max(Some(&[A]), true)))
    }

    /// The maximum (NaN propagates) over the two distinct axes `A` and `B`, which are removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.max_axes::<0, -1>();
    /// assert_eq!(r.dims(), vec![3]);
    /// ```
    pub fn max_axes<const A: isize, const B: isize>(&self) -> Tensor<<S as RemoveAxes2<A, B>>::Output, T>
    where
        S: RemoveAxes2<A, B>,
    {
        Tensor::from_dyn(ok(self.as_dyn().max(Some(&[A, B]), false)))
    }

    /// The maximum (NaN propagates) over the two distinct axes `A` and `B`, which are kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.max_axes_keepdim::<0, 1>();
    /// assert_eq!(r.dims(), vec![1, 1, 1]);
    /// ```
    pub fn max_axes_keepdim<const A: isize, const B: isize>(&self) -> Tensor<Keep2<S, A, B>, T>
    where
        S: RemoveAxes2<A, B> + KeepAxis<A>,
        <S as KeepAxis<A>>::Output: KeepAxis<B>,
    {
        Tensor::from_dyn(ok(self.as_dyn().max(Some(&[A, B]), true)))
    }

    /// The minimum (NaN propagates) of all elements, as a rank-0 tensor (see `DynTensor::min`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.min();
    /// assert_eq!(r.item().unwrap(), 1.0);
    /// ```
    pub fn min(&self) -> Tensor<(), T>
    {
        Tensor::from_dyn(ok(self.as_dyn().min(None, false)))
    }

    /// The minimum (NaN propagates) over axis `A`, which is removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.min_axis::<-1>();
    /// assert_eq!(r.dims(), vec![2]);
    /// ```
    pub fn min_axis<const A: isize>(&self) -> Tensor<<S as RemoveAxis<A>>::Output, T>
    where
        S: RemoveAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().min(Some(&[A]), false)))
    }

    /// The minimum (NaN propagates) over axis `A`, which is kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.min_keepdim::<0>();
    /// assert_eq!(r.dims(), vec![1, 3]);
    /// ```
    pub fn min_keepdim<const A: isize>(&self) -> Tensor<<S as KeepAxis<A>>::Output, T>
    where
        S: KeepAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().min(Some(&[A]), true)))
    }

    /// The minimum (NaN propagates) over the two distinct axes `A` and `B`, which are removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.min_axes::<0, -1>();
    /// assert_eq!(r.dims(), vec![3]);
    /// ```
    pub fn min_axes<const A: isize, const B: isize>(&self) -> Tensor<<S as RemoveAxes2<A, B>>::Output, T>
    where
        S: RemoveAxes2<A, B>,
    {
        Tensor::from_dyn(ok(self.as_dyn().min(Some(&[A, B]), false)))
    }

    /// The minimum (NaN propagates) over the two distinct axes `A` and `B`, which are kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.min_axes_keepdim::<0, 1>();
    /// assert_eq!(r.dims(), vec![1, 1, 1]);
    /// ```
    pub fn min_axes_keepdim<const A: isize, const B: isize>(&self) -> Tensor<Keep2<S, A, B>, T>
    where
        S: RemoveAxes2<A, B> + KeepAxis<A>,
        <S as KeepAxis<A>>::Output: KeepAxis<B>,
    {
        Tensor::from_dyn(ok(self.as_dyn().min(Some(&[A, B]), true)))
    }

    /// The mean (f32 for integers: see `MeanDtype`; NaN over nothing) of all elements, as a rank-0 tensor (see `DynTensor::mean`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.mean();
    /// assert_eq!(r.item().unwrap(), 3.5);
    /// ```
    pub fn mean(&self) -> Tensor<(), <T as MeanDtype>::Output>
    where
        T: MeanDtype,
    {
        Tensor::from_dyn(ok(self.as_dyn().mean(None, false)))
    }

    /// The mean (f32 for integers: see `MeanDtype`; NaN over nothing) over axis `A`, which is removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.mean_axis::<-1>();
    /// assert_eq!(r.dims(), vec![2]);
    /// ```
    pub fn mean_axis<const A: isize>(&self) -> Tensor<<S as RemoveAxis<A>>::Output, <T as MeanDtype>::Output>
    where
        S: RemoveAxis<A>,
        T: MeanDtype,
    {
        Tensor::from_dyn(ok(self.as_dyn().mean(Some(&[A]), false)))
    }

    /// The mean (f32 for integers: see `MeanDtype`; NaN over nothing) over axis `A`, which is kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.mean_keepdim::<0>();
    /// assert_eq!(r.dims(), vec![1, 3]);
    /// ```
    pub fn mean_keepdim<const A: isize>(&self) -> Tensor<<S as KeepAxis<A>>::Output, <T as MeanDtype>::Output>
    where
        S: KeepAxis<A>,
        T: MeanDtype,
    {
        Tensor::from_dyn(ok(self.as_dyn().mean(Some(&[A]), true)))
    }

    /// The mean (f32 for integers: see `MeanDtype`; NaN over nothing) over the two distinct axes `A` and `B`, which are removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.mean_axes::<0, -1>();
    /// assert_eq!(r.dims(), vec![3]);
    /// ```
    pub fn mean_axes<const A: isize, const B: isize>(&self) -> Tensor<<S as RemoveAxes2<A, B>>::Output, <T as MeanDtype>::Output>
    where
        S: RemoveAxes2<A, B>,
        T: MeanDtype,
    {
        Tensor::from_dyn(ok(self.as_dyn().mean(Some(&[A, B]), false)))
    }

    /// The mean (f32 for integers: see `MeanDtype`; NaN over nothing) over the two distinct axes `A` and `B`, which are kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.mean_axes_keepdim::<0, 1>();
    /// assert_eq!(r.dims(), vec![1, 1, 1]);
    /// ```
    pub fn mean_axes_keepdim<const A: isize, const B: isize>(&self) -> Tensor<Keep2<S, A, B>, <T as MeanDtype>::Output>
    where
        S: RemoveAxes2<A, B> + KeepAxis<A>,
        <S as KeepAxis<A>>::Output: KeepAxis<B>,
        T: MeanDtype,
    {
        Tensor::from_dyn(ok(self.as_dyn().mean(Some(&[A, B]), true)))
    }

    /// The logical or (nonzero elements are true) of all elements, as a rank-0 tensor (see `DynTensor::any`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.any();
    /// assert_eq!(r.item().unwrap(), true);
    /// ```
    pub fn any(&self) -> Tensor<(), bool>
    {
        Tensor::from_dyn(ok(self.as_dyn().any(None, false)))
    }

    /// The logical or (nonzero elements are true) over axis `A`, which is removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.any_axis::<-1>();
    /// assert_eq!(r.dims(), vec![2]);
    /// ```
    pub fn any_axis<const A: isize>(&self) -> Tensor<<S as RemoveAxis<A>>::Output, bool>
    where
        S: RemoveAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().any(Some(&[A]), false)))
    }

    /// The logical or (nonzero elements are true) over axis `A`, which is kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.any_keepdim::<0>();
    /// assert_eq!(r.dims(), vec![1, 3]);
    /// ```
    pub fn any_keepdim<const A: isize>(&self) -> Tensor<<S as KeepAxis<A>>::Output, bool>
    where
        S: KeepAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().any(Some(&[A]), true)))
    }

    /// The logical or (nonzero elements are true) over the two distinct axes `A` and `B`, which are removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.any_axes::<0, -1>();
    /// assert_eq!(r.dims(), vec![3]);
    /// ```
    pub fn any_axes<const A: isize, const B: isize>(&self) -> Tensor<<S as RemoveAxes2<A, B>>::Output, bool>
    where
        S: RemoveAxes2<A, B>,
    {
        Tensor::from_dyn(ok(self.as_dyn().any(Some(&[A, B]), false)))
    }

    /// The logical or (nonzero elements are true) over the two distinct axes `A` and `B`, which are kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.any_axes_keepdim::<0, 1>();
    /// assert_eq!(r.dims(), vec![1, 1, 1]);
    /// ```
    pub fn any_axes_keepdim<const A: isize, const B: isize>(&self) -> Tensor<Keep2<S, A, B>, bool>
    where
        S: RemoveAxes2<A, B> + KeepAxis<A>,
        <S as KeepAxis<A>>::Output: KeepAxis<B>,
    {
        Tensor::from_dyn(ok(self.as_dyn().any(Some(&[A, B]), true)))
    }

    /// The logical and (nonzero elements are true; true over nothing) of all elements, as a rank-0 tensor (see `DynTensor::all`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.all();
    /// assert_eq!(r.item().unwrap(), true);
    /// ```
    pub fn all(&self) -> Tensor<(), bool>
    {
        Tensor::from_dyn(ok(self.as_dyn().all(None, false)))
    }

    /// The logical and (nonzero elements are true; true over nothing) over axis `A`, which is removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.all_axis::<-1>();
    /// assert_eq!(r.dims(), vec![2]);
    /// ```
    pub fn all_axis<const A: isize>(&self) -> Tensor<<S as RemoveAxis<A>>::Output, bool>
    where
        S: RemoveAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().all(Some(&[A]), false)))
    }

    /// The logical and (nonzero elements are true; true over nothing) over axis `A`, which is kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.all_keepdim::<0>();
    /// assert_eq!(r.dims(), vec![1, 3]);
    /// ```
    pub fn all_keepdim<const A: isize>(&self) -> Tensor<<S as KeepAxis<A>>::Output, bool>
    where
        S: KeepAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().all(Some(&[A]), true)))
    }

    /// The logical and (nonzero elements are true; true over nothing) over the two distinct axes `A` and `B`, which are removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.all_axes::<0, -1>();
    /// assert_eq!(r.dims(), vec![3]);
    /// ```
    pub fn all_axes<const A: isize, const B: isize>(&self) -> Tensor<<S as RemoveAxes2<A, B>>::Output, bool>
    where
        S: RemoveAxes2<A, B>,
    {
        Tensor::from_dyn(ok(self.as_dyn().all(Some(&[A, B]), false)))
    }

    /// The logical and (nonzero elements are true; true over nothing) over the two distinct axes `A` and `B`, which are kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 1>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.all_axes_keepdim::<0, 1>();
    /// assert_eq!(r.dims(), vec![1, 1, 1]);
    /// ```
    pub fn all_axes_keepdim<const A: isize, const B: isize>(&self) -> Tensor<Keep2<S, A, B>, bool>
    where
        S: RemoveAxes2<A, B> + KeepAxis<A>,
        <S as KeepAxis<A>>::Output: KeepAxis<B>,
    {
        Tensor::from_dyn(ok(self.as_dyn().all(Some(&[A, B]), true)))
    }
}

impl<S: Shape, T: FloatOf> Tensor<S, T> {
    /// The variance (`correction` 1.0 is Bessel's) of all elements, rank 0 (see [`DynTensor::var`](crate::DynTensor::var)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 3.0, 2.0, 2.0]).unwrap();
    /// let r = t.var(1.0);
    /// assert!((r.item().unwrap() - 2.0 / 3.0).abs() < 1e-5);
    /// ```
    pub fn var(&self, correction: f64) -> Tensor<(), F<T>> {
        Tensor::from_dyn(ok(self.as_dyn().var(None, false, correction)))
    }

    /// The variance (`correction` 1.0 is Bessel's) over axis `A`, which is removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 3.0, 2.0, 2.0]).unwrap();
    /// let r: Tensor<Rank1<2>> = t.var_axis::<-1>(1.0);
    /// assert_eq!(r.to_vec().unwrap(), vec![2.0, 0.0]);
    /// ```
    pub fn var_axis<const A: isize>(&self, correction: f64) -> Tensor<<S as RemoveAxis<A>>::Output, F<T>>
    where
        S: RemoveAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().var(Some(&[A]), false, correction)))
    }

    /// The variance (`correction` 1.0 is Bessel's) over axis `A`, which is kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 3.0, 2.0, 2.0]).unwrap();
    /// let r: Tensor<Rank2<2, 1>> = t.var_keepdim::<1>(1.0);
    /// assert_eq!(r.to_vec().unwrap(), vec![2.0, 0.0]);
    /// ```
    pub fn var_keepdim<const A: isize>(&self, correction: f64) -> Tensor<<S as KeepAxis<A>>::Output, F<T>>
    where
        S: KeepAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().var(Some(&[A]), true, correction)))
    }

    /// The standard deviation (`correction` 1.0 is Bessel's) of all elements, rank 0 (see [`DynTensor::std`](crate::DynTensor::std)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 3.0, 2.0, 2.0]).unwrap();
    /// let r = t.std(1.0);
    /// assert!((r.item().unwrap() - (2.0f32 / 3.0).sqrt()).abs() < 1e-5);
    /// ```
    pub fn std(&self, correction: f64) -> Tensor<(), F<T>> {
        Tensor::from_dyn(ok(self.as_dyn().std(None, false, correction)))
    }

    /// The standard deviation (`correction` 1.0 is Bessel's) over axis `A`, which is removed.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 3.0, 2.0, 2.0]).unwrap();
    /// let r: Tensor<Rank1<2>> = t.std_axis::<-1>(1.0);
    /// assert_eq!(r.to_vec().unwrap(), vec![2.0f32.sqrt(), 0.0]);
    /// ```
    pub fn std_axis<const A: isize>(&self, correction: f64) -> Tensor<<S as RemoveAxis<A>>::Output, F<T>>
    where
        S: RemoveAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().std(Some(&[A]), false, correction)))
    }

    /// The standard deviation (`correction` 1.0 is Bessel's) over axis `A`, which is kept with size 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 3.0, 2.0, 2.0]).unwrap();
    /// let r: Tensor<Rank2<2, 1>> = t.std_keepdim::<1>(1.0);
    /// assert_eq!(r.to_vec().unwrap(), vec![2.0f32.sqrt(), 0.0]);
    /// ```
    pub fn std_keepdim<const A: isize>(&self, correction: f64) -> Tensor<<S as KeepAxis<A>>::Output, F<T>>
    where
        S: KeepAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().std(Some(&[A]), true, correction)))
    }
}
