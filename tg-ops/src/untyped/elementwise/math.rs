//! Unary math: sign and magnitude, exponentials and logarithms, trigonometric and hyperbolic
//! functions, erf, rounding.
//!
//! Float functions of integer or bool tensors return f32; f16 is computed in f32 and rounded
//! once. Measured against numpy on lavapipe, every f32 function here is within 2 ulp (2.4e-7
//! relative; tested with 2.5e-7 to 5e-7, see scripts/gen_ops_elementwise.py), f16 within one
//! f16 ulp, f64 within 1e-15 relative (1e-14 for exp, sinh, cosh, erf).

use tg_runtime::{Result, UnaryOp};

use super::expr::V;
use super::{approx, float_unary};
use crate::untyped::DynTensor;

macro_rules! float_fn {
    ($(#[$doc:meta])* $name:ident => $f:expr) => {
        $(#[$doc])*
        pub fn $name(&self) -> Result<DynTensor> {
            float_unary(self, $f)
        }
    };
}

impl DynTensor {
    /// `-x`; wraps for integers (`-(-128i8) == -128`, `-1u8 == 255`), logical not for bool
    /// (tinygrad's rule).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[1.5f32, -2.0]).unwrap();
    /// assert_eq!(x.neg().unwrap().to_vec::<f32>().unwrap(), vec![-1.5, 2.0]);
    /// ```
    pub fn neg(&self) -> Result<DynTensor> {
        (-V::of(self)).done()
    }

    /// `|x|`; wraps for the most negative integer, as numpy does; bool and unsigned unchanged.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-3i32, 0, 4]).unwrap();
    /// assert_eq!(x.abs().unwrap().to_vec::<i32>().unwrap(), vec![3, 0, 4]);
    /// ```
    pub fn abs(&self) -> Result<DynTensor> {
        if self.dtype().is_bool() || self.dtype().is_unsigned() {
            return Ok(self.clone());
        }
        V::of(self).abs().done()
    }

    /// -1, 0 or 1 by the sign of `x`, in its dtype; NaN gives NaN (numpy; tinygrad gives 1) and
    /// ±0 gives 0. Bool is unchanged.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-2.5f32, 0.0, 7.0]).unwrap();
    /// assert_eq!(x.sign().unwrap().to_vec::<f32>().unwrap(), vec![-1.0, 0.0, 1.0]);
    /// ```
    pub fn sign(&self) -> Result<DynTensor> {
        if self.dtype().is_bool() {
            return Ok(self.clone());
        }
        let x = V::of(self);
        let nonzero = x
            .ne_k(0)
            .select(&x.lt_k(0).select(&x.k(-1), &x.k(1)), &x.k(0));
        if self.dtype().is_float() {
            x.ne(&x).select(&x, &nonzero)
        } else {
            nonzero
        }
        .done()
    }

    /// `x * x` in `x`'s dtype (integers wrap).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[-3i32, 4]).unwrap();
    /// assert_eq!(x.square().unwrap().to_vec::<i32>().unwrap(), vec![9, 16]);
    /// ```
    pub fn square(&self) -> Result<DynTensor> {
        let x = V::of(self);
        (&x * &x).done()
    }

    float_fn! {
        /// `1 / x` (correctly rounded on f32; ±0 gives ±inf).
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[4.0f32, -0.5]).unwrap();
        /// assert_eq!(x.reciprocal().unwrap().to_vec::<f32>().unwrap(), vec![0.25, -2.0]);
        /// ```
        reciprocal => |x| x.recip()
    }

    float_fn! {
        /// `sqrt(x)`, correctly rounded; NaN below 0.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[4.0f32, 2.25]).unwrap();
        /// assert_eq!(x.sqrt().unwrap().to_vec::<f32>().unwrap(), vec![2.0, 1.5]);
        /// ```
        sqrt => |x| x.sqrt()
    }

    float_fn! {
        /// `1 / sqrt(x)`.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[4.0f32, 0.25]).unwrap();
        /// assert_eq!(x.rsqrt().unwrap().to_vec::<f32>().unwrap(), vec![0.5, 2.0]);
        /// ```
        rsqrt => |x| x.sqrt().recip()
    }

    float_fn! {
        /// `e^x`, with the argument reduced exactly (within 3 ulp on f32 for normal results;
        /// results below the smallest normal flush to 0).
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[0.0f32, 1.0]).unwrap();
        /// let y = x.exp().unwrap().to_vec::<f32>().unwrap();
        /// assert_eq!(y[0], 1.0);
        /// assert!((y[1] - std::f32::consts::E).abs() < 1e-6);
        /// ```
        exp => approx::exp
    }

    float_fn! {
        /// `2^x` (the primitive).
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[3], &[0i32, 3, -1]).unwrap();
        /// assert_eq!(x.exp2().unwrap().to_vec::<f32>().unwrap(), vec![1.0, 8.0, 0.5]);
        /// ```
        exp2 => |x| x.exp2()
    }

    float_fn! {
        /// Natural logarithm; -inf at 0, NaN below. Accurate near 1 (where `log2(x) * ln 2`
        /// with the device's log2 is not).
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[1.0f32, std::f32::consts::E]).unwrap();
        /// let y = x.log().unwrap().to_vec::<f32>().unwrap();
        /// assert_eq!(y[0], 0.0);
        /// assert!((y[1] - 1.0).abs() < 1e-6);
        /// ```
        log => approx::ln
    }

    float_fn! {
        /// Base-2 logarithm, accurate near 1.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[3], &[1.0f32, 8.0, 0.25]).unwrap();
        /// assert_eq!(x.log2().unwrap().to_vec::<f32>().unwrap(), vec![0.0, 3.0, -2.0]);
        /// ```
        log2 => approx::log2
    }

    float_fn! {
        /// Sine (the primitive); NaN at ±inf.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[0.0f32, std::f32::consts::FRAC_PI_2]).unwrap();
        /// assert_eq!(x.sin().unwrap().to_vec::<f32>().unwrap(), vec![0.0, 1.0]);
        /// ```
        sin => |x| x.sin()
    }

    float_fn! {
        /// Cosine, with the argument reduced modulo π/2 in extended precision (accurate to
        /// |x| of about 10^4 in f32); tinygrad's `sin(π/2 - x)` loses the digits near cos's
        /// zeros.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[0.0f32, std::f32::consts::PI]).unwrap();
        /// assert_eq!(x.cos().unwrap().to_vec::<f32>().unwrap(), vec![1.0, -1.0]);
        /// ```
        cos => approx::cos
    }

    float_fn! {
        /// Tangent, from the reduced argument (`sin r / cos r` or `-cos r / sin r`).
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[0.0f32, std::f32::consts::FRAC_PI_4]).unwrap();
        /// let y = x.tan().unwrap().to_vec::<f32>().unwrap();
        /// assert!(y[0] == 0.0 && (y[1] - 1.0).abs() < 1e-6);
        /// ```
        tan => approx::tan
    }

    float_fn! {
        /// Arcsine; NaN outside [-1, 1].
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[0.0f32, 1.0]).unwrap();
        /// let y = x.asin().unwrap().to_vec::<f32>().unwrap();
        /// assert!(y[0] == 0.0 && (y[1] - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        /// ```
        asin => approx::asin
    }

    float_fn! {
        /// Arccosine; NaN outside [-1, 1].
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[1.0f32, -1.0]).unwrap();
        /// let y = x.acos().unwrap().to_vec::<f32>().unwrap();
        /// assert!(y[0] == 0.0 && (y[1] - std::f32::consts::PI).abs() < 1e-6);
        /// ```
        acos => approx::acos
    }

    float_fn! {
        /// Arctangent; ±π/2 at ±inf.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[1.0f32, f32::INFINITY]).unwrap();
        /// let y = x.atan().unwrap().to_vec::<f32>().unwrap();
        /// assert!((y[0] - std::f32::consts::FRAC_PI_4).abs() < 1e-6);
        /// assert!((y[1] - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        /// ```
        atan => approx::atan
    }

    float_fn! {
        /// Hyperbolic sine, accurate near 0 (from expm1) and finite up to where it overflows.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[0.0f32, 1.0]).unwrap();
        /// let y = x.sinh().unwrap().to_vec::<f32>().unwrap();
        /// assert!(y[0] == 0.0 && (y[1] - 1.1752012).abs() < 1e-6);
        /// ```
        sinh => approx::sinh
    }

    float_fn! {
        /// Hyperbolic cosine.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[0.0f32, 1.0]).unwrap();
        /// let y = x.cosh().unwrap().to_vec::<f32>().unwrap();
        /// assert!(y[0] == 1.0 && (y[1] - 1.5430806).abs() < 1e-6);
        /// ```
        cosh => approx::cosh
    }

    float_fn! {
        /// Hyperbolic tangent, from expm1: accurate near 0, exactly ±1 for large |x|.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[3], &[0.0f32, 100.0, -100.0]).unwrap();
        /// assert_eq!(x.tanh().unwrap().to_vec::<f32>().unwrap(), vec![0.0, 1.0, -1.0]);
        /// ```
        tanh => approx::tanh
    }

    float_fn! {
        /// Inverse hyperbolic sine.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[0.0f32, 1.0]).unwrap();
        /// let y = x.asinh().unwrap().to_vec::<f32>().unwrap();
        /// assert!(y[0] == 0.0 && (y[1] - 0.8813736).abs() < 1e-6);
        /// ```
        asinh => approx::asinh
    }

    float_fn! {
        /// Inverse hyperbolic cosine; NaN below 1.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
        /// let y = x.acosh().unwrap().to_vec::<f32>().unwrap();
        /// assert!(y[0] == 0.0 && (y[1] - 1.3169579).abs() < 1e-6);
        /// ```
        acosh => approx::acosh
    }

    float_fn! {
        /// Inverse hyperbolic tangent; ±inf at ±1, NaN beyond.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[2], &[0.0f32, 0.5]).unwrap();
        /// let y = x.atanh().unwrap().to_vec::<f32>().unwrap();
        /// assert!(y[0] == 0.0 && (y[1] - 0.54930615).abs() < 1e-6);
        /// ```
        atanh => approx::atanh
    }

    float_fn! {
        /// The error function: Taylor series below 1/2, `1 - erfc` above with a fitted erfc
        /// (relative error of erfc under 3e-7 in f32, 2e-15 in f64; scripts/
        /// fit_elementwise_polys.py). tinygrad's Abramowitz-Stegun 7.1.26 has 1.5e-7
        /// absolute error, which is large relative error near 0.
        ///
        /// ```
        /// use tg_ops::prelude::*;
        /// let x = DynTensor::from_slice(&[3], &[0.0f32, 1.0, -10.0]).unwrap();
        /// let y = x.erf().unwrap().to_vec::<f32>().unwrap();
        /// assert!(y[0] == 0.0 && (y[1] - 0.8427008).abs() < 1e-6 && y[2] == -1.0);
        /// ```
        erf => approx::erf
    }

    /// Rounds toward zero; integers and bool unchanged.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-2.5f32, 1.7, 3.0]).unwrap();
    /// assert_eq!(x.trunc().unwrap().to_vec::<f32>().unwrap(), vec![-2.0, 1.0, 3.0]);
    /// ```
    pub fn trunc(&self) -> Result<DynTensor> {
        self.rounding(|x| x.un(UnaryOp::Trunc))
    }

    /// Rounds toward negative infinity; integers and bool unchanged.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-2.5f32, 1.7, 3.0]).unwrap();
    /// assert_eq!(x.floor().unwrap().to_vec::<f32>().unwrap(), vec![-3.0, 1.0, 3.0]);
    /// ```
    pub fn floor(&self) -> Result<DynTensor> {
        self.rounding(|x| x.floor())
    }

    /// Rounds toward positive infinity; integers and bool unchanged.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-2.5f32, 1.2, 3.0]).unwrap();
    /// assert_eq!(x.ceil().unwrap().to_vec::<f32>().unwrap(), vec![-2.0, 2.0, 3.0]);
    /// ```
    pub fn ceil(&self) -> Result<DynTensor> {
        self.rounding(|x| x.ceil())
    }

    /// Rounds to the nearest integer, ties to even (numpy's and tinygrad's `round`); exact:
    /// built from `trunc` and the exact fraction `x - trunc(x)`, never from `x + 0.5`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[5], &[0.5f32, 1.5, 2.5, -0.5, 0.49999997]).unwrap();
    /// assert_eq!(x.round().unwrap().to_vec::<f32>().unwrap(), vec![0.0, 2.0, 2.0, -0.0, 0.0]);
    /// ```
    pub fn round(&self) -> Result<DynTensor> {
        self.rounding(|x| {
            let t = x.trunc();
            let frac = x - &t;
            let half_t = &t * 0.5;
            let odd = half_t.ne(&half_t.trunc());
            let a = frac.abs();
            let up = a.gt_k(0.5).or(&a.eq_k(0.5).and(&odd));
            up.select(&frac.gt_k(0.0).select(&(&t + 1.0), &(&t - 1.0)), &t)
        })
    }

    /// A rounding op on floats, the identity on integers and bool.
    fn rounding(&self, f: impl FnOnce(&V) -> V) -> Result<DynTensor> {
        if !self.dtype().is_float() {
            return Ok(self.clone());
        }
        f(&V::of(self)).done()
    }
}
