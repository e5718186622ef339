//! Float math of tinygrad's elementwise mixin that training code needs: `log10`, C's `fmod`,
//! `copysign` and `logaddexp`. Each is composed of the same primitives and accurate building
//! blocks (`approx`, the float remainder of `arith`) as the older ops, so that knowledge of
//! how to get the digits right lives once.

use std::f64::consts::{LN_2, LOG10_2};

use tg_runtime::{BinaryOp, DType, Result};

use super::arith::{Binary, float_divmod};
use super::expr::V;
use super::operand::{Operand, meet, result_dtype};
use super::{approx, compute_of, dtype_error, float_unary};
use crate::untyped::DynTensor;

/// The signed integer type of `dt`'s size, for reading a float's sign bit through a bitcast.
fn sign_carrier(dt: DType) -> DType {
    if dt == DType::F64 {
        DType::I64
    } else {
        DType::I32
    }
}

/// True where the sign bit of `x` (an f32 or f64 tensor) is set: negative numbers, -0.0 and
/// NaNs with the sign bit, as C's `signbit`. A comparison `x < 0` misses -0.0 and every NaN.
fn signbit(x: &DynTensor) -> Result<V> {
    Ok(V::of(&x.bitcast(sign_carrier(x.dtype()))?).lt_k(0))
}

/// Refuses bool for the number-only ops here, as `sub` does.
fn numbers_only(op: &'static str, dt: DType) -> Result<()> {
    if dt.is_bool() {
        return Err(dtype_error(
            op,
            dt,
            "not defined on bool; cast to a number type first",
        ));
    }
    Ok(())
}

impl DynTensor {
    /// Base-10 logarithm, `log2(x) * log10(2)` with `log2` accurate near 1: -inf at 0, NaN
    /// below. Within 3 ulp on f32 (exact powers of ten may be one ulp off, as `log2` of them
    /// is not exact); integers and bool give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[1.0f32, 10.0, 0.01]).unwrap();
    /// let y = x.log10().unwrap().to_vec::<f32>().unwrap();
    /// assert!(y[0] == 0.0 && (y[1] - 1.0).abs() < 3e-7 && (y[2] + 2.0).abs() < 5e-7);
    /// ```
    pub fn log10(&self) -> Result<DynTensor> {
        float_unary(self, |x| approx::log2(x) * LOG10_2)
    }

    /// C's `fmod`: the remainder of division truncated toward zero, with the dividend's sign
    /// (numpy's `fmod`, torch's `fmod`); `%`/[`DynTensor::modulo`] is the floor remainder with
    /// the divisor's sign instead. The two operands broadcast and meet in one dtype as
    /// `modulo`'s do.
    ///
    /// Integers: the runtime's truncated remainder, `x fmod 0 == 0` (tg's integer rule, numpy's
    /// result too) and `MIN fmod -1 == 0`. Floats: exact while `|a / b| < 2^24` in f32 (2^53
    /// in f64), as `modulo`; `x fmod 0`, `±inf fmod y` and NaN give NaN, `x fmod ±inf` gives
    /// `x`, and a zero remainder keeps the dividend's sign (`-6 fmod 3 == -0.0`). Not defined
    /// on bool.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[4], &[7.0f32, -7.0, 7.0, 5.5]).unwrap();
    /// let y = DynTensor::from_slice(&[4], &[3.0f32, 3.0, -3.0, 2.0]).unwrap();
    /// assert_eq!(x.fmod(&y).unwrap().to_vec::<f32>().unwrap(), vec![1.0, -1.0, 1.0, 1.5]);
    /// let i = DynTensor::from_slice(&[3], &[-7i32, 7, 5]).unwrap();
    /// assert_eq!(i.fmod(3).unwrap().to_vec::<i32>().unwrap(), vec![-1, 1, 2]);
    /// ```
    pub fn fmod<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        let (a, b) = meet("fmod", &Operand::from(self), &rhs.into(), None)?;
        let dt = a.dtype();
        numbers_only("fmod", dt)?;
        if !dt.is_float() {
            return V::of(&a).bin(BinaryOp::Mod, &V::of(&b)).done();
        }
        let a = a.cast(compute_of(dt));
        let x = V::of(&a);
        let (_, r) = float_divmod(Binary::Idiv, &x, &V::of(&b.cast(compute_of(dt))));
        // a - q b of equal values is +0 whatever a's sign; C gives the dividend's zero
        let zero = signbit(&a)?.select(&-x.k(0.0), &x.k(0.0));
        r.eq_k(0.0).select(&zero, &r).cast(dt).done()
    }

    /// `|self|` with the sign of `rhs`, elementwise; the operands broadcast and meet in one
    /// dtype as `add`'s do (tinygrad keeps the broadcast dtype; numpy and torch return floats
    /// for integers). For floats the sign *bit* decides, as C's `copysign`: `-0.0` and a NaN
    /// with its sign bit set count as negative, and `copysign(x, -0.0)` is `-|x|`. Signed
    /// integers take `rhs < 0` (and `|MIN|` wraps to `MIN`, as `abs`); unsigned integers are
    /// never negative, so they keep `|self|`. Not defined on bool.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[4], &[1.5f32, -2.0, 3.0, 0.0]).unwrap();
    /// let y = DynTensor::from_slice(&[4], &[-1.0f32, 5.0, -0.0, -7.0]).unwrap();
    /// let z = x.copysign(&y).unwrap().to_vec::<f32>().unwrap();
    /// assert_eq!(z, vec![-1.5, 2.0, -3.0, -0.0]);
    /// assert!(z[3].is_sign_negative());
    /// ```
    pub fn copysign<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        let (a, b) = meet("copysign", &Operand::from(self), &rhs.into(), None)?;
        let dt = a.dtype();
        numbers_only("copysign", dt)?;
        if dt.is_unsigned() {
            return Ok(a);
        }
        if !dt.is_float() {
            let x = V::of(&a);
            let magnitude = x.abs();
            return V::of(&b).lt_k(0).select(&-&magnitude, &magnitude).done();
        }
        let c = compute_of(dt);
        let (a, b) = (a.cast(c), b.cast(c));
        let x = V::of(&a);
        let magnitude = signbit(&a)?.select(&-&x, &x);
        signbit(&b)?
            .select(&-&magnitude, &magnitude)
            .cast(dt)
            .done()
    }

    /// `ln(e^self + e^rhs)` without overflow or cancellation: `max + log1p(e^-|a - b|)`, and
    /// `a + ln 2` where the two are equal (so two equal infinities give that infinity, not
    /// `inf - inf`). numpy's special values: `logaddexp(inf, -inf) == inf`,
    /// `logaddexp(-inf, -inf) == -inf`, NaN propagates. Float math: the operands meet in the
    /// float dtype of their least upper dtype (integers and bool give f32, f16 is computed in
    /// f32 and rounded once).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[0.0f32, 1000.0, f32::NEG_INFINITY]).unwrap();
    /// let y = x.logaddexp(0.0).unwrap().to_vec::<f32>().unwrap();
    /// assert!((y[0] - std::f32::consts::LN_2).abs() < 1e-7);
    /// assert_eq!(&y[1..], &[1000.0, 0.0]);
    /// ```
    pub fn logaddexp<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        let (lhs, rhs) = (Operand::from(self), rhs.into());
        let out = result_dtype(&lhs, &rhs).float_of();
        let (a, b) = meet("logaddexp", &lhs, &rhs, Some(compute_of(out)))?;
        let (x, y) = (V::of(&a), V::of(&b));
        let near = approx::log1p(&approx::exp(&-(&x - &y).abs()));
        let general = x.max(&y) + near;
        x.eq(&y).select(&(&x + LN_2), &general).cast(out).done()
    }
}
