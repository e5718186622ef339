//! Typed unary ops: float math and activations (returning `FloatOf<T>`), ops that keep the
//! dtype, tests that return bool, and bitcast.

use super::{FloatOf, SameSize};
use crate::dtype::{Bitwise, Dtype, Numeric};
use crate::shape::Shape;
use crate::tensor::{Tensor, ok};

/// Float functions without parameters: `(name, what it computes, input, expected output)`.
macro_rules! float_unary {
    ($($name:ident: $what:literal, $input:literal => $output:literal;)*) => {
        impl<S: Shape, T: FloatOf> Tensor<S, T> {
            $(
                #[doc = concat!($what, " (see [`DynTensor::", stringify!($name),
                    "`](crate::DynTensor::", stringify!($name), ")); integer and bool tensors give f32.")]
                ///
                /// ```
                /// use tg_ops::prelude::*;
                #[doc = concat!("let t = Tensor::<Rank1<2>>::from_slice(&", $input, ").unwrap();")]
                #[doc = concat!("let y = t.", stringify!($name), "().to_vec().unwrap();")]
                #[doc = concat!("let want: [f32; 2] = ", $output, ";")]
                /// assert!(y.iter().zip(want).all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs().max(1.0)));
                /// ```
                pub fn $name(&self) -> Tensor<S, <T as FloatOf>::Output> {
                    Tensor::from_dyn(ok(self.as_dyn().$name()))
                }
            )*
        }
    };
}

float_unary! {
    exp: "`e^x`", "[0.0, 1.0]" => "[1.0, 2.7182817]";
    exp2: "`2^x`", "[0.0, 3.0]" => "[1.0, 8.0]";
    log: "The natural logarithm", "[1.0, 10.0]" => "[0.0, 2.3025851]";
    log2: "The base-2 logarithm", "[1.0, 0.25]" => "[0.0, -2.0]";
    sqrt: "The square root", "[4.0, 2.0]" => "[2.0, 1.4142135]";
    rsqrt: "`1 / sqrt(x)`", "[4.0, 0.25]" => "[0.5, 2.0]";
    reciprocal: "`1 / x`", "[4.0, -0.5]" => "[0.25, -2.0]";
    sin: "Sine", "[0.0, 1.0]" => "[0.0, 0.84147096]";
    cos: "Cosine", "[0.0, 1.0]" => "[1.0, 0.5403023]";
    tan: "Tangent", "[0.0, 1.0]" => "[0.0, 1.5574077]";
    asin: "Arcsine", "[0.0, 0.5]" => "[0.0, 0.5235988]";
    acos: "Arccosine", "[1.0, 0.5]" => "[0.0, 1.0471976]";
    atan: "Arctangent", "[0.0, 1.0]" => "[0.0, 0.7853982]";
    sinh: "Hyperbolic sine", "[0.0, 1.0]" => "[0.0, 1.1752012]";
    cosh: "Hyperbolic cosine", "[0.0, 1.0]" => "[1.0, 1.5430806]";
    tanh: "Hyperbolic tangent", "[0.0, 1.0]" => "[0.0, 0.7615942]";
    asinh: "Inverse hyperbolic sine", "[0.0, 1.0]" => "[0.0, 0.8813736]";
    acosh: "Inverse hyperbolic cosine", "[1.0, 2.0]" => "[0.0, 1.3169579]";
    atanh: "Inverse hyperbolic tangent", "[0.0, 0.5]" => "[0.0, 0.54930615]";
    erf: "The error function", "[0.0, 1.0]" => "[0.0, 0.8427008]";
    selu: "SELU with the paper's constants", "[0.0, 1.0]" => "[0.0, 1.050701]";
    gelu: "GELU, tanh approximation (tinygrad's and candle's default)", "[0.0, 1.0]" => "[0.0, 0.841192]";
    gelu_erf: "GELU, exact erf form (torch's default)", "[0.0, 1.0]" => "[0.0, 0.8413447]";
    quick_gelu: "`x sigmoid(1.702 x)`", "[0.0, 1.0]" => "[0.0, 0.8457957]";
    silu: "SiLU (swish), `x sigmoid(x)`", "[0.0, 1.0]" => "[0.0, 0.7310586]";
    mish: "Mish, `x tanh(softplus(x))`", "[0.0, 1.0]" => "[0.0, 0.8650984]";
    softsign: "`x / (1 + |x|)`", "[1.0, -3.0]" => "[0.5, -0.75]";
    sigmoid: "`1 / (1 + e^-x)`, stable for either sign", "[0.0, 2.0]" => "[0.5, 0.8807971]";
    logsigmoid: "`ln(sigmoid(x))`, stable for either sign", "[0.0, -100.0]" => "[-0.6931472, -100.0]";
    hardsigmoid: "`clamp(x / 6 + 1/2, 0, 1)`", "[0.0, 4.0]" => "[0.5, 1.0]";
    hardswish: "`x relu6(x + 3) / 6`", "[0.0, 1.0]" => "[0.0, 0.6666667]";
}

impl<S: Shape, T: FloatOf> Tensor<S, T> {
    /// `x` for `x >= 0`, `negative_slope * x` below (see [`DynTensor::leaky_relu`](crate::DynTensor::leaky_relu)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, i32>::from_slice(&[-2, 3]).unwrap();
    /// assert_eq!(t.leaky_relu(0.5).to_vec().unwrap(), vec![-1.0f32, 3.0]);
    /// ```
    pub fn leaky_relu(&self, negative_slope: f64) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().leaky_relu(negative_slope)))
    }

    /// ELU: `x` for `x > 0`, `alpha (e^x - 1)` below.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[-100.0, 2.0]).unwrap();
    /// assert_eq!(t.elu(1.0).to_vec().unwrap(), vec![-1.0, 2.0]);
    /// ```
    pub fn elu(&self, alpha: f64) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().elu(alpha)))
    }

    /// CELU: `x` for `x > 0`, `alpha (e^(x/alpha) - 1)` below.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[-100.0, 2.0]).unwrap();
    /// assert_eq!(t.celu(2.0).to_vec().unwrap(), vec![-2.0, 2.0]);
    /// ```
    pub fn celu(&self, alpha: f64) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().celu(alpha)))
    }

    /// `ln(1 + e^(beta x)) / beta`, stable for large |x|.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 100.0]).unwrap();
    /// let y = t.softplus(1.0).to_vec().unwrap();
    /// assert!((y[0] - 0.6931472).abs() < 1e-6 && y[1] == 100.0);
    /// ```
    pub fn softplus(&self, beta: f64) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().softplus(beta)))
    }

    /// `clamp(x, min_val, max_val)` as a float function.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-4.0, 0.5, 4.0]).unwrap();
    /// assert_eq!(t.hardtanh(-1.0, 1.0).to_vec().unwrap(), vec![-1.0, 0.5, 1.0]);
    /// ```
    pub fn hardtanh(&self, min_val: f64, max_val: f64) -> Tensor<S, <T as FloatOf>::Output> {
        Tensor::from_dyn(ok(self.as_dyn().hardtanh(min_val, max_val)))
    }
}

/// Ops that keep the dtype: `(name, what, input, output)` on i32 tensors.
macro_rules! same_dtype_unary {
    ($($name:ident: $what:literal, $input:literal => $output:literal;)*) => {
        // The bound is on each method, not the impl: `relu` on a bool tensor then fails with
        // `Numeric`'s message instead of "method exists but its trait bounds were not
        // satisfied".
        impl<S: Shape, T: Dtype> Tensor<S, T> {
            $(
                #[doc = concat!($what, " in the tensor's dtype (see [`DynTensor::", stringify!($name),
                    "`](crate::DynTensor::", stringify!($name), ")).")]
                ///
                /// ```
                /// use tg_ops::prelude::*;
                #[doc = concat!("let t = Tensor::<Rank1<3>>::from_slice(&", $input, ").unwrap();")]
                #[doc = concat!("assert_eq!(t.", stringify!($name), "().to_vec().unwrap(), vec!", $output, ");")]
                /// ```
                pub fn $name(&self) -> Tensor<S, T>
                where
                    T: Numeric,
                {
                    Tensor::from_dyn(ok(self.as_dyn().$name()))
                }
            )*
        }
    };
}

same_dtype_unary! {
    neg: "`-x` (integers wrap)", "[1.5, -2.0, 0.0]" => "[-1.5, 2.0, -0.0]";
    abs: "`|x|`", "[-1.5, 2.0, 0.0]" => "[1.5, 2.0, 0.0]";
    sign: "-1, 0 or 1 by the sign (NaN stays NaN)", "[-1.5, 2.0, 0.0]" => "[-1.0, 1.0, 0.0]";
    square: "`x * x`", "[-1.5, 2.0, 0.0]" => "[2.25, 4.0, 0.0]";
    trunc: "Rounding toward zero (integers unchanged)", "[-1.5, 2.7, 0.2]" => "[-1.0, 2.0, 0.0]";
    floor: "Rounding toward negative infinity (integers unchanged)", "[-1.5, 2.7, 0.2]" => "[-2.0, 2.0, 0.0]";
    ceil: "Rounding toward positive infinity (integers unchanged)", "[-1.5, 2.7, 0.2]" => "[-1.0, 3.0, 1.0]";
    round: "Rounding to nearest, ties to even (integers unchanged)", "[0.5, 1.5, 2.5]" => "[0.0, 2.0, 2.0]";
    relu: "`max(x, 0)` (NaN stays NaN)", "[-1.5, 2.0, 0.0]" => "[0.0, 2.0, 0.0]";
    relu6: "`min(max(x, 0), 6)`", "[-1.5, 2.0, 7.0]" => "[0.0, 2.0, 6.0]";
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// True where NaN (never for integers and bool).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, f32::NAN]).unwrap();
    /// assert_eq!(t.isnan().to_vec().unwrap(), vec![false, true]);
    /// ```
    pub fn isnan(&self) -> Tensor<S, bool> {
        Tensor::from_dyn(ok(self.as_dyn().isnan()))
    }

    /// True where +inf (if `detect_positive`) or -inf (if `detect_negative`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[f32::NEG_INFINITY, 0.0, f32::INFINITY]).unwrap();
    /// assert_eq!(t.isinf(true, false).to_vec().unwrap(), vec![false, false, true]);
    /// ```
    pub fn isinf(&self, detect_positive: bool, detect_negative: bool) -> Tensor<S, bool> {
        Tensor::from_dyn(ok(self.as_dyn().isinf(detect_positive, detect_negative)))
    }

    /// True where neither infinite nor NaN.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[1.0, f32::NAN, f32::INFINITY]).unwrap();
    /// assert_eq!(t.isfinite().to_vec().unwrap(), vec![true, false, false]);
    /// ```
    pub fn isfinite(&self) -> Tensor<S, bool> {
        Tensor::from_dyn(ok(self.as_dyn().isfinite()))
    }

    /// `!bool(x)`: true where the element is zero.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, i32>::from_slice(&[0, 7]).unwrap();
    /// assert_eq!(t.logical_not().to_vec().unwrap(), vec![true, false]);
    /// ```
    pub fn logical_not(&self) -> Tensor<S, bool> {
        Tensor::from_dyn(ok(self.as_dyn().logical_not()))
    }

    /// Reinterprets each element's bits as `U`, a type of the same size (checked by
    /// [`SameSize`]).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, -2.0]).unwrap();
    /// assert_eq!(t.bitcast::<u32>().to_vec().unwrap(), vec![0x3f80_0000, 0xc000_0000]);
    /// ```
    pub fn bitcast<U: Dtype>(&self) -> Tensor<S, U>
    where
        T: SameSize<U>,
    {
        Tensor::from_dyn(ok(self.as_dyn().bitcast(U::DTYPE)))
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// `~x`: every bit flipped (logical not for bool); the `!` operator.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, u8>::from_slice(&[0, 0b1010]).unwrap();
    /// assert_eq!(t.bitwise_not().to_vec().unwrap(), vec![255, 0b1111_0101]);
    /// ```
    pub fn bitwise_not(&self) -> Tensor<S, T>
    where
        T: Bitwise,
    {
        Tensor::from_dyn(ok(self.as_dyn().bitwise_not()))
    }
}
