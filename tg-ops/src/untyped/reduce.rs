//! Reductions: sum, prod, max, min, mean, any, all over a set of axes (all with `None`),
//! keeping the reduced axes as size 1 with `keepdim`.
//!
//! Composed of the runtime's REDUCE over ADD, MUL and MAX as tinygrad composes them: sums
//! accumulate in a wide type, min is max of the order-reversed values, all is not-any-not.
//! Reducing an empty axis gives the identity: 0 for sum, 1 for prod, -inf (floats) or the
//! dtype's minimum (ints) for max, +inf or the maximum for min, NaN for mean.

use super::DynTensor;
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, Result, UnaryOp};

/// One primitive reduction of `x` over `axes`, then dropping them unless `keepdim`.
fn reduce_with(x: &Lazy, op: ReduceOp, axes: &[usize], keepdim: bool) -> Result<Lazy> {
    let r = x.reduce(op, axes)?;
    if keepdim {
        return Ok(r);
    }
    let dims: Vec<usize> = r
        .shape()
        .iter()
        .enumerate()
        .filter(|(i, _)| !axes.contains(i))
        .map(|(_, &d)| d)
        .collect();
    r.reshape(&dims)
}

impl DynTensor {
    /// The normalized, distinct axes a reduction covers (`None`: all); tg-core's rule.
    fn reduce_axes(&self, op: &'static str, axes: Option<&[isize]>) -> Result<Vec<usize>> {
        Ok(tg_core::shape::reduce::reduce_axes(op, self.shape(), axes)?)
    }

    /// The sum over `axes` (all with `None`), accumulated in [`DType::sum_acc_dtype`] and returned in
    /// it (f16 sums are accumulated in f32 and returned as f16): integer sums do not
    /// overflow as soon as numpy's would for narrow types.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[100u8, 200, 50, 60]).unwrap();
    /// let s = t.sum(Some(&[0]), false).unwrap();
    /// assert_eq!(s.dtype(), DType::U32);
    /// assert_eq!(s.to_vec::<u32>().unwrap(), vec![150, 260]);
    /// ```
    pub fn sum(&self, axes: Option<&[isize]>, keepdim: bool) -> Result<DynTensor> {
        let out = self.sum_as(axes, keepdim, self.dtype().sum_acc_dtype())?;
        Ok(if self.dtype() == DType::F16 {
            out.cast(DType::F16)
        } else {
            out
        })
    }

    /// The sum accumulated and returned in `dtype` (tinygrad's `sum(dtype=...)`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3], &[100i8, 100, 100]).unwrap();
    /// assert_eq!(t.sum_as(None, false, DType::I8).unwrap().to_vec::<i8>().unwrap(), vec![44]);
    /// ```
    pub fn sum_as(&self, axes: Option<&[isize]>, keepdim: bool, dtype: DType) -> Result<DynTensor> {
        let axes = self.reduce_axes("sum", axes)?;
        Ok(DynTensor::wrap(reduce_with(
            &self.lazy.cast(dtype),
            ReduceOp::Add,
            &axes,
            keepdim,
        )?))
    }

    /// The dtype sums of this tensor accumulate in.
    pub fn sum_acc_dtype(&self) -> DType {
        self.dtype().sum_acc_dtype()
    }

    /// The product over `axes`, in the tensor's dtype (integers wrap); for bool it is `all`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 3], &[-1i32, -2, -3, 1, 2, 3]).unwrap();
    /// assert_eq!(t.prod(Some(&[1]), false).unwrap().to_vec::<i32>().unwrap(), vec![-6, 6]);
    /// ```
    pub fn prod(&self, axes: Option<&[isize]>, keepdim: bool) -> Result<DynTensor> {
        if self.dtype().is_bool() {
            return self.all(axes, keepdim);
        }
        let axes = self.reduce_axes("prod", axes)?;
        Ok(DynTensor::wrap(reduce_with(
            &self.lazy,
            ReduceOp::Mul,
            &axes,
            keepdim,
        )?))
    }

    /// The maximum over `axes`; NaN propagates (as numpy's `max`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 3], &[1.0f32, 0.0, 2.0, 5.0, 4.0, 3.0]).unwrap();
    /// assert_eq!(t.max(Some(&[-1]), true).unwrap().to_vec::<f32>().unwrap(), vec![2.0, 5.0]);
    /// ```
    pub fn max(&self, axes: Option<&[isize]>, keepdim: bool) -> Result<DynTensor> {
        let axes = self.reduce_axes("max", axes)?;
        Ok(DynTensor::wrap(reduce_with(
            &self.lazy,
            ReduceOp::Max,
            &axes,
            keepdim,
        )?))
    }

    /// The minimum over `axes`: the max of the order-reversed values, reversed back (`-x` for
    /// floats, `!x` for integers and bool), so unsigned types and NaN work as in numpy.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3], &[7u8, 0, 9]).unwrap();
    /// assert_eq!(t.min(None, false).unwrap().to_vec::<u8>().unwrap(), vec![0]);
    /// ```
    pub fn min(&self, axes: Option<&[isize]>, keepdim: bool) -> Result<DynTensor> {
        let axes = self.reduce_axes("min", axes)?;
        let m = reduce_with(&self.order_reversed()?, ReduceOp::Max, &axes, keepdim)?;
        Ok(DynTensor::wrap(DynTensor::wrap(m).order_reversed()?))
    }

    /// `-x` for floats, the bitwise (integers) or logical (bool) not otherwise: a bijection
    /// that reverses the order.
    fn order_reversed(&self) -> Result<Lazy> {
        if self.dtype().is_float() {
            self.lazy.unary(UnaryOp::Neg)
        } else {
            let ones = Lazy::constant(
                if self.dtype().is_bool() { 1 } else { -1 },
                self.dtype(),
                self.shape(),
            )?;
            self.lazy.binary(BinaryOp::Xor, &ones)
        }
    }

    /// The mean over `axes`: the sum (accumulated as `sum` does) times 1/count, in the
    /// tensor's dtype for floats and f32 for integers and bool (tinygrad). The mean of nothing
    /// is NaN.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[1i32, 2, 3, 5]).unwrap();
    /// let m = t.mean(Some(&[1]), false).unwrap();
    /// assert_eq!(m.dtype(), DType::F32);
    /// assert_eq!(m.to_vec::<f32>().unwrap(), vec![1.5, 4.0]);
    /// ```
    pub fn mean(&self, axes: Option<&[isize]>, keepdim: bool) -> Result<DynTensor> {
        let out = if self.dtype().is_float() {
            self.dtype()
        } else {
            DType::F32
        };
        let norm = self.reduce_axes("mean", axes)?;
        let count: usize = norm.iter().map(|&a| self.shape()[a]).product();
        let total = self.sum_as(axes, keepdim, self.dtype().sum_acc_dtype())?;
        if count == 0 {
            return DynTensor::full(total.shape(), f64::NAN, out);
        }
        let ft = if total.dtype().is_float() {
            total.dtype()
        } else {
            DType::F32
        };
        let total = total.lazy.cast(ft);
        let scale = Lazy::constant(1.0 / count as f64, ft, total.shape())?;
        Ok(DynTensor::wrap(
            total.binary(BinaryOp::Mul, &scale)?.cast(out),
        ))
    }

    /// Whether any element over `axes` is nonzero (NaN counts as nonzero); bool.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[0.0f32, 0.0, 0.0, 2.0]).unwrap();
    /// assert_eq!(t.any(Some(&[1]), false).unwrap().to_vec::<bool>().unwrap(), vec![false, true]);
    /// ```
    pub fn any(&self, axes: Option<&[isize]>, keepdim: bool) -> Result<DynTensor> {
        let axes = self.reduce_axes("any", axes)?;
        Ok(DynTensor::wrap(reduce_with(
            &self.lazy.cast(DType::Bool),
            ReduceOp::Max,
            &axes,
            keepdim,
        )?))
    }

    /// Whether every element over `axes` is nonzero; bool. True over nothing.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[1i32, 2, 0, 3]).unwrap();
    /// assert_eq!(t.all(Some(&[1]), false).unwrap().to_vec::<bool>().unwrap(), vec![true, false]);
    /// ```
    pub fn all(&self, axes: Option<&[isize]>, keepdim: bool) -> Result<DynTensor> {
        let axes = self.reduce_axes("all", axes)?;
        let none = DynTensor::wrap(self.lazy.cast(DType::Bool)).order_reversed()?;
        let any_not = reduce_with(&none, ReduceOp::Max, &axes, keepdim)?;
        Ok(DynTensor::wrap(DynTensor::wrap(any_not).order_reversed()?))
    }
}
