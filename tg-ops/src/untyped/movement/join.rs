//! Joining and cutting tensors along an axis: cat, stack, split, split_every, chunk.

use super::{arg_err, shape_err};
use crate::untyped::{DynTensor, norm_axis};
use tg_runtime::{DType, Lazy, Result};

impl DynTensor {
    /// Concatenates `tensors` along `axis`; all other sizes must agree, and the sizes along
    /// `axis` may differ. The result has the least upper dtype of the inputs.
    ///
    /// Each input is padded out to the full result and selected in by a mask, so the result
    /// is one fused kernel and keeps every bit (-0.0, NaN payloads) of every input.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = DynTensor::from_slice(&[1, 2], &[1i32, 2]).unwrap();
    /// let b = DynTensor::from_slice(&[2, 2], &[3i32, 4, 5, 6]).unwrap();
    /// let c = DynTensor::cat(&[a, b], 0).unwrap();
    /// assert_eq!(c.shape(), &[3, 2]);
    /// assert_eq!(c.to_vec::<i32>().unwrap(), vec![1, 2, 3, 4, 5, 6]);
    /// ```
    pub fn cat(tensors: &[DynTensor], axis: isize) -> Result<DynTensor> {
        let Some(first) = tensors.first() else {
            return Err(arg_err("cat", "needs at least one tensor".into()));
        };
        if first.ndim() == 0 {
            return Err(shape_err(
                "cat",
                "rank-0 tensors have no axis to concatenate along; use stack".into(),
            ));
        }
        let a = norm_axis("cat", axis, first.ndim())?;
        for t in tensors {
            let same = t.ndim() == first.ndim()
                && t.shape()
                    .iter()
                    .zip(first.shape())
                    .enumerate()
                    .all(|(i, (x, y))| i == a || x == y);
            if !same {
                let all: Vec<String> = tensors.iter().map(|t| format!("{:?}", t.shape())).collect();
                return Err(shape_err(
                    "cat",
                    format!("shapes {} differ outside axis {axis}", all.join(", ")),
                ));
            }
        }
        let dtype = tensors
            .iter()
            .fold(first.dtype(), |d, t| d.least_upper(t.dtype()));
        let total: usize = tensors.iter().map(|t| t.shape()[a]).sum();
        let mut out: Option<Lazy> = None;
        let mut offset = 0;
        for t in tensors {
            let n = t.shape()[a];
            if n == 0 {
                continue;
            }
            let mut pads = vec![(0, 0); t.ndim()];
            pads[a] = (offset, total - offset - n);
            offset += n;
            let piece = t.lazy.cast(dtype).pad(&pads)?;
            out = Some(match out {
                None => piece,
                Some(acc) => Lazy::constant(true, DType::Bool, t.shape())?
                    .pad(&pads)?
                    .where_(&piece, &acc)?,
            });
        }
        let mut shape = first.shape().to_vec();
        shape[a] = total;
        Ok(DynTensor::wrap(match out {
            Some(out) => out,
            None => Lazy::constant(0, dtype, &shape)?,
        }))
    }

    /// Joins equal-shaped `tensors` along a new axis `axis` (in `-(rank+1)..=rank`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = DynTensor::from_slice(&[2], &[1i32, 2]).unwrap();
    /// let b = DynTensor::from_slice(&[2], &[3i32, 4]).unwrap();
    /// let s = DynTensor::stack(&[a, b], 1).unwrap();
    /// assert_eq!(s.shape(), &[2, 2]);
    /// assert_eq!(s.to_vec::<i32>().unwrap(), vec![1, 3, 2, 4]);
    /// ```
    pub fn stack(tensors: &[DynTensor], axis: isize) -> Result<DynTensor> {
        let Some(first) = tensors.first() else {
            return Err(arg_err("stack", "needs at least one tensor".into()));
        };
        if let Some(t) = tensors.iter().find(|t| t.shape() != first.shape()) {
            return Err(shape_err(
                "stack",
                format!("shapes {:?} and {:?} differ", first.shape(), t.shape()),
            ));
        }
        let a = norm_axis("stack", axis, first.ndim() + 1)?;
        let parts = tensors
            .iter()
            .map(|t| t.unsqueeze(a as isize))
            .collect::<Result<Vec<_>>>()?;
        DynTensor::cat(&parts, a as isize)
    }

    /// Cuts `axis` into consecutive pieces of `sizes`, which must sum to its size.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[5], &[0i32, 1, 2, 3, 4]).unwrap();
    /// let parts = t.split(&[1, 4], 0).unwrap();
    /// assert_eq!(parts[1].to_vec::<i32>().unwrap(), vec![1, 2, 3, 4]);
    /// ```
    pub fn split(&self, sizes: &[usize], axis: isize) -> Result<Vec<DynTensor>> {
        let a = norm_axis("split", axis, self.ndim())?;
        let n = self.shape()[a];
        if sizes.iter().sum::<usize>() != n {
            return Err(shape_err(
                "split",
                format!(
                    "sizes {sizes:?} do not sum to {n}, the size of axis {axis} of {:?}",
                    self.shape()
                ),
            ));
        }
        let mut start = 0;
        let mut out = Vec::with_capacity(sizes.len());
        for &s in sizes {
            let mut ranges: Vec<(usize, usize)> = self.shape().iter().map(|&d| (0, d)).collect();
            ranges[a] = (start, start + s);
            start += s;
            out.push(DynTensor::wrap(self.lazy.shrink(&ranges)?));
        }
        Ok(out)
    }

    /// Cuts `axis` into pieces of `size` elements; the last may be smaller (tinygrad's
    /// `split` with an int). An empty axis gives one empty piece.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[5, 2], DType::F32).unwrap();
    /// let parts = t.split_every(2, 0).unwrap();
    /// assert_eq!(parts.iter().map(|p| p.shape()[0]).collect::<Vec<_>>(), vec![2, 2, 1]);
    /// ```
    pub fn split_every(&self, size: usize, axis: isize) -> Result<Vec<DynTensor>> {
        if size == 0 {
            return Err(arg_err("split", "piece size must be positive".into()));
        }
        let a = norm_axis("split", axis, self.ndim())?;
        let n = self.shape()[a];
        let sizes: Vec<usize> = if n == 0 {
            vec![0]
        } else {
            (0..n).step_by(size).map(|i| size.min(n - i)).collect()
        };
        self.split(&sizes, axis)
    }

    /// Cuts `axis` into `chunks` pieces of `ceil(size / chunks)` elements, the last smaller;
    /// there may be fewer than `chunks` pieces (tinygrad's and torch's rule). An empty axis
    /// gives `chunks` empty pieces.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[11], DType::F32).unwrap();
    /// let parts = t.chunk(6, 0).unwrap();
    /// assert_eq!(parts.iter().map(|p| p.shape()[0]).collect::<Vec<_>>(), vec![2, 2, 2, 2, 2, 1]);
    /// ```
    pub fn chunk(&self, chunks: usize, axis: isize) -> Result<Vec<DynTensor>> {
        if chunks == 0 {
            return Err(arg_err(
                "chunk",
                "the number of chunks must be positive".into(),
            ));
        }
        let a = norm_axis("chunk", axis, self.ndim())?;
        let n = self.shape()[a];
        if n == 0 {
            return self.split(&vec![0; chunks], axis);
        }
        self.split_every(n.div_ceil(chunks), axis)
    }
}
