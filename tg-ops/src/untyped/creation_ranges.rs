//! Tensors made from positions: arange, linspace, eye, and the position-masked triu, tril and
//! one_hot. Positions come from a counter built on the device without a buffer, so each of
//! these is a constant expression that fuses into whatever reads it.

use tg_runtime::{DType, Error, Result, Scalar};

use super::DynTensor;
use super::indexing::select::{counter, counter_along, one_hot_along};

fn arg_err(op: &'static str, message: String) -> Error {
    Error::Argument { op, message }
}

fn is_float(s: Scalar) -> bool {
    matches!(s, Scalar::Float(_))
}

/// The number of values of `start, start + step, ...` below `stop` (above, for a negative
/// step), as Python's `ceil((stop - start) / step)`, at least 0.
fn range_len(start: Scalar, stop: Scalar, step: Scalar) -> Result<usize> {
    let n = if [start, stop, step].into_iter().any(is_float) {
        let (a, b, s) = (start.as_f64(), stop.as_f64(), step.as_f64());
        if s == 0.0 || !s.is_finite() || !a.is_finite() || !b.is_finite() {
            return Err(arg_err(
                "arange",
                format!("arange({a}, {b}, {s}) needs finite bounds and a nonzero finite step"),
            ));
        }
        ((b - a) / s).ceil().max(0.0)
    } else {
        let (a, b, s) = (start.as_i128(), stop.as_i128(), step.as_i128());
        if s == 0 {
            return Err(arg_err(
                "arange",
                format!("arange({a}, {b}, 0): the step cannot be 0"),
            ));
        }
        let d = b - a;
        (if (d > 0) == (s > 0) && d != 0 {
            (d.abs() + s.abs() - 1) / s.abs()
        } else {
            0
        }) as f64
    };
    if n > u32::MAX as f64 {
        return Err(arg_err(
            "arange",
            format!("arange of {n} values is longer than tg's counters reach (2^32)"),
        ));
    }
    Ok(n as usize)
}

impl DynTensor {
    /// `start, start + step, ...` up to but excluding `stop` (tinygrad's and numpy's
    /// `arange`); a negative step counts down, and a range that goes the wrong way is empty.
    ///
    /// With `dtype` `None` the dtype follows the arguments as tinygrad's does: f32 if any is a
    /// float, else i32, or i64 when the values do not fit i32. A given `dtype` must hold every
    /// value (else `Error::Argument`, tinygrad's OverflowError). Values are `start + i * step`
    /// (tinygrad sums `step` up, which rounds differently for floats); floats are computed in
    /// f32 (f64 for f64) and rounded to `dtype`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = DynTensor::arange(5, 0, -2, None).unwrap();
    /// assert_eq!((a.dtype(), a.to_vec::<i32>().unwrap()), (DType::I32, vec![5, 3, 1]));
    /// let f = DynTensor::arange(0.0, 1.0, 0.25, None).unwrap();
    /// assert_eq!(f.to_vec::<f32>().unwrap(), vec![0.0, 0.25, 0.5, 0.75]);
    /// assert_eq!(DynTensor::arange(0, 4_000_000_000i64, 1_000_000_000, None).unwrap().dtype(), DType::I64);
    /// ```
    pub fn arange(
        start: impl Into<Scalar>,
        stop: impl Into<Scalar>,
        step: impl Into<Scalar>,
        dtype: Option<DType>,
    ) -> Result<DynTensor> {
        let (start, stop, step) = (start.into(), stop.into(), step.into());
        let any_float = [start, stop, step].into_iter().any(is_float);
        if [start, stop, step]
            .into_iter()
            .any(|s| matches!(s, Scalar::Bool(_)))
        {
            return Err(arg_err(
                "arange",
                "bounds and step must be numbers, not bool".into(),
            ));
        }
        let n = range_len(start, stop, step)?;
        // the extreme values, as tinygrad bounds them
        let (lo, hi) = if step.as_f64() > 0.0 {
            (start.as_f64(), stop.as_f64() - step.as_f64())
        } else {
            (stop.as_f64() - step.as_f64(), start.as_f64())
        };
        let dt = match dtype {
            Some(dt) => dt,
            None if any_float => DType::F32,
            None if lo < i32::MIN as f64 || hi > i32::MAX as f64 => DType::I64,
            None => DType::I32,
        };
        if dt.is_bool() {
            return Err(Error::DType {
                op: "arange",
                dtype: dt,
                message: "arange makes numbers".into(),
            });
        }
        if n > 0 && (lo < dt.min_f64() || hi > dt.max_f64()) {
            return Err(arg_err(
                "arange",
                format!("arange [{start:?}, {stop:?}) is not representable in {dt}"),
            ));
        }
        let compute = if dt == DType::F64 {
            DType::F64
        } else if dt.is_float() || any_float {
            DType::F32
        } else if dt.is_64bit() || lo < i32::MIN as f64 || hi > i32::MAX as f64 {
            DType::I64
        } else {
            DType::I32
        };
        let i = counter(n, compute)?;
        // integers wrap, so start + i * step is exact even where i * step alone overflows
        let v = i.mul(step)?.add(start)?;
        Ok(v.cast(dt))
    }

    /// `steps` values evenly spaced from `start` to `stop`, both included: `start + i * (stop
    /// - start) / (steps - 1)`, computed in f32 (f64 for f64) and converted to `dtype`
    /// (default f32). As tinygrad: integer dtypes truncate toward zero (numpy floors), and
    /// `stop` itself is not forced exactly (numpy sets the last value to `stop`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::linspace(-1.0, 1.0, 5, None).unwrap();
    /// assert_eq!(t.to_vec::<f32>().unwrap(), vec![-1.0, -0.5, 0.0, 0.5, 1.0]);
    /// ```
    pub fn linspace(
        start: f64,
        stop: f64,
        steps: usize,
        dtype: Option<DType>,
    ) -> Result<DynTensor> {
        let dt = dtype.unwrap_or(DType::F32);
        if dt.is_bool() {
            return Err(Error::DType {
                op: "linspace",
                dtype: dt,
                message: "linspace makes numbers".into(),
            });
        }
        if steps == 1 {
            return DynTensor::full(&[1], start, dt);
        }
        let compute = if dt == DType::F64 {
            DType::F64
        } else {
            DType::F32
        };
        let delta = (stop - start) / (steps.max(2) - 1) as f64;
        let i = counter(steps, compute)?;
        Ok(i.mul(delta)?.add(start)?.cast(dt))
    }

    /// The `n` x `m` identity matrix: ones where row == column (`m` defaults to `n`), of
    /// `dtype` (default f32).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let e = DynTensor::eye(2, Some(3), Some(DType::I32)).unwrap();
    /// assert_eq!(e.to_vec::<i32>().unwrap(), vec![1, 0, 0, 0, 1, 0]);
    /// ```
    pub fn eye(n: usize, m: Option<usize>, dtype: Option<DType>) -> Result<DynTensor> {
        let m = m.unwrap_or(n);
        let rows = counter_along(n, 0, 2, DType::I32)?;
        Ok(rows
            .eq(&counter_along(m, 1, 2, DType::I32)?)?
            .cast(dtype.unwrap_or(DType::F32)))
    }

    /// Whether `col - row >= diagonal`, for the matrices in the last two axes.
    fn upper_mask(&self, op: &'static str, diagonal: isize) -> Result<DynTensor> {
        tg_core::shape::movement::require_rank(op, self.shape(), 2)?;
        let (r, c) = (self.shape()[self.ndim() - 2], self.shape()[self.ndim() - 1]);
        // beyond these bounds the mask is all true or all false, so clamping changes nothing
        let k = (diagonal as i64).clamp(-(r as i64) - 1, c as i64 + 1);
        let rows = counter_along(r, 0, 2, DType::I32)?;
        let cols = counter_along(c, 1, 2, DType::I32)?;
        cols.sub(&rows)?.ge(k)
    }

    /// The upper triangle of the matrices in the last two axes: elements with `col - row >=
    /// diagonal` kept, the rest 0 (`diagonal > 0` starts above the main diagonal, `< 0`
    /// below).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 3], &[1i32, 2, 3, 4, 5, 6]).unwrap();
    /// assert_eq!(t.triu(1).unwrap().to_vec::<i32>().unwrap(), vec![0, 2, 3, 0, 0, 6]);
    /// ```
    pub fn triu(&self, diagonal: isize) -> Result<DynTensor> {
        self.upper_mask("triu", diagonal)?
            .where_(self, self.zeros_like())
    }

    /// The lower triangle of the matrices in the last two axes: elements with `col - row <=
    /// diagonal` kept, the rest 0.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 3], &[1i32, 2, 3, 4, 5, 6]).unwrap();
    /// assert_eq!(t.tril(-1).unwrap().to_vec::<i32>().unwrap(), vec![0, 0, 0, 4, 0, 0]);
    /// ```
    pub fn tril(&self, diagonal: isize) -> Result<DynTensor> {
        self.upper_mask("tril", diagonal.saturating_add(1))?
            .where_(self.zeros_like(), self)
    }

    /// One-hot rows: a new last axis of `num_classes` holding 1 at the position the value
    /// names, as i32 (tinygrad's default int). As tinygrad: values outside
    /// `0..num_classes`, negative ones included, give all-zero rows (torch fails).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3], &[0i32, 2, 5]).unwrap();
    /// let h = t.one_hot(3).unwrap();
    /// assert_eq!(h.shape(), &[3, 3]);
    /// assert_eq!(h.to_vec::<i32>().unwrap(), vec![1, 0, 0, 0, 0, 1, 0, 0, 0]);
    /// ```
    pub fn one_hot(&self, num_classes: usize) -> Result<DynTensor> {
        if !self.dtype().is_int() {
            return Err(Error::DType {
                op: "one_hot",
                dtype: self.dtype(),
                message: "one_hot takes integer class indices".into(),
            });
        }
        let x = self.unsqueeze(-1)?;
        one_hot_along(&x, num_classes, x.ndim() - 1, x.ndim())?.where_(1, 0)
    }
}
