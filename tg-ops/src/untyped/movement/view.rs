//! Reshapes and axis reorders: reshape, permute, transpose, expand, squeeze, unsqueeze,
//! flatten, unflatten.

use super::{arg_err, shape_err};
use crate::untyped::{DynTensor, norm_axis};
use tg_runtime::{Error, Result};

/// Resolves one `-1` in `sizes` so that they multiply to `numel`.
fn infer_sizes(op: &'static str, sizes: &[isize], numel: usize, what: &str) -> Result<Vec<usize>> {
    if sizes.iter().filter(|&&s| s == -1).count() > 1 {
        return Err(arg_err(
            op,
            format!("only one size can be -1 (inferred), got {sizes:?}"),
        ));
    }
    if let Some(&s) = sizes.iter().find(|&&s| s < -1) {
        return Err(arg_err(op, format!("size {s} in {sizes:?} is negative")));
    }
    let known: usize = sizes
        .iter()
        .filter(|&&s| s >= 0)
        .map(|&s| s as usize)
        .product();
    let infer = if sizes.contains(&-1) {
        if known == 0 || !numel.is_multiple_of(known) {
            return Err(shape_err(
                op,
                format!("cannot infer the -1 in {sizes:?} for {what} of {numel} elements"),
            ));
        }
        numel / known
    } else {
        0
    };
    Ok(sizes
        .iter()
        .map(|&s| if s == -1 { infer } else { s as usize })
        .collect())
}

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
        let sizes = infer_sizes(
            "reshape",
            shape,
            self.numel(),
            &format!("shape {:?}", self.shape()),
        )?;
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
        if order.len() != self.ndim() {
            return Err(shape_err(
                "permute",
                format!(
                    "order {order:?} has {} axes, shape {:?} has {}",
                    order.len(),
                    self.shape(),
                    self.ndim()
                ),
            ));
        }
        let perm = order
            .iter()
            .map(|&a| norm_axis("permute", a, self.ndim()))
            .collect::<Result<Vec<_>>>()?;
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
        let (a, b) = (
            norm_axis("transpose", a, self.ndim())?,
            norm_axis("transpose", b, self.ndim())?,
        );
        let mut perm: Vec<usize> = (0..self.ndim()).collect();
        perm.swap(a, b);
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
        if self.ndim() < 2 {
            return Err(shape_err(
                "t",
                format!(
                    "needs at least 2 axes, shape {:?} has {}",
                    self.shape(),
                    self.ndim()
                ),
            ));
        }
        self.transpose(-2, -1)
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
        if shape.len() < self.ndim() {
            return Err(shape_err(
                "expand",
                format!("cannot expand {:?} to fewer axes: {shape:?}", self.shape()),
            ));
        }
        let lead = shape.len() - self.ndim();
        let mut target = Vec::with_capacity(shape.len());
        for (i, &s) in shape.iter().enumerate() {
            let from = if i < lead { 1 } else { self.shape()[i - lead] };
            target.push(match s {
                -1 => from,
                s if s < 0 => {
                    return Err(arg_err(
                        "expand",
                        format!("size {s} in {shape:?} is negative"),
                    ));
                }
                s => s as usize,
            });
        }
        self.broadcast_to(&target).map_err(|e| match e {
            Error::SizeOverflow { .. } => e,
            _ => shape_err(
                "expand",
                format!("cannot expand {:?} to {shape:?}", self.shape()),
            ),
        })
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
        let Some(axis) = axis else {
            let dims: Vec<usize> = self.shape().iter().copied().filter(|&d| d != 1).collect();
            return Ok(DynTensor::wrap(self.lazy.reshape(&dims)?));
        };
        if self.ndim() == 0 {
            norm_axis("squeeze", axis, 1)?;
            return Ok(self.clone());
        }
        let a = norm_axis("squeeze", axis, self.ndim())?;
        if self.shape()[a] != 1 {
            return Ok(self.clone());
        }
        let mut dims = self.shape().to_vec();
        dims.remove(a);
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
        let a = norm_axis("unsqueeze", axis, self.ndim() + 1)?;
        let mut dims = self.shape().to_vec();
        dims.insert(a, 1);
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
        if self.ndim() == 0 {
            norm_axis("flatten", start, 1)?;
            norm_axis("flatten", end, 1)?;
            return Ok(DynTensor::wrap(self.lazy.reshape(&[1])?));
        }
        let (s, e) = (
            norm_axis("flatten", start, self.ndim())?,
            norm_axis("flatten", end, self.ndim())?,
        );
        if s > e {
            return Err(arg_err(
                "flatten",
                format!(
                    "start axis {start} comes after end axis {end} in shape {:?}",
                    self.shape()
                ),
            ));
        }
        let sh = self.shape();
        let mut dims = sh[..s].to_vec();
        dims.push(sh[s..=e].iter().product());
        dims.extend_from_slice(&sh[e + 1..]);
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
        let a = norm_axis("unflatten", axis, self.ndim())?;
        let n = self.shape()[a];
        let sizes = infer_sizes(
            "unflatten",
            sizes,
            n,
            &format!("axis {axis} of shape {:?}", self.shape()),
        )?;
        if sizes.iter().product::<usize>() != n {
            return Err(shape_err(
                "unflatten",
                format!(
                    "sizes {sizes:?} do not multiply to {n}, the size of axis {axis} of {:?}",
                    self.shape()
                ),
            ));
        }
        let sh = self.shape();
        let mut dims = sh[..a].to_vec();
        dims.extend_from_slice(&sizes);
        dims.extend_from_slice(&sh[a + 1..]);
        Ok(DynTensor::wrap(self.lazy.reshape(&dims)?))
    }
}
