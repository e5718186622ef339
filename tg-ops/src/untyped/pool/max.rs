//! Max pooling, its argmax indices, and the partial inverse `max_unpool2d`.

use super::{Pool, Sizes, Window, ceil_mode_pads, last_axes};
use crate::untyped::DynTensor;
use tg_core::decide;
use tg_core::shape::window;
use tg_runtime::{DType, Error, Lazy, Result, Scalar};

/// The windows of a max pool, the window, and the pads used.
type MaxWindows = (DynTensor, Window, Vec<(isize, isize)>);

/// The smallest value of `dt`, which max pooling pads with (-inf for floats).
fn lowest(dt: DType) -> Scalar {
    if dt.is_float() {
        Scalar::Float(f64::NEG_INFINITY)
    } else if dt.is_bool() {
        Scalar::Bool(false)
    } else {
        Scalar::Int(dt.int_min() as i64)
    }
}

impl DynTensor {
    /// The windows of a max pool, padded with the dtype's lowest value, with the window and
    /// the pads used.
    fn max_windows(&self, op: &'static str, p: &Pool) -> Result<MaxWindows> {
        let w = p.window(op)?;
        let mut pads = p.padding.resolve(op, w.kernel.len())?;
        decide(|ck| window::pool(ck, op, self.shape(), &w, &pads, p.ceil_mode))?;
        let sizes = &self.shape()[self.ndim() - w.kernel.len()..];
        if p.ceil_mode {
            pads = ceil_mode_pads(sizes, &pads, &w);
        }
        let windows = self
            .pad_spatial(&pads, lowest(self.dtype()))?
            .pool_window(op, &w)?;
        Ok((windows, w, pads))
    }

    /// The maximum of each window of the last `p.kernel.len()` axes (any number of spatial
    /// axes). Padding never wins: it is the dtype's lowest value (-inf for floats). NaN in a
    /// window gives NaN. The dtype is kept.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[1, 4], &[1i32, 5, 2, 7]).unwrap();
    /// let m = t.max_pool2d(&Pool::new([3]).stride(2).padding(1)).unwrap();
    /// assert_eq!(m.to_vec::<i32>().unwrap(), vec![5, 7]); // windows [-inf, 1, 5] and [5, 2, 7]
    /// ```
    pub fn max_pool2d(&self, p: &Pool) -> Result<DynTensor> {
        let (windows, w, _) = self.max_windows("max_pool2d", p)?;
        windows.max(Some(&last_axes(w.kernel.len())), false)
    }

    /// `max_pool2d` and, for each window, the flat index of its maximum within the spatial
    /// axes of the input (row-major over the last `p.kernel.len()` axes), as i32: the first
    /// one where several are equal. Feed both to `max_unpool2d`.
    ///
    /// A window holding NaN points at its first NaN (as torch; tinygrad's composition would
    /// give an index past the end). The indices are i32 (tinygrad; torch uses i64).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[1, 1, 2, 2], &[1.0f32, 7.0, 7.0, 3.0]).unwrap();
    /// let (m, i) = t.max_pool2d_with_indices(&Pool::new([2, 2])).unwrap();
    /// assert_eq!(m.to_vec::<f32>().unwrap(), vec![7.0]);
    /// assert_eq!(i.to_vec::<i32>().unwrap(), vec![1]);
    /// ```
    pub fn max_pool2d_with_indices(&self, p: &Pool) -> Result<(DynTensor, DynTensor)> {
        const OP: &str = "max_pool2d";
        let (windows, w, pads) = self.max_windows(OP, p)?;
        let dims = w.kernel.len();
        let axes = last_axes(dims);
        let sizes = &self.shape()[self.ndim() - dims..];
        let n: usize = sizes.iter().product();
        if n > i32::MAX as usize {
            return Err(Error::Shape {
                op: OP,
                message: format!(
                    "the spatial axes of {:?} have {n} elements, too many for i32 indices",
                    self.shape()
                ),
            });
        }
        // n - flat index, so that the largest marks the first maximum
        let countdown = DynTensor::wrap(Lazy::arange_u32(n)?)
            .cast(DType::I32)
            .flip(&[0])?
            .add(1)?
            .reshape(&sizes.iter().map(|&s| s as isize).collect::<Vec<_>>())?;
        let marks = countdown
            .pad_spatial(&pads, i32::MIN)?
            .pool_window(OP, &w)?;
        let best = windows.max(Some(&axes), true)?;
        let mut hit = windows.eq(&best)?;
        if self.dtype().is_float() {
            hit = hit.logical_or(&windows.isnan()?)?;
        }
        let first = hit.where_(&marks, 0i32)?.max(Some(&axes), false)?;
        Ok((best.squeeze_last(dims)?, first.neg()?.add(n as i32)?))
    }

    /// Drops `dims` trailing size-1 axes.
    fn squeeze_last(&self, dims: usize) -> Result<DynTensor> {
        let keep: Vec<isize> = self.shape()[..self.ndim() - dims]
            .iter()
            .map(|&s| s as isize)
            .collect();
        self.reshape(&keep)
    }

    /// Places each value of `self` at its index from `max_pool2d_with_indices` in a zero
    /// tensor of the pooled input's spatial size: the partial inverse of max pooling.
    ///
    /// `self` and `indices` have shape `(batch, channels, *spatial)`; `p` must describe the
    /// pool that made them (`kernel` may give one size for all spatial axes). The output
    /// spatial sizes are `(i - 1) * stride - pads + dilation * (k - 1) + 1`, or the last
    /// entries of `output_size`. Values sent to one index add up (tinygrad; torch keeps one).
    /// Integer and bool inputs are summed in their accumulation dtype, as tinygrad's `sum`
    /// (an i8 input gives i32).
    ///
    /// Each (batch, channel) row's values summed into their positions through a sort of the
    /// indices (`Lazy::sum_at`): `O((k + n) log k)` for `k` values and `n` output positions,
    /// where tinygrad's one-hot comparison of every index with every position takes `k n`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let v = DynTensor::from_slice(&[1, 1, 1, 2], &[5.0f32, 7.0]).unwrap();
    /// let i = DynTensor::from_slice(&[1, 1, 1, 2], &[1i32, 2]).unwrap();
    /// let u = v.max_unpool2d(&i, &Pool::new([1, 2]), None).unwrap();
    /// assert_eq!(u.to_vec::<f32>().unwrap(), vec![0.0, 5.0, 7.0, 0.0]);
    /// ```
    pub fn max_unpool2d(
        &self,
        indices: &DynTensor,
        p: &Pool,
        output_size: Option<&[usize]>,
    ) -> Result<DynTensor> {
        const OP: &str = "max_unpool2d";
        // (batch, channels, *spatial)
        tg_core::shape::movement::require_rank(OP, self.shape(), 3)?;
        if indices.shape() != self.shape() {
            return Err(Error::Shape {
                op: OP,
                message: format!(
                    "indices of shape {:?} for values of shape {:?}",
                    indices.shape(),
                    self.shape()
                ),
            });
        }
        if !indices.dtype().is_int() {
            return Err(Error::DType {
                op: OP,
                dtype: indices.dtype(),
                message: "indices must be integers".into(),
            });
        }
        let (bs, ch, spatial) = (self.shape()[0], self.shape()[1], &self.shape()[2..]);
        let dims = spatial.len();
        let out: Vec<usize> = match output_size {
            Some(sz) if sz.len() >= dims => sz[sz.len() - dims..].to_vec(),
            Some(sz) => {
                return Err(Error::Argument {
                    op: OP,
                    message: format!(
                        "output_size {sz:?} has fewer than the {dims} spatial axes of {:?}",
                        self.shape()
                    ),
                });
            }
            None => {
                let kernel = Sizes(p.kernel.clone()).resolve(OP, "kernel", dims)?;
                let stride = match &p.stride {
                    Some(s) => s.resolve(OP, "stride", dims)?,
                    None => kernel.clone(),
                };
                let w = Window::new(
                    OP,
                    kernel,
                    stride,
                    p.dilation.resolve(OP, "dilation", dims)?,
                )?;
                let pads = p.padding.resolve(OP, dims)?;
                let sizes: Vec<isize> = (0..dims)
                    .map(|a| {
                        (spatial[a] as isize - 1) * w.stride[a] as isize - (pads[a].0 + pads[a].1)
                            + w.extent()[a] as isize
                    })
                    .collect();
                if sizes.iter().any(|&s| s < 0) {
                    return Err(Error::Shape {
                        op: OP,
                        message: format!(
                            "{p:?} on shape {:?} gives negative output sizes {sizes:?}",
                            self.shape()
                        ),
                    });
                }
                sizes.iter().map(|&s| s as usize).collect()
            }
        };
        let positions: usize = out.iter().product();
        let flat = [bs as isize, ch as isize, -1];
        let mut shape = vec![bs as isize, ch as isize];
        shape.extend(out.iter().map(|&s| s as isize));
        let values = self.reshape(&flat)?.cast(self.sum_acc_dtype());
        let summed = values
            .lazy()
            .sum_at(2, indices.reshape(&flat)?.lazy(), positions)?;
        DynTensor::wrap(summed)
            .cast(self.dtype().sum_dtype())
            .reshape(&shape)
    }
}
