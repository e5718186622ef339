//! Ops built of expand and strided views: repeat, repeat_interleave, roll, diagonal.

use crate::untyped::DynTensor;
use tg_core::decide;
use tg_core::shape::movement;
use tg_runtime::Result;

impl DynTensor {
    /// Tiles the tensor `repeats[i]` times along each axis (numpy's `tile`, torch's `repeat`).
    /// With more repeats than axes, new axes are added on the left; with fewer, the leading
    /// axes are repeated once (tinygrad aligns both from the right).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2], &[1i32, 2]).unwrap();
    /// let r = t.repeat(&[2, 2]).unwrap();
    /// assert_eq!(r.shape(), &[2, 4]);
    /// assert_eq!(r.to_vec::<i32>().unwrap(), vec![1, 2, 1, 2, 1, 2, 1, 2]);
    /// ```
    pub fn repeat(&self, repeats: &[usize]) -> Result<DynTensor> {
        let out = movement::repeat(self.shape(), repeats)?;
        let rank = repeats.len().max(self.ndim());
        let mut base = vec![1usize; rank - self.ndim()];
        base.extend_from_slice(self.shape());
        let mut reps = vec![1usize; rank - repeats.len()];
        reps.extend_from_slice(repeats);
        // each repeated axis s becomes (r, s): an expand of a new size-1 axis, then a merge
        let (mut split, mut wide) = (Vec::new(), Vec::new());
        for (&r, &s) in reps.iter().zip(&base) {
            if r != 1 {
                split.push(1);
                wide.push(r);
            }
            split.push(s);
            wide.push(s);
        }
        Ok(DynTensor::wrap(
            self.lazy.reshape(&split)?.expand(&wide)?.reshape(&out)?,
        ))
    }

    /// Repeats each element `repeats` times in place along `axis`, or along the flattened
    /// tensor with `None` (numpy's `repeat`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3], &[1i32, 2, 3]).unwrap();
    /// let r = t.repeat_interleave(2, None).unwrap();
    /// assert_eq!(r.to_vec::<i32>().unwrap(), vec![1, 1, 2, 2, 3, 3]);
    /// ```
    pub fn repeat_interleave(&self, repeats: usize, axis: Option<isize>) -> Result<DynTensor> {
        let out = movement::repeat_interleave(self.shape(), repeats, axis)?;
        let (x, a) = match axis {
            None => (self.flatten(0, -1)?, 0),
            Some(axis) => (
                self.clone(),
                crate::untyped::norm_axis("repeat_interleave", axis, self.shape())?,
            ),
        };
        let sh = x.shape();
        let mut split = sh[..=a].to_vec();
        split.push(1);
        split.extend_from_slice(&sh[a + 1..]);
        let mut wide = split.clone();
        wide[a + 1] = repeats;
        Ok(DynTensor::wrap(
            x.lazy.reshape(&split)?.expand(&wide)?.reshape(&out)?,
        ))
    }

    /// Rotates elements along `axes` by `shifts` (positive towards higher indices, wrapping
    /// around); with `None`, rolls the flattened tensor by one shift. An axis may be named
    /// once (numpy and torch add repeated shifts, tinygrad keeps the last; tg refuses).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[4], &[0i32, 1, 2, 3]).unwrap();
    /// assert_eq!(t.roll(&[1], Some(&[0])).unwrap().to_vec::<i32>().unwrap(), vec![3, 0, 1, 2]);
    /// assert_eq!(t.roll(&[-1], None).unwrap().to_vec::<i32>().unwrap(), vec![1, 2, 3, 0]);
    /// ```
    pub fn roll(&self, shifts: &[isize], axes: Option<&[isize]>) -> Result<DynTensor> {
        let Some(axes) = movement::roll(self.shape(), shifts, axes)? else {
            return self
                .flatten(0, -1)?
                .roll(shifts, Some(&[0]))?
                .reshape(&self.isize_shape());
        };
        let mut reps = vec![1usize; self.ndim()];
        let mut ranges: Vec<(usize, usize)> = self.shape().iter().map(|&s| (0, s)).collect();
        for (&a, &shift) in axes.iter().zip(shifts) {
            let s = self.shape()[a];
            let k = if s == 0 {
                0
            } else {
                shift.rem_euclid(s as isize) as usize
            };
            if k != 0 {
                // two copies side by side; the window starting at s - k is the rolled axis
                reps[a] = 2;
                ranges[a] = (s - k, 2 * s - k);
            }
        }
        if reps.iter().all(|&r| r == 1) {
            return Ok(self.clone());
        }
        Ok(DynTensor::wrap(self.repeat(&reps)?.lazy.shrink(&ranges)?))
    }

    /// The diagonal of the matrices in axes `dim1` and `dim2`, moved to the last axis after
    /// the other axes (tinygrad's and numpy's definition). `offset > 0` takes a diagonal above
    /// the main one, `offset < 0` one below; an offset past the edge gives an empty diagonal
    /// (as numpy; tinygrad fails).
    ///
    /// Composed as a view: the matrix flattened, padded by one element per row and reshaped
    /// so that the diagonal becomes a column.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3, 3], &[0i32, 1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    /// assert_eq!(t.diagonal(0, 0, 1).unwrap().to_vec::<i32>().unwrap(), vec![0, 4, 8]);
    /// assert_eq!(t.diagonal(1, 0, 1).unwrap().to_vec::<i32>().unwrap(), vec![1, 5]);
    /// ```
    pub fn diagonal(&self, offset: isize, dim1: isize, dim2: isize) -> Result<DynTensor> {
        let ((d1, d2), _) = decide(|ck| movement::diagonal(ck, self.shape(), offset, dim1, dim2))?;
        let mut perm: Vec<usize> = (0..self.ndim()).filter(|&i| i != d1 && i != d2).collect();
        perm.extend([d1, d2]);
        let x = self.lazy.permute(&perm)?;
        let nb = x.ndim() - 2;
        let (rows, cols) = (x.shape()[nb], x.shape()[nb + 1]);
        let mut ranges: Vec<(usize, usize)> = x.shape().iter().map(|&s| (0, s)).collect();
        if offset >= 0 {
            ranges[nb + 1] = ((offset as usize).min(cols), cols);
        } else {
            ranges[nb] = (offset.unsigned_abs().min(rows), rows);
        }
        let x = x.shrink(&ranges)?;
        let batch = &x.shape()[..nb];
        let d = x.shape()[nb].min(x.shape()[nb + 1]);
        let with = |tail: &[usize]| -> Vec<usize> { batch.iter().chain(tail).copied().collect() };
        if d == 0 {
            return Ok(DynTensor::wrap(x.reshape(&with(&[0]))?));
        }
        let square: Vec<(usize, usize)> = batch
            .iter()
            .map(|&s| (0, s))
            .chain([(0, d), (0, d)])
            .collect();
        let pad: Vec<(usize, usize)> = batch.iter().map(|_| (0, 0)).chain([(0, d)]).collect();
        let take: Vec<(usize, usize)> = batch
            .iter()
            .map(|&s| (0, s))
            .chain([(0, d), (0, 1)])
            .collect();
        let diag = x
            .shrink(&square)?
            .reshape(&with(&[d * d]))?
            .pad(&pad)?
            .reshape(&with(&[d, d + 1]))?
            .shrink(&take)?
            .reshape(&with(&[d]))?;
        Ok(DynTensor::wrap(diag))
    }

    fn isize_shape(&self) -> Vec<isize> {
        self.shape().iter().map(|&s| s as isize).collect()
    }
}
