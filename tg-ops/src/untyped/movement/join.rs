//! Joining and cutting tensors along an axis: cat, stack, split, split_every, chunk.

use crate::untyped::DynTensor;
use tg_core::decide;
use tg_core::shape::join;
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
        let shapes: Vec<&[usize]> = tensors.iter().map(|t| t.shape()).collect();
        let (a, shape) = decide(|ck| join::cat(ck, &shapes, axis))?;
        let first = &tensors[0];
        let dtype = tensors
            .iter()
            .fold(first.dtype(), |d, t| d.least_upper(t.dtype()));
        let total = shape[a];
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
        let shapes: Vec<&[usize]> = tensors.iter().map(|t| t.shape()).collect();
        let (a, _) = decide(|ck| join::stack(ck, &shapes, axis))?;
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
        let (a, pieces) = decide(|ck| join::split(ck, self.shape(), sizes, axis))?;
        self.cut(a, &pieces)
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
        let (a, pieces) = join::split_every(self.shape(), size, axis)?;
        self.cut(a, &pieces)
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
        let (a, pieces) = join::chunk(self.shape(), chunks, axis)?;
        self.cut(a, &pieces)
    }

    /// Consecutive pieces of axis `a` with the shapes `pieces` (which the rules made).
    fn cut(&self, a: usize, pieces: &[Vec<usize>]) -> Result<Vec<DynTensor>> {
        let mut start = 0;
        let mut out = Vec::with_capacity(pieces.len());
        for piece in pieces {
            let mut ranges: Vec<(usize, usize)> = self.shape().iter().map(|&d| (0, d)).collect();
            ranges[a] = (start, start + piece[a]);
            start += piece[a];
            out.push(DynTensor::wrap(self.lazy.shrink(&ranges)?));
        }
        Ok(out)
    }
}
