//! Comparisons and the float classification tests (isnan, isinf, isfinite, isclose).

use tg_runtime::{DType, ReduceOp, Result};

use super::arith::Binary;
use super::compute_of;
use super::expr::V;
use super::operand::{Operand, meet, result_dtype};
use crate::untyped::DynTensor;

/// `lhs op rhs` for the comparisons, in the dtype the operands meet in; bool results.
pub(super) fn compare(op: Binary, lhs: &Operand, rhs: &Operand) -> Result<DynTensor> {
    let (a, b) = meet(op.name(), lhs, rhs, None)?;
    let (x, y) = (V::of(&a), V::of(&b));
    match op {
        Binary::Lt => x.lt(&y),
        Binary::Gt => x.gt(&y),
        Binary::Le => x.lt(&y).or(&x.eq(&y)),
        Binary::Ge => x.gt(&y).or(&x.eq(&y)),
        Binary::Eq => x.eq(&y),
        _ => x.ne(&y),
    }
    .done()
}

impl DynTensor {
    /// `self == rhs`, elementwise (false where either is NaN).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[1.0f32, 2.0, f32::NAN]).unwrap();
    /// assert_eq!(x.eq(2).unwrap().to_vec::<bool>().unwrap(), vec![false, true, false]);
    /// ```
    pub fn eq<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Eq, self, rhs)
    }

    /// `self != rhs`, elementwise (true where either is NaN).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[1i32, 2]).unwrap();
    /// assert_eq!(x.ne(2).unwrap().to_vec::<bool>().unwrap(), vec![true, false]);
    /// ```
    pub fn ne<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Ne, self, rhs)
    }

    /// `self < rhs`, elementwise.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-1i8, 0, 1]).unwrap();
    /// assert_eq!(x.lt(0).unwrap().to_vec::<bool>().unwrap(), vec![true, false, false]);
    /// ```
    pub fn lt<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Lt, self, rhs)
    }

    /// `self <= rhs`, elementwise; false where either is NaN (numpy's rule; tinygrad's
    /// `!(a > b)` gives true).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[0.0f32, 1.0, f32::NAN]).unwrap();
    /// assert_eq!(x.le(0.0).unwrap().to_vec::<bool>().unwrap(), vec![true, false, false]);
    /// ```
    pub fn le<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Le, self, rhs)
    }

    /// `self > rhs`, elementwise.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-1i8, 0, 1]).unwrap();
    /// assert_eq!(x.gt(0).unwrap().to_vec::<bool>().unwrap(), vec![false, false, true]);
    /// ```
    pub fn gt<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Gt, self, rhs)
    }

    /// `self >= rhs`, elementwise; false where either is NaN.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-1i8, 0, 1]).unwrap();
    /// assert_eq!(x.ge(0).unwrap().to_vec::<bool>().unwrap(), vec![false, true, true]);
    /// ```
    pub fn ge<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Ge, self, rhs)
    }

    /// True where the element is NaN (never for integers and bool).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[1.0f32, f32::NAN, f32::INFINITY]).unwrap();
    /// assert_eq!(x.isnan().unwrap().to_vec::<bool>().unwrap(), vec![false, true, false]);
    /// ```
    pub fn isnan(&self) -> Result<DynTensor> {
        if !self.dtype().is_float() {
            return DynTensor::full(self.shape(), false, DType::Bool);
        }
        let x = V::of(self);
        x.ne(&x).done()
    }

    /// True where the element is +inf (if `detect_positive`) or -inf (if `detect_negative`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[f32::NEG_INFINITY, 1.0, f32::INFINITY]).unwrap();
    /// assert_eq!(x.isinf(true, true).unwrap().to_vec::<bool>().unwrap(), vec![true, false, true]);
    /// assert_eq!(x.isinf(false, true).unwrap().to_vec::<bool>().unwrap(), vec![true, false, false]);
    /// ```
    pub fn isinf(&self, detect_positive: bool, detect_negative: bool) -> Result<DynTensor> {
        if !self.dtype().is_float() || !(detect_positive || detect_negative) {
            return DynTensor::full(self.shape(), false, DType::Bool);
        }
        let x = V::of(self);
        match (detect_positive, detect_negative) {
            (true, true) => x.abs().eq_k(f64::INFINITY),
            (true, false) => x.eq_k(f64::INFINITY),
            _ => x.eq_k(f64::NEG_INFINITY),
        }
        .done()
    }

    /// True where the element is neither infinite nor NaN (always for integers and bool).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[1.0f32, f32::NAN, f32::INFINITY]).unwrap();
    /// assert_eq!(x.isfinite().unwrap().to_vec::<bool>().unwrap(), vec![true, false, false]);
    /// ```
    pub fn isfinite(&self) -> Result<DynTensor> {
        if !self.dtype().is_float() {
            return DynTensor::full(self.shape(), true, DType::Bool);
        }
        V::of(self).abs().lt_k(f64::INFINITY).done()
    }

    /// True where `|self - other| <= atol + rtol * |other|` (both finite), where the two are
    /// equal (infinities of one sign), or, with `equal_nan`, where both are NaN: numpy's and
    /// tinygrad's `isclose`. Computed in f32 for f16, integers and bool.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[1.0f32, 1.1, f32::NAN]).unwrap();
    /// let y = DynTensor::from_slice(&[3], &[1.000001f32, 1.0, f32::NAN]).unwrap();
    /// assert_eq!(x.isclose(&y, 1e-5, 1e-8, false).unwrap().to_vec::<bool>().unwrap(), vec![true, false, false]);
    /// assert_eq!(x.isclose(&y, 1e-5, 1e-8, true).unwrap().to_vec::<bool>().unwrap(), vec![true, false, true]);
    /// ```
    pub fn isclose<'a>(
        &self,
        other: impl Into<Operand<'a>>,
        rtol: f64,
        atol: f64,
        equal_nan: bool,
    ) -> Result<DynTensor> {
        let (lhs, rhs) = (Operand::from(self), other.into());
        let dt = compute_of(result_dtype(&lhs, &rhs).float_of());
        let (a, b) = meet("isclose", &lhs, &rhs, Some(dt))?;
        let (x, y) = (V::of(&a), V::of(&b));
        let finite = |v: &V| v.abs().lt_k(f64::INFINITY);
        let diff = (&x - &y).abs();
        let tol = y.abs() * rtol + atol;
        let near = finite(&x)
            .and(&finite(&y))
            .and(&diff.lt(&tol).or(&diff.eq(&tol)));
        let mut close = x.eq(&y).or(&near);
        if equal_nan {
            close = close.or(&x.ne(&x).and(&y.ne(&y)));
        }
        close.done()
    }

    /// Whether every element `isclose`: a rank-0 bool tensor (true for empty tensors).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
    /// let all = x.allclose(&x.add(1e-9).unwrap(), 1e-5, 1e-8, false).unwrap();
    /// assert_eq!((all.shape(), all.to_vec::<bool>().unwrap()), (&[][..], vec![true]));
    /// ```
    pub fn allclose<'a>(
        &self,
        other: impl Into<Operand<'a>>,
        rtol: f64,
        atol: f64,
        equal_nan: bool,
    ) -> Result<DynTensor> {
        let close = self.isclose(other, rtol, atol, equal_nan)?;
        let axes: Vec<usize> = (0..close.ndim()).collect();
        let any_far = V::of(&close)
            .not()
            .done()?
            .lazy()
            .reduce(ReduceOp::Max, &axes)?;
        let all = DynTensor::wrap(any_far.reshape(&[])?);
        V::of(&all).not().done()
    }
}
