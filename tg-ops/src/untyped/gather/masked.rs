//! masked_select and nonzero: the selected elements, or their positions, packed to the front.
//!
//! Output `k` takes the selected element whose running count of selected elements is
//! `k + 1`, the first position where the running count (a prefix sum of the mask) reaches
//! `k + 1`: a binary search per output, whose halving steps read the count at their
//! midpoints (gathers) and fuse into one kernel, then a gather of the element. Without a
//! `size` the length depends on the data, so the count is realized first.

use tg_runtime::{DType, Error, Result, Scalar};

use crate::untyped::DynTensor;
use crate::untyped::indexing::select::counter;

/// For the flat bool `mask` (length `n`): the position each of `len` outputs takes (`n` where
/// fewer than `len` are selected), as i32 of shape `[len]`.
fn packing(mask: &DynTensor, len: usize) -> Result<DynTensor> {
    let running = mask.cast(DType::I32).cumsum(0)?; // [n]
    let targets = counter(len, DType::I32)?.add(1)?;
    Ok(DynTensor::wrap(running.lazy().lower_bound(targets.lazy())?))
}

/// The number of true elements of a bool tensor, read back.
fn count(mask: &DynTensor) -> Result<usize> {
    let n = mask.cast(DType::I32).sum(None, false)?.to_vec::<i64>()?;
    Ok(n.first().copied().unwrap_or(0).max(0) as usize)
}

impl DynTensor {
    /// The elements where `mask` (bool, broadcast to this tensor's shape) is true, in
    /// row-major order, as a rank-1 tensor whose length depends on the data: the count is
    /// computed and read back first (one realize). [`masked_select_sized`](Self::masked_select_sized)
    /// avoids that.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[1i32, 2, 3, 4]).unwrap();
    /// let m = DynTensor::from_slice(&[2, 2], &[true, false, false, true]).unwrap();
    /// assert_eq!(t.masked_select(&m).unwrap().to_vec::<i32>().unwrap(), vec![1, 4]);
    /// ```
    pub fn masked_select(&self, mask: &DynTensor) -> Result<DynTensor> {
        let m = self.select_mask("masked_select", mask)?;
        let len = count(&m)?;
        self.masked_select_sized(mask, len, 0)
    }

    /// `masked_select` into exactly `size` elements: cut off past `size`, and filled with
    /// `fill_value` (converted to this dtype) where fewer are selected. Nothing is read back.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3], &[5.0f32, 6.0, 7.0]).unwrap();
    /// let m = DynTensor::from_slice(&[3], &[false, true, true]).unwrap();
    /// let s = t.masked_select_sized(&m, 4, -1.0).unwrap();
    /// assert_eq!(s.to_vec::<f32>().unwrap(), vec![6.0, 7.0, -1.0, -1.0]);
    /// ```
    pub fn masked_select_sized(
        &self,
        mask: &DynTensor,
        size: usize,
        fill_value: impl Into<Scalar>,
    ) -> Result<DynTensor> {
        let m = self.select_mask("masked_select", mask)?.reshape(&[-1])?;
        let x = self.reshape(&[-1])?;
        let pos = packing(&m, size)?;
        let has = pos.lt(m.numel() as i64)?;
        let fill = DynTensor::full(&[], fill_value.into().cast(self.dtype()), self.dtype())?;
        has.where_(&x.gather(0, &pos)?, &fill)
    }

    /// The bool mask of `masked_select`, broadcast to this tensor's shape.
    fn select_mask(&self, op: &'static str, mask: &DynTensor) -> Result<DynTensor> {
        if mask.dtype() != DType::Bool {
            return Err(Error::DType {
                op,
                dtype: mask.dtype(),
                message: "the mask must be bool".into(),
            });
        }
        mask.broadcast_to(self.shape())
            .map_err(|_| Error::Broadcast {
                op,
                lhs: mask.shape().to_vec(),
                rhs: self.shape().to_vec(),
            })
    }

    /// The positions of the nonzero elements (NaN counts as nonzero), one row of `ndim`
    /// coordinates each, in row-major order: shape `[count, ndim]`, i32 (tinygrad's default
    /// int; numpy and torch give i64). The count is computed and read back first (one
    /// realize); [`nonzero_sized`](Self::nonzero_sized) avoids that.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[1i32, 0, 0, 2]).unwrap();
    /// let nz = t.nonzero().unwrap();
    /// assert_eq!(nz.shape(), &[2, 2]);
    /// assert_eq!(nz.to_vec::<i32>().unwrap(), vec![0, 0, 1, 1]);
    /// ```
    pub fn nonzero(&self) -> Result<DynTensor> {
        let len = count(&self.ne(0)?)?;
        self.nonzero_sized(len, 0)
    }

    /// `nonzero` into exactly `size` rows: cut off past `size`, and rows of `fill_value`
    /// where fewer elements are nonzero. Nothing is read back.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3], &[0.0f32, 4.0, 0.0]).unwrap();
    /// assert_eq!(t.nonzero_sized(2, -1).unwrap().to_vec::<i32>().unwrap(), vec![1, -1]);
    /// ```
    pub fn nonzero_sized(&self, size: usize, fill_value: i32) -> Result<DynTensor> {
        let r = self.ndim();
        let mask = self.ne(0)?.reshape(&[-1])?;
        if r == 0 {
            return DynTensor::zeros(&[size, 0], DType::I32);
        }
        let n = mask.numel();
        let pos = packing(&mask, size)?; // [size]
        let has = pos.lt(n as i64)?.reshape(&[size as isize, 1])?;
        // each position's coordinates, row-major: [size, r]
        let mut stride = n;
        let coords = (0..r)
            .map(|a| {
                let outer = stride;
                stride /= self.shape()[a].max(1);
                pos.fmod(outer.max(1) as i64)?.idiv(stride.max(1) as i64)
            })
            .collect::<Result<Vec<_>>>()?;
        let picked = DynTensor::stack(&coords, -1)?;
        has.where_(&picked, fill_value)
    }
}
