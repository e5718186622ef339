//! Sorting: sort (values and indices), argsort, topk.
//!
//! A bitonic network, as tinygrad sorts: the axis is padded to a power of two `2^s` and seen
//! as `s` axes of size 2, so each compare-exchange step is elementwise between the tensor and
//! its flip along one of those axes. tinygrad flips whole half-blocks so that every
//! comparator points one way; here each block's direction comes from its index bit instead,
//! the same network without the extra flips, so every step reads its input through two views
//! only. The indices are recovered as tinygrad does: the `j`-th occurrence of a value in the
//! sorted row is the `j`-th occurrence in the input, so equal values keep their input order
//! (a stable sort, ascending or descending) at the cost of `n^2` comparisons per row.
//!
//! NaN sorts above every number (numpy's and torch's rule: last ascending, first
//! descending). Index outputs are i32.

use super::scan::{after_diagonal, cols_of, rows_of, same, square_mask};
use super::{DynTensor, norm_axis_scalar_ok};
use tg_runtime::{BinaryOp, DType, Error, Lazy, ReduceOp, Result, Scalar};

/// `a < b` in the sort order: NaN above everything (and equal to itself).
fn before(a: &Lazy, b: &Lazy) -> Result<Lazy> {
    let lt = a.binary(BinaryOp::CmpLt, b)?;
    if !a.dtype().is_float() {
        return Ok(lt);
    }
    let a_num = a.binary(BinaryOp::CmpEq, a)?;
    let b_nan = b.binary(BinaryOp::CmpNe, b)?;
    lt.binary(BinaryOp::Or, &a_num.binary(BinaryOp::And, &b_nan)?)
}

/// A bool constant of `shape` that is `first` where the index along `axis` (of size 2) is 0,
/// and `!first` where it is 1.
fn half_mask(shape: &[usize], axis: usize, first: bool) -> Result<Lazy> {
    let mut s = vec![1; shape.len()];
    s[axis] = 2;
    let mut pad = vec![(0, 0); shape.len()];
    pad[axis] = (0, 1);
    // [true, false] along axis; pad fills with false
    let m = Lazy::constant(true, DType::Bool, &vec![1; shape.len()])?
        .pad(&pad)?
        .reshape(&s)?
        .expand(shape)?;
    if first {
        Ok(m)
    } else {
        m.binary(BinaryOp::Xor, &Lazy::constant(true, DType::Bool, shape)?)
    }
}

/// Pads the last axis of `x` to `2^stages` with values that sort after everything (NaN or
/// the maximum ascending, `-inf` or the minimum descending).
fn pad_pow2(x: &DynTensor, stages: usize, descending: bool) -> Result<DynTensor> {
    let dt = x.dtype();
    let n = x.shape()[x.ndim() - 1];
    let fill = match (dt.is_float(), descending) {
        (true, false) => Scalar::Float(f64::NAN),
        (true, true) => Scalar::Float(f64::NEG_INFINITY),
        (false, false) if dt.is_unsigned() => Scalar::UInt(dt.int_max() as u64),
        (false, false) => Scalar::Int(dt.int_max() as i64),
        (false, true) if dt.is_unsigned() => Scalar::UInt(0),
        (false, true) => Scalar::Int(dt.int_min() as i64),
    };
    let mut pads = vec![(0isize, 0isize); x.ndim()];
    pads[x.ndim() - 1] = (0, ((1usize << stages) - n) as isize);
    x.pad(&pads, fill)
}

/// The bitonic network over the last axis (already `2^stages` long), ascending or not.
fn bitonic(x: &Lazy, stages: usize, descending: bool) -> Result<Lazy> {
    let batch = x.ndim() - 1;
    let mut bits = x.shape()[..batch].to_vec();
    bits.extend(std::iter::repeat_n(2, stages));
    let mut x = x.reshape(&bits)?;
    // axis batch + t holds bit (stages - 1 - t) of the position
    let axis_of = |bit: usize| batch + stages - 1 - bit;
    for stage in 1..=stages {
        // blocks of 2^stage sort ascending where bit `stage` of the position is 0
        let up = if stage == stages {
            Lazy::constant(!descending, DType::Bool, &bits)?
        } else {
            half_mask(&bits, axis_of(stage), !descending)?
        };
        for bit in (0..stage).rev() {
            let partner = x.flip(&[axis_of(bit)])?;
            // the lower position of a pair keeps the smaller value in an ascending block
            let low = half_mask(&bits, axis_of(bit), true)?;
            let keep_small = low.binary(BinaryOp::CmpEq, &up)?;
            let take = keep_small.where_(&before(&partner, &x)?, &before(&x, &partner)?)?;
            x = take.where_(&partner, &x)?;
        }
    }
    let mut flat = bits[..batch].to_vec();
    flat.push(1 << stages);
    x.reshape(&flat)
}

/// For each position `i` of the last axis, how many `j <= i` hold the same value (the
/// occurrence number of `x[i]`, from 1), as i32.
fn occurrence(x: &Lazy) -> Result<Lazy> {
    let n = x.shape()[x.ndim() - 1];
    let eq = same(&rows_of(x)?, &cols_of(x)?)?;
    let skip = square_mask(&after_diagonal(n)?, eq.shape())?;
    let one = Lazy::constant(1, DType::I32, eq.shape())?;
    let zero = Lazy::constant(0, DType::I32, eq.shape())?;
    let count = skip
        .where_(&zero, &eq.where_(&one, &zero)?)?
        .reduce(ReduceOp::Add, &[x.ndim()])?;
    let s = count.shape();
    count.reshape(&s[..s.len() - 1])
}

/// The input index of each sorted value: the position `k` of the input holding the same
/// value with the same occurrence number.
fn source_index(input: &Lazy, sorted: &Lazy) -> Result<Lazy> {
    let n = input.shape()[input.ndim() - 1];
    // (i, k): sorted[i] against input[k]
    let value = same(&cols_of(sorted)?, &rows_of(input)?)?;
    let nth =
        cols_of(&occurrence(sorted)?)?.binary(BinaryOp::CmpEq, &rows_of(&occurrence(input)?)?)?;
    let shape = value.shape().to_vec();
    let mut row = vec![1; shape.len() - 1];
    row.push(n);
    let k = super::random::index_u32(n)?
        .cast(DType::I32)
        .reshape(&row)?
        .expand(&shape)?;
    let zero = Lazy::constant(0, DType::I32, &shape)?;
    let hit = value.binary(BinaryOp::And, &nth)?;
    let idx = hit
        .where_(&k, &zero)?
        .reduce(ReduceOp::Add, &[shape.len() - 1])?;
    let s = idx.shape();
    idx.reshape(&s[..s.len() - 1])
}

impl DynTensor {
    /// Sorts along `axis` (ascending, or descending), returning the values and, as i32, the
    /// input index of each. Equal values keep their input order in either direction (a
    /// stable sort); NaN sorts above every number. Any length works (the network pads to a
    /// power of two); bool sorts as 0 and 1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[5], &[3.0f32, 1.0, 3.0, f32::NAN, 2.0]).unwrap();
    /// let (v, i) = t.sort(0, false).unwrap();
    /// let v = v.to_vec::<f32>().unwrap();
    /// assert_eq!(&v[..4], &[1.0, 2.0, 3.0, 3.0]);
    /// assert!(v[4].is_nan());
    /// assert_eq!(i.to_vec::<i32>().unwrap(), vec![1, 4, 0, 2, 3]);
    /// let (_, i) = t.sort(0, true).unwrap();
    /// assert_eq!(i.to_vec::<i32>().unwrap(), vec![3, 0, 2, 4, 1]);
    /// ```
    pub fn sort(&self, axis: isize, descending: bool) -> Result<(DynTensor, DynTensor)> {
        let a = norm_axis_scalar_ok("sort", axis, self.shape())?;
        let n = self.shape().get(a).copied().unwrap_or(1);
        if n <= 1 || self.numel() == 0 {
            return Ok((self.clone(), DynTensor::zeros(self.shape(), DType::I32)?));
        }
        let x = self.transpose(a as isize, -1)?;
        // bool has no order comparison: sort it as u8
        let key = if x.dtype().is_bool() {
            x.cast(DType::U8)
        } else {
            x
        };
        let stages = (usize::BITS - (n - 1).leading_zeros()) as usize;
        let padded = pad_pow2(&key, stages, descending)?;
        let net = bitonic(&padded.lazy, stages, descending)?;
        let mut keep: Vec<(usize, usize)> = key.shape().iter().map(|&d| (0, d)).collect();
        keep[key.ndim() - 1] = (0, n);
        let sorted = net.shrink(&keep)?;
        let index = source_index(&key.lazy, &sorted)?;
        let back = |l: Lazy| DynTensor::wrap(l).transpose(a as isize, -1);
        Ok((back(sorted)?.cast(self.dtype()), back(index)?))
    }

    /// The input indices (i32) that sort `self` along `axis`: the indices of
    /// [`DynTensor::sort`] (stable in either direction).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 3], &[2i32, 3, 1, 1, 1, 0]).unwrap();
    /// assert_eq!(t.argsort(-1, false).unwrap().to_vec::<i32>().unwrap(), vec![2, 0, 1, 2, 0, 1]);
    /// ```
    pub fn argsort(&self, axis: isize, descending: bool) -> Result<DynTensor> {
        Ok(self.sort(axis, descending)?.1)
    }

    /// The `k` largest (or smallest) values along `axis`, in order, and their input indices
    /// (i32); equal values come in input order. Always sorted (tinygrad has no unsorted
    /// form either); `k` larger than the axis is an error.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[5], &[0.1f32, 0.5, 1.2, 3.4, 2.1]).unwrap();
    /// let (v, i) = t.topk(2, 0, true).unwrap();
    /// assert_eq!((v.to_vec::<f32>().unwrap(), i.to_vec::<i32>().unwrap()), (vec![3.4, 2.1], vec![3, 4]));
    /// let (v, _) = t.topk(2, 0, false).unwrap();
    /// assert_eq!(v.to_vec::<f32>().unwrap(), vec![0.1, 0.5]);
    /// ```
    pub fn topk(&self, k: usize, axis: isize, largest: bool) -> Result<(DynTensor, DynTensor)> {
        let a = norm_axis_scalar_ok("topk", axis, self.shape())?;
        let n = self.shape().get(a).copied().unwrap_or(1);
        if k > n {
            return Err(Error::Argument {
                op: "topk",
                message: format!(
                    "k = {k} is more than the {n} elements along axis {axis} of shape {:?}",
                    self.shape()
                ),
            });
        }
        let (values, index) = self.sort(axis, largest)?;
        if self.ndim() == 0 {
            return Ok((values, index));
        }
        let mut keep: Vec<Option<usize>> = vec![None; self.ndim()];
        keep[a] = Some(k);
        Ok((values.shrink_to(&keep)?, index.shrink_to(&keep)?))
    }
}
