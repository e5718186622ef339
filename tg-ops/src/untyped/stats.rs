//! Statistics over axes: var and std with a correction, var_mean, std_mean, Lp normalize,
//! logsumexp, softmax, log_softmax and softmin.
//!
//! Composed as tinygrad composes them, of reductions and elementwise ops, so that the
//! scheduler's row kernels apply: a softmax or a variance over a long trailing axis broadcasts
//! its reductions back over their own rows and runs as one kernel. Integer and bool inputs
//! are converted to the default float (f32) first, so `x - max` cannot wrap.

use super::DynTensor;
use tg_runtime::{DType, Error, Result};

/// Checks `axes` as a reduction does (in range, none twice), so errors name `op`.
pub(crate) fn check_axes(op: &'static str, axes: Option<&[isize]>, shape: &[usize]) -> Result<()> {
    tg_core::shape::reduce::reduce_axes(op, shape, axes)?;
    Ok(())
}

/// The number of elements a reduction of `x` to `kept` (the keepdim shape) combines.
fn reduced_count(x: &DynTensor, kept: &DynTensor) -> usize {
    x.shape()
        .iter()
        .zip(kept.shape())
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a)
        .product()
}

/// `x` in its float dtype (integers and bool give f32).
fn as_float(x: &DynTensor) -> DynTensor {
    x.cast(x.dtype().float_of())
}

impl DynTensor {
    /// The variance over `axes` (all with `None`): the mean of squared deviations from the
    /// mean, times `n / (n - correction)` (Bessel's correction with the default `1.0`; `0.0`
    /// for the population variance). Where `n <= correction` the divisor is 0 (tinygrad's
    /// `relu`), giving inf, or NaN for zero deviations. Floats keep their dtype, integers and
    /// bool give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[1.0f32, 3.0, 2.0, 2.0]).unwrap();
    /// assert_eq!(t.var(Some(&[1]), false, 1.0).unwrap().to_vec::<f32>().unwrap(), vec![2.0, 0.0]);
    /// assert_eq!(t.var(None, false, 0.0).unwrap().to_vec::<f32>().unwrap(), vec![0.5]);
    /// ```
    pub fn var(&self, axes: Option<&[isize]>, keepdim: bool, correction: f64) -> Result<DynTensor> {
        Ok(self.var_mean(axes, keepdim, correction)?.0)
    }

    /// The variance and the mean over `axes` (torch's `var_mean`); see [`DynTensor::var`]
    /// and [`DynTensor::mean`].
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[4], &[1i32, 2, 3, 4]).unwrap();
    /// let (v, m) = t.var_mean(None, false, 0.0).unwrap();
    /// assert_eq!((v.to_vec::<f32>().unwrap()[0], m.to_vec::<f32>().unwrap()[0]), (1.25, 2.5));
    /// ```
    pub fn var_mean(
        &self,
        axes: Option<&[isize]>,
        keepdim: bool,
        correction: f64,
    ) -> Result<(DynTensor, DynTensor)> {
        check_axes("var", axes, self.shape())?;
        let mean = self.mean(axes, true)?;
        let squares = self.sub(&mean)?.square()?;
        let n = reduced_count(self, &mean);
        let var = squares
            .sum(axes, keepdim)?
            .div((n as f64 - correction).max(0.0))?;
        let mean = if keepdim {
            mean
        } else {
            mean.reshape(&to_isize(var.shape()))?
        };
        Ok((var, mean))
    }

    /// The standard deviation over `axes`: the square root of [`DynTensor::var`] with the
    /// same `correction`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[4], &[2.0f32, 4.0, 4.0, 6.0]).unwrap();
    /// assert_eq!(t.std(None, false, 0.0).unwrap().to_vec::<f32>().unwrap(), vec![2.0f32.sqrt()]);
    /// ```
    pub fn std(&self, axes: Option<&[isize]>, keepdim: bool, correction: f64) -> Result<DynTensor> {
        self.var(axes, keepdim, correction)?.sqrt()
    }

    /// The standard deviation and the mean over `axes` (torch's `std_mean`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2], &[1.0f32, 3.0]).unwrap();
    /// let (s, m) = t.std_mean(None, false, 0.0).unwrap();
    /// assert_eq!((s.to_vec::<f32>().unwrap(), m.to_vec::<f32>().unwrap()), (vec![1.0], vec![2.0]));
    /// ```
    pub fn std_mean(
        &self,
        axes: Option<&[isize]>,
        keepdim: bool,
        correction: f64,
    ) -> Result<(DynTensor, DynTensor)> {
        let (var, mean) = self.var_mean(axes, keepdim, correction)?;
        Ok((var.sqrt()?, mean))
    }

    /// Lp normalization along `axis`: `x / max(||x||_p, eps)`. `p = 0` counts the nonzero
    /// elements (tinygrad's rule), `p = inf` takes the largest magnitude and `p = -inf` the
    /// smallest (torch's norms; tinygrad's `pow(1/p)` has no such limit). Integers give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[1, 2], &[3.0f32, 4.0]).unwrap();
    /// assert_eq!(t.normalize(2.0, 1, 1e-12).unwrap().to_vec::<f32>().unwrap(), vec![0.6, 0.8]);
    /// assert_eq!(t.normalize(0.0, 1, 1e-12).unwrap().to_vec::<f32>().unwrap(), vec![1.5, 2.0]);
    /// ```
    pub fn normalize(&self, p: f64, axis: isize, eps: f64) -> Result<DynTensor> {
        if p.is_nan() {
            return Err(Error::Argument {
                op: "normalize",
                message: "p is NaN".into(),
            });
        }
        check_axes("normalize", Some(&[axis]), self.shape())?;
        let axes: &[isize] = &[axis];
        let x = as_float(self);
        let norm = if p == 0.0 {
            x.ne(0)?.sum(Some(axes), true)?.cast(x.dtype())
        } else if p == f64::INFINITY {
            x.abs()?.max(Some(axes), true)?
        } else if p == f64::NEG_INFINITY {
            x.abs()?.min(Some(axes), true)?
        } else {
            x.abs()?.pow(p)?.sum(Some(axes), true)?.pow(1.0 / p)?
        };
        x.div(&norm.maximum(eps)?)
    }

    /// `log(sum(exp(x)))` over `axes`, computed as `m + log(sum(exp(x - m)))` with `m` the
    /// maximum, so large inputs do not overflow. Where `m` is infinite it is replaced by 0
    /// (torch's and scipy's rule), so a row of `-inf` gives `-inf` and a row holding `+inf`
    /// gives `+inf`; tinygrad gives NaN for both (`-inf - -inf`). Integers give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[1000.0f32, 1000.0, f32::NEG_INFINITY, f32::NEG_INFINITY]).unwrap();
    /// let y = t.logsumexp(Some(&[1]), false).unwrap().to_vec::<f32>().unwrap();
    /// assert_eq!(y, vec![1000.0 + 2.0f32.ln(), f32::NEG_INFINITY]);
    /// ```
    pub fn logsumexp(&self, axes: Option<&[isize]>, keepdim: bool) -> Result<DynTensor> {
        check_axes("logsumexp", axes, self.shape())?;
        let x = as_float(self);
        let m = x.max(axes, true)?.detach();
        let m = m.isinf(true, true)?.where_(0.0, &m)?;
        let s = x.sub(&m)?.exp()?.sum(axes, keepdim)?.log()?;
        let m = if keepdim {
            m
        } else {
            m.reshape(&to_isize(s.shape()))?
        };
        s.add(&m)
    }

    /// `exp(x) / sum(exp(x))` along `axis`, with the maximum subtracted first. `acc` (tinygrad's
    /// `dtype`) converts `x - max` to a float dtype before the exponentials and the sum, and is
    /// the result's dtype (f16 inputs with `Some(F32)` give f32); otherwise floats keep their
    /// dtype and integers give f32. A row of `-inf` gives NaN, as in tinygrad and torch.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2], &[0.0f32, 2.0f32.ln()]).unwrap();
    /// let y = t.softmax(-1, None).unwrap().to_vec::<f32>().unwrap();
    /// assert!((y[0] - 1.0 / 3.0).abs() < 1e-6 && (y[1] - 2.0 / 3.0).abs() < 1e-6);
    /// ```
    pub fn softmax(&self, axis: isize, acc: Option<DType>) -> Result<DynTensor> {
        let (_, e, total) = self.softmax_parts("softmax", axis, acc)?;
        e.mul(&total.reciprocal()?)
    }

    /// `log(softmax(x))` along `axis`, as `(x - max) - log(sum(exp(x - max)))`, which stays
    /// finite where softmax underflows to 0. `acc` as in [`DynTensor::softmax`].
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2], &[0.0f32, 1000.0]).unwrap();
    /// assert_eq!(t.log_softmax(0, None).unwrap().to_vec::<f32>().unwrap(), vec![-1000.0, 0.0]);
    /// ```
    pub fn log_softmax(&self, axis: isize, acc: Option<DType>) -> Result<DynTensor> {
        let (shifted, _, total) = self.softmax_parts("log_softmax", axis, acc)?;
        shifted.sub(&total.log()?)
    }

    /// `softmax(-x)` along `axis`: weights that favour the smallest values. Unsigned
    /// integers are converted to f32 before negating (tinygrad's `-x` would wrap them).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2], &[0u8, 200]).unwrap();
    /// assert_eq!(t.softmin(0, None).unwrap().to_vec::<f32>().unwrap(), vec![1.0, 0.0]);
    /// ```
    pub fn softmin(&self, axis: isize, acc: Option<DType>) -> Result<DynTensor> {
        let neg = as_float(self).neg()?;
        let (_, e, total) = neg.softmax_parts("softmin", axis, acc)?;
        e.mul(&total.reciprocal()?)
    }

    /// `(x - max, exp(x - max), sum(exp(x - max)))` along `axis`, the last two kept as size 1.
    fn softmax_parts(
        &self,
        op: &'static str,
        axis: isize,
        acc: Option<DType>,
    ) -> Result<(DynTensor, DynTensor, DynTensor)> {
        check_axes(op, Some(&[axis]), self.shape())?;
        if let Some(dt) = acc.filter(|d| !d.is_float()) {
            return Err(Error::DType {
                op,
                dtype: dt,
                message: "the accumulation dtype must be a float dtype".into(),
            });
        }
        let x = as_float(self);
        let axes: &[isize] = &[axis];
        let mut shifted = x.sub(x.max(Some(axes), true)?.detach())?;
        if let Some(dt) = acc {
            shifted = shifted.cast(dt);
        }
        let e = shifted.exp()?;
        let total = e.sum(Some(axes), true)?;
        Ok((shifted, e, total))
    }
}

/// Sizes as the `isize` list that `reshape` takes.
pub(crate) fn to_isize(shape: &[usize]) -> Vec<isize> {
    shape.iter().map(|&d| d as isize).collect()
}
