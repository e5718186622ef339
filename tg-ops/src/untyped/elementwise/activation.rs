//! Activation functions, in their numerically stable forms.
//!
//! `relu` and `relu6` keep the tensor's dtype (they are exact on integers); the others are
//! float functions: integer and bool tensors give f32, f16 is computed in f32. Where a
//! textbook formula cancels or overflows (`1 + tanh`, `log(1 + e^x)`, `1 + erf`), the
//! composition avoids it, so the results keep their relative accuracy in the tails.

use std::f64::consts::{FRAC_1_SQRT_2, FRAC_2_SQRT_PI, SQRT_2};

use tg_runtime::{BinaryOp, Result};

use super::expr::V;
use super::{approx, float_unary};
use crate::untyped::DynTensor;

/// SELU's constants from the paper (tinygrad rounds them to 1.67326 and 1.0507).
const SELU_ALPHA: f64 = 1.673_263_242_354_377_3;
const SELU_SCALE: f64 = 1.050_700_987_355_480_5;

/// `lo` below `lo`, `hi` above `hi`, NaN kept.
fn clamp(x: &V, lo: f64, hi: f64) -> V {
    let x = x.lt_k(lo).select(&x.k(lo), x);
    x.gt_k(hi).select(&x.k(hi), &x)
}

/// `x` where `x > 0`, else `neg`.
fn positive_or(x: &V, neg: V) -> V {
    x.gt_k(0.0).select(x, &neg)
}

impl DynTensor {
    /// `max(x, 0)` in `x`'s dtype; NaN stays NaN (tinygrad's `(x > 0).where(x, 0)` gives 0).
    /// The gradient at 0 is 0, as tinygrad's: zero and NaN take the `x * 0` branch, which
    /// keeps their value and carries no gradient.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-1i32, 0, 5]).unwrap();
    /// assert_eq!(x.relu().unwrap().to_vec::<i32>().unwrap(), vec![0, 0, 5]);
    /// ```
    pub fn relu(&self) -> Result<DynTensor> {
        let x = V::of(self);
        let at_zero = x.bin(BinaryOp::Mul, &x.k(0));
        x.gt_k(0)
            .select(&x, &x.lt_k(0).select(&x.k(0), &at_zero))
            .done()
    }

    /// `min(max(x, 0), 6)` in `x`'s dtype.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-1.0f32, 3.0, 9.0]).unwrap();
    /// assert_eq!(x.relu6().unwrap().to_vec::<f32>().unwrap(), vec![0.0, 3.0, 6.0]);
    /// ```
    pub fn relu6(&self) -> Result<DynTensor> {
        let x = V::of(self);
        let x = x.lt_k(0).select(&x.k(0), &x);
        x.gt_k(6).select(&x.k(6), &x).done()
    }

    /// `x` for `x >= 0`, `negative_slope * x` below (torch's default slope is 0.01).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[-2.0f32, 3.0]).unwrap();
    /// assert_eq!(x.leaky_relu(0.5).unwrap().to_vec::<f32>().unwrap(), vec![-1.0, 3.0]);
    /// ```
    pub fn leaky_relu(&self, negative_slope: f64) -> Result<DynTensor> {
        float_unary(self, |x| x.lt_k(0.0).select(&(x * negative_slope), x))
    }

    /// ELU: `x` for `x > 0`, `alpha * (e^x - 1)` below, with expm1 (accurate near 0).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[-100.0f32, 2.0]).unwrap();
    /// assert_eq!(x.elu(1.0).unwrap().to_vec::<f32>().unwrap(), vec![-1.0, 2.0]);
    /// ```
    pub fn elu(&self, alpha: f64) -> Result<DynTensor> {
        float_unary(self, |x| positive_or(x, approx::expm1(x) * alpha))
    }

    /// CELU: `x` for `x > 0`, `alpha * (e^(x/alpha) - 1)` below.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[-100.0f32, 2.0]).unwrap();
    /// assert_eq!(x.celu(2.0).unwrap().to_vec::<f32>().unwrap(), vec![-2.0, 2.0]);
    /// ```
    pub fn celu(&self, alpha: f64) -> Result<DynTensor> {
        float_unary(self, |x| {
            positive_or(x, approx::expm1(&(x * (1.0 / alpha))) * alpha)
        })
    }

    /// SELU: `scale * elu(x, alpha)` with the paper's constants (alpha 1.6732632423543772,
    /// scale 1.0507009873554805, as torch; tinygrad rounds them to 1.67326 and 1.0507, a
    /// relative difference of up to 5e-6).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[0.0f32, 1.0]).unwrap();
    /// assert_eq!(x.selu().unwrap().to_vec::<f32>().unwrap(), vec![0.0, 1.0507009873554805]);
    /// ```
    pub fn selu(&self) -> Result<DynTensor> {
        float_unary(self, |x| {
            positive_or(x, approx::expm1(x) * SELU_ALPHA) * SELU_SCALE
        })
    }

    /// GELU with the tanh approximation (tinygrad's and candle's default; torch's
    /// `approximate="tanh"`): `x/2 (1 + tanh(sqrt(2/π) (x + 0.044715 x³)))`, computed as
    /// `x sigmoid(2 sqrt(2/π) (...))`, which is the same function without the cancellation of
    /// `1 + tanh` for negative x.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[0.0f32, 1.0]).unwrap();
    /// let y = x.gelu().unwrap().to_vec::<f32>().unwrap();
    /// assert!(y[0] == 0.0 && (y[1] - 0.8411920).abs() < 1e-6);
    /// ```
    pub fn gelu(&self) -> Result<DynTensor> {
        float_unary(self, |x| {
            // sqrt(2/π) = sqrt(2) (2/sqrt(π)) / 2
            let inner = (x + x * x * x * 0.044715) * (SQRT_2 * FRAC_2_SQRT_PI / 2.0);
            x * approx::sigmoid(&(inner * 2.0))
        })
    }

    /// GELU, exact form (torch's default): `x/2 (1 + erf(x / sqrt 2))`, computed as
    /// `x/2 erfc(-x / sqrt 2)` so the negative tail keeps its relative accuracy.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[0.0f32, 1.0]).unwrap();
    /// let y = x.gelu_erf().unwrap().to_vec::<f32>().unwrap();
    /// assert!(y[0] == 0.0 && (y[1] - 0.8413447).abs() < 1e-6);
    /// ```
    pub fn gelu_erf(&self) -> Result<DynTensor> {
        float_unary(self, |x| x * approx::erfc(&(x * -FRAC_1_SQRT_2)) * 0.5)
    }

    /// `x sigmoid(1.702 x)`, the sigmoid approximation of GELU.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[0.0f32, 1.0]).unwrap();
    /// let y = x.quick_gelu().unwrap().to_vec::<f32>().unwrap();
    /// assert!(y[0] == 0.0 && (y[1] - 0.8457957).abs() < 1e-6);
    /// ```
    pub fn quick_gelu(&self) -> Result<DynTensor> {
        float_unary(self, |x| x * approx::sigmoid(&(x * 1.702)))
    }

    /// SiLU (swish): `x sigmoid(x)`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[0.0f32, 1.0]).unwrap();
    /// let y = x.silu().unwrap().to_vec::<f32>().unwrap();
    /// assert!(y[0] == 0.0 && (y[1] - 0.7310586).abs() < 1e-6);
    /// ```
    pub fn silu(&self) -> Result<DynTensor> {
        float_unary(self, |x| x * approx::sigmoid(x))
    }

    /// Swish, tinygrad's composition of SiLU: `x * sigmoid(x)` with the product taken in the
    /// result's dtype (so f16 rounds the sigmoid before the product, where [`silu`]
    /// rounds once).
    ///
    /// [`silu`]: DynTensor::silu
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-1i32, 0, 2]).unwrap();
    /// let y = x.swish().unwrap().to_vec::<f32>().unwrap();
    /// assert!((y[0] + 0.26894143).abs() < 1e-6 && y[1] == 0.0 && (y[2] - 1.7615942).abs() < 1e-6);
    /// ```
    pub fn swish(&self) -> Result<DynTensor> {
        self.mul(&self.sigmoid()?)
    }

    /// Mish: `x tanh(softplus(x))`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[0.0f32, 1.0]).unwrap();
    /// let y = x.mish().unwrap().to_vec::<f32>().unwrap();
    /// assert!(y[0] == 0.0 && (y[1] - 0.8650984).abs() < 1e-6);
    /// ```
    pub fn mish(&self) -> Result<DynTensor> {
        float_unary(self, |x| x * approx::tanh(&approx::softplus(x)))
    }

    /// `ln(1 + e^(beta x)) / beta`, as `(max(bx, 0) + log1p(e^-|bx|)) / beta`: no overflow for
    /// large x and full relative accuracy for very negative x (torch switches to `x` above
    /// `beta x > 20`, a difference below 2e-9).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[0.0f32, 100.0, -100.0]).unwrap();
    /// let y = x.softplus(1.0).unwrap().to_vec::<f32>().unwrap();
    /// assert!((y[0] - 0.6931472).abs() < 1e-6 && y[1] == 100.0);
    /// assert!((y[2] / 3.7200760e-44 - 1.0).abs() < 0.1 || y[2] == 0.0);
    /// ```
    pub fn softplus(&self, beta: f64) -> Result<DynTensor> {
        float_unary(self, |x| {
            if beta == 1.0 {
                approx::softplus(x)
            } else {
                approx::softplus(&(x * beta)) * (1.0 / beta)
            }
        })
    }

    /// `x / (1 + |x|)`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[1.0f32, -3.0]).unwrap();
    /// assert_eq!(x.softsign().unwrap().to_vec::<f32>().unwrap(), vec![0.5, -0.75]);
    /// ```
    pub fn softsign(&self) -> Result<DynTensor> {
        float_unary(self, |x| x.div(&(x.abs() + 1.0)))
    }

    /// `1 / (1 + e^-x)`, stable for either sign (`e^x / (1 + e^x)` below 0).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[0.0f32, 100.0, -100.0]).unwrap();
    /// let y = x.sigmoid().unwrap().to_vec::<f32>().unwrap();
    /// assert!(y[0] == 0.5 && y[1] == 1.0 && y[2] < 1e-40);
    /// ```
    pub fn sigmoid(&self) -> Result<DynTensor> {
        float_unary(self, approx::sigmoid)
    }

    /// `ln(sigmoid(x)) = -softplus(-x)`, stable for either sign.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[0.0f32, -100.0]).unwrap();
    /// let y = x.logsigmoid().unwrap().to_vec::<f32>().unwrap();
    /// assert!((y[0] + 0.6931472).abs() < 1e-6 && y[1] == -100.0);
    /// ```
    pub fn logsigmoid(&self) -> Result<DynTensor> {
        float_unary(self, |x| -approx::softplus(&-x))
    }

    /// `clamp(x / 6 + 1/2, 0, 1)` (torch's and tinygrad's defaults).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-4.0f32, 0.0, 4.0]).unwrap();
    /// assert_eq!(x.hardsigmoid().unwrap().to_vec::<f32>().unwrap(), vec![0.0, 0.5, 1.0]);
    /// ```
    pub fn hardsigmoid(&self) -> Result<DynTensor> {
        float_unary(self, |x| clamp(&(x * (1.0 / 6.0) + 0.5), 0.0, 1.0))
    }

    /// `x relu6(x + 3) / 6`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-4.0f32, 0.0, 4.0]).unwrap();
    /// assert_eq!(x.hardswish().unwrap().to_vec::<f32>().unwrap(), vec![-0.0, 0.0, 4.0]);
    /// ```
    pub fn hardswish(&self) -> Result<DynTensor> {
        float_unary(self, |x| x * clamp(&(x + 3.0), 0.0, 6.0) * (1.0 / 6.0))
    }

    /// `clamp(x, min_val, max_val)` as a float function (torch's defaults are -1 and 1).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-4.0f32, 0.5, 4.0]).unwrap();
    /// assert_eq!(x.hardtanh(-1.0, 1.0).unwrap().to_vec::<f32>().unwrap(), vec![-1.0, 0.5, 1.0]);
    /// ```
    pub fn hardtanh(&self, min_val: f64, max_val: f64) -> Result<DynTensor> {
        float_unary(self, |x| clamp(x, min_val, max_val))
    }
}
