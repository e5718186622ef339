//! Growing and cutting axes: pad (any constant, negative pads cut), shrink, pad_to,
//! shrink_to, flip.

use crate::untyped::DynTensor;
use tg_core::decide;
use tg_core::shape::movement;
use tg_core::shape::pad::{PadMode, group_flat_pads, pad, resize_to, shrink};
use tg_runtime::{Result, Scalar};

impl DynTensor {
    /// Pads each axis with `(before, after)` elements of `value` (numpy's grouped form: one
    /// pair per axis). A negative pad cuts that many elements instead, like a negative slice.
    ///
    /// The value is converted to the tensor's dtype, so padding never changes the dtype
    /// (tinygrad would promote an integer tensor padded with a float value to a float one).
    /// A zero value pads with the runtime's zero padding; any other (`-inf` for max pooling,
    /// NaN, -0.0) is selected in by a mask, fused into the same kernel.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3], &[1.0f32, 2.0, 3.0]).unwrap();
    /// let p = t.pad(&[(1, -1)], f32::NEG_INFINITY).unwrap();
    /// assert_eq!(p.to_vec::<f32>().unwrap(), vec![f32::NEG_INFINITY, 1.0, 2.0]);
    /// ```
    pub fn pad(&self, pads: &[(isize, isize)], value: impl Into<Scalar>) -> Result<DynTensor> {
        decide(|ck| pad(ck, "pad", self.shape(), pads, PadMode::Constant))?;
        // cut first where pads are negative (the rule checked the cuts fit), then pad by the
        // non-negative rest
        let ranges: Vec<(usize, usize)> = pads
            .iter()
            .zip(self.shape())
            .map(|(&(b, a), &s)| (b.min(0).unsigned_abs(), s - a.min(0).unsigned_abs()))
            .collect();
        let x = self.lazy.shrink(&ranges)?;
        let grow: Vec<(usize, usize)> = pads
            .iter()
            .map(|&(b, a)| (b.max(0) as usize, a.max(0) as usize))
            .collect();
        Ok(DynTensor::wrap(x.pad_with(&grow, value)?))
    }

    /// Pads in torch's flat form: `(before, after)` pairs starting from the LAST axis, as
    /// `[last_before, last_after, second_last_before, ...]`; axes not named are not padded.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[1, 2, 2], DType::F32).unwrap();
    /// assert_eq!(t.pad_flat(&[1, 2, 0, -1], 0.0).unwrap().shape(), &[1, 1, 5]);
    /// ```
    pub fn pad_flat(&self, pads: &[isize], value: impl Into<Scalar>) -> Result<DynTensor> {
        let grouped = group_flat_pads("pad", self.shape(), pads)?;
        self.pad(&grouped, value)
    }

    /// Keeps `start..end` of each axis.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[4], &[1i32, 2, 3, 4]).unwrap();
    /// assert_eq!(t.shrink(&[(1, 3)]).unwrap().to_vec::<i32>().unwrap(), vec![2, 3]);
    /// ```
    pub fn shrink(&self, ranges: &[(usize, usize)]) -> Result<DynTensor> {
        let signed: Vec<(isize, isize)> = ranges
            .iter()
            .map(|&(s, e)| (s as isize, e as isize))
            .collect();
        decide(|ck| shrink(ck, "shrink", self.shape(), &signed))?;
        Ok(DynTensor::wrap(self.lazy.shrink(ranges)?))
    }

    /// Pads with zeros at the end of each axis up to `shape` (`None` keeps an axis).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[2, 3], DType::F32).unwrap();
    /// assert_eq!(t.pad_to(&[Some(4), None]).unwrap().shape(), &[4, 3]);
    /// ```
    pub fn pad_to(&self, shape: &[Option<usize>]) -> Result<DynTensor> {
        let sizes = decide(|ck| resize_to(ck, "pad_to", self.shape(), shape, true))?;
        let pads: Vec<(usize, usize)> = sizes
            .iter()
            .zip(self.shape())
            .map(|(&n, &s)| (0, n - s))
            .collect();
        Ok(DynTensor::wrap(self.lazy.pad(&pads)?))
    }

    /// Keeps the first `shape[i]` elements of each axis (`None` keeps an axis).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[4, 3], DType::F32).unwrap();
    /// assert_eq!(t.shrink_to(&[Some(2), None]).unwrap().shape(), &[2, 3]);
    /// ```
    pub fn shrink_to(&self, shape: &[Option<usize>]) -> Result<DynTensor> {
        let sizes = decide(|ck| resize_to(ck, "shrink_to", self.shape(), shape, false))?;
        let ranges: Vec<(usize, usize)> = sizes.iter().map(|&n| (0, n)).collect();
        Ok(DynTensor::wrap(self.lazy.shrink(&ranges)?))
    }

    /// Reverses the order of elements along `axes`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[1i32, 2, 3, 4]).unwrap();
    /// assert_eq!(t.flip(&[-1]).unwrap().to_vec::<i32>().unwrap(), vec![2, 1, 4, 3]);
    /// ```
    pub fn flip(&self, axes: &[isize]) -> Result<DynTensor> {
        let axes = movement::flip(self.shape(), axes)?;
        Ok(DynTensor::wrap(self.lazy.flip(&axes)?))
    }
}
