//! Reshapes and axis reorders: reshape, permute, transpose, expand, squeeze, unsqueeze,
//! flatten, unflatten.

use crate::untyped::DynTensor;
use tg_core::decide;
use tg_core::shape::{broadcast, movement, size_args};
use tg_runtime::Result;

impl DynTensor {
    /// The same elements in row-major order under another shape; one size may be `-1`, to be
    /// inferred from the element count.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[6], &[0i32, 1, 2, 3, 4, 5]).unwrap();
    /// let r = t.reshape(&[-1, 3]).unwrap();
    /// assert_eq!(r.shape(), &[2, 3]);
    /// ```
    pub fn reshape(&self, shape: &[isize]) -> Result<DynTensor> {
        let target = size_args("reshape", shape)?;
        let sizes = decide(|ck| movement::reshape(ck, self.shape(), &target))?;
        Ok(DynTensor::wrap(self.lazy.reshape(&sizes)?))
    }

    /// Reorders the axes: output axis `i` is input axis `order[i]`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[2, 3, 4], DType::F32).unwrap();
    /// assert_eq!(t.permute(&[2, 0, -2]).unwrap().shape(), &[4, 2, 3]);
    /// ```
    pub fn permute(&self, order: &[isize]) -> Result<DynTensor> {
        let (perm, _) = movement::permute("permute", self.shape(), order)?;
        Ok(DynTensor::wrap(self.lazy.permute(&perm)?))
    }

    /// Swaps two axes.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[2, 3, 4], DType::F32).unwrap();
    /// assert_eq!(t.transpose(0, -1).unwrap().shape(), &[4, 3, 2]);
    /// ```
    pub fn transpose(&self, a: isize, b: isize) -> Result<DynTensor> {
        let (perm, _) = movement::transpose("transpose", self.shape(), a, b)?;
        Ok(DynTensor::wrap(self.lazy.permute(&perm)?))
    }

    /// Transposes the last two axes (the matrix transpose, batched); needs rank 2 or more.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// assert_eq!(t.t().unwrap().to_vec::<f32>().unwrap(), vec![1.0, 3.0, 2.0, 4.0]);
    /// ```
    pub fn t(&self) -> Result<DynTensor> {
        let (perm, _) = movement::matrix_transpose(self.shape())?;
        Ok(DynTensor::wrap(self.lazy.permute(&perm)?))
    }

    /// Broadcasts to `shape` (numpy rules: new axes on the left, size-1 axes stretch); a size
    /// of `-1` keeps that axis as it is.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3], &[1i32, 2, 3]).unwrap();
    /// let e = t.expand(&[2, -1]).unwrap();
    /// assert_eq!(e.to_vec::<i32>().unwrap(), vec![1, 2, 3, 1, 2, 3]);
    /// ```
    pub fn expand(&self, shape: &[isize]) -> Result<DynTensor> {
        let target = size_args("expand", shape)?;
        let out = decide(|ck| broadcast::expand(ck, "expand", self.shape(), &target))?;
        self.broadcast_to(&out)
    }

    /// Removes axis `axis` if its size is 1 (otherwise returns the tensor unchanged, as
    /// tinygrad and torch do; numpy would fail), or with `None` every size-1 axis.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[2, 1, 3, 1], DType::F32).unwrap();
    /// assert_eq!(t.squeeze(Some(1)).unwrap().shape(), &[2, 3, 1]);
    /// assert_eq!(t.squeeze(Some(0)).unwrap().shape(), &[2, 1, 3, 1]);
    /// assert_eq!(t.squeeze(None).unwrap().shape(), &[2, 3]);
    /// ```
    pub fn squeeze(&self, axis: Option<isize>) -> Result<DynTensor> {
        let dims = movement::squeeze(self.shape(), axis)?;
        if dims.len() == self.ndim() {
            return Ok(self.clone());
        }
        Ok(DynTensor::wrap(self.lazy.reshape(&dims)?))
    }

    /// Inserts a size-1 axis at `axis` (in `-(rank+1)..=rank`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[2, 3], DType::F32).unwrap();
    /// assert_eq!(t.unsqueeze(-1).unwrap().shape(), &[2, 3, 1]);
    /// ```
    pub fn unsqueeze(&self, axis: isize) -> Result<DynTensor> {
        let dims = movement::unsqueeze(self.shape(), axis)?;
        Ok(DynTensor::wrap(self.lazy.reshape(&dims)?))
    }

    /// Merges the axes `start..=end` into one (a rank-0 tensor becomes shape `[1]`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[2, 3, 4], DType::F32).unwrap();
    /// assert_eq!(t.flatten(0, -1).unwrap().shape(), &[24]);
    /// assert_eq!(t.flatten(1, 2).unwrap().shape(), &[2, 12]);
    /// ```
    pub fn flatten(&self, start: isize, end: isize) -> Result<DynTensor> {
        let dims = movement::flatten(self.shape(), start, end)?;
        Ok(DynTensor::wrap(self.lazy.reshape(&dims)?))
    }

    /// Splits axis `axis` into axes of `sizes` (one may be `-1`); the inverse of `flatten`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[3, 4, 1], DType::F32).unwrap();
    /// assert_eq!(t.unflatten(1, &[2, -1]).unwrap().shape(), &[3, 2, 2, 1]);
    /// ```
    pub fn unflatten(&self, axis: isize, sizes: &[isize]) -> Result<DynTensor> {
        let sizes = size_args("unflatten", sizes)?;
        let dims = decide(|ck| movement::unflatten(ck, self.shape(), axis, &sizes))?;
        Ok(DynTensor::wrap(self.lazy.reshape(&dims)?))
    }
}
