//! Reading and writing at positions held in tensors: gather, scatter, scatter_reduce,
//! masked_select, nonzero, and interpolate (which gathers at computed positions).
//!
//! Reads go through the runtime's gather primitive (`Lazy::gather`): the work is the output's
//! size. There is no scatter primitive: writes are grouped by the position they name
//! (`Lazy::writes_by_position`: a merge sort, then a binary search per position, which the
//! gather's gradient also sums through); a write takes each position's last writer
//! (`search.rs`), a reduction combines each group in a tree (`Lazy::combine_at`), where
//! tinygrad lays a one-hot mask (index == position) over the output. Either way positions out
//! of range read 0 or write nothing.

mod interpolate;
mod masked;
mod scatter;
mod search;

pub use interpolate::Interpolation;
pub use scatter::{ScatterOp, ScatterReduce};
pub(crate) use search::last_writers;

use tg_runtime::{Error, Result};

use super::{DynTensor, norm_axis_scalar_ok};

/// Checks that `index` is an integer tensor.
pub(crate) fn check_index(op: &'static str, index: &DynTensor) -> Result<()> {
    if index.dtype().is_int() {
        return Ok(());
    }
    Err(Error::DType {
        op,
        dtype: index.dtype(),
        message: "the index must be an integer tensor".into(),
    })
}

impl DynTensor {
    /// `out[i][j][k] = self[index[i][j][k]][j][k]` (for `dim` 0; likewise for other axes):
    /// values along `dim` read at the positions `index` holds. `index` has `self`'s rank and
    /// no larger size than `self` on the other axes (it reads their leading part); the
    /// result has `index`'s shape and `self`'s dtype.
    ///
    /// As tinygrad, positions are not wrapped or checked: negative or out-of-range ones read
    /// 0 (torch fails).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[1i32, 2, 3, 4]).unwrap();
    /// let i = DynTensor::from_slice(&[2, 2], &[0i32, 0, 1, 0]).unwrap();
    /// assert_eq!(t.gather(1, &i).unwrap().to_vec::<i32>().unwrap(), vec![1, 1, 4, 3]);
    /// ```
    pub fn gather(&self, dim: isize, index: &DynTensor) -> Result<DynTensor> {
        check_index("gather", index)?;
        if index.ndim() != self.ndim() {
            return Err(Error::Shape {
                op: "gather",
                message: format!(
                    "the index must have the input's rank: index {:?}, input {:?}",
                    index.shape(),
                    self.shape()
                ),
            });
        }
        let d = norm_axis_scalar_ok("gather", dim, self.shape())?;
        if self.ndim() == 0 {
            // a rank-0 gather reads the one element at position 0
            return index.eq(0)?.where_(self, self.zeros_like());
        }
        if let Some(a) = (0..self.ndim()).find(|&a| a != d && index.shape()[a] > self.shape()[a]) {
            return Err(Error::Shape {
                op: "gather",
                message: format!(
                    "index {:?} is larger than input {:?} on axis {a} (only axis {dim} may differ)",
                    index.shape(),
                    self.shape()
                ),
            });
        }
        // the other axes cut to the index's sizes; along `dim` the primitive reads
        let keep: Vec<Option<usize>> = index
            .shape()
            .iter()
            .enumerate()
            .map(|(a, &s)| if a == d { None } else { Some(s) })
            .collect();
        let x = self.shrink_to(&keep)?;
        Ok(DynTensor::wrap(x.lazy().gather(d, index.lazy())?))
    }
}
