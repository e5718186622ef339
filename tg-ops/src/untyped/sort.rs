//! Sorting: sort (values and indices), argsort, topk.
//!
//! A sort is a merge sort: each element becomes a record of u32 words, its key (`key_words`:
//! words whose word-by-word order is the requested order, NaN above every number, `-0`
//! equal to `+0`) and its input index, and the runtime's `merge_sort` sorts each row's runs
//! of 32 records in registers (`sort_runs`), then `merge_runs` merges the sorted runs in
//! pairs until one run is the row: `ceil(log2 n) - 4` kernels of `O(n)` work, `O(n log n)`
//! per row (tinygrad: a bitonic network, `O(n log^2 n)`, and indices by counting
//! occurrences, `n^2`). Equal keys are ordered by index, so the sort is stable in either
//! direction. The values are the input read at the sorted indices (a gather), differentiated
//! as a permutation: the gradient is read back through the inverse permutation, itself a
//! sort of the indices. 2^20 f32 on lavapipe: 133-136 ms GPU time, where merging from runs
//! of one took 159-163 and the network 521-612.
//!
//! topk of a few (`k` up to about `2^(sqrt(6 (log2 n - 4)))`: 128 of 2^20) runs part of a
//! bitonic network instead (see `bitonic_top`): blocks of the next power of two above `k`,
//! then rounds that keep the first half of each pair of blocks, `O(n log^2 k)` work (`k = 16`
//! of 2^20: 54-59 ms against the sort's 133-136). The network sorts (value, input index) pairs,
//! compared by value in the requested direction and then by index (stable too); a pair is one
//! tensor, the value and its index the two lanes of a last axis of size 2 in one dtype that
//! holds both (the value's, widened to 32 bits), so a step is one kernel that compares once
//! per pair and moves both lanes. The value lane is the value itself (a cast at most), so the
//! gradient of the values flows back through the selects; the index lane is the u32 index's
//! bits (or, in a 64-bit lane, its value) and carries none. Those bits may read as a
//! subnormal or any float, which the network only loads, selects and stores: moves, which
//! never flush or canonicalize (Vulkan lets only floating-point arithmetic flush
//! subnormals).
//!
//! NaN sorts above every number (numpy's and torch's rule: last ascending, first
//! descending). Index outputs are i32.

use super::scan::same;
use super::{DynTensor, norm_axis_scalar_ok};
use tg_runtime::graph::lazy::MAX_SORT_RUN;
use tg_runtime::{BinaryOp, DType, Error, Lazy, Result, Scalar};

/// `a < b` in ascending order: NaN above everything (and equal to itself).
fn before(a: &Lazy, b: &Lazy) -> Result<Lazy> {
    let lt = a.binary(BinaryOp::CmpLt, b)?;
    if !a.dtype().is_float() {
        return Ok(lt);
    }
    let a_num = a.binary(BinaryOp::CmpEq, a)?;
    let b_nan = b.binary(BinaryOp::CmpNe, b)?;
    lt.binary(BinaryOp::Or, &a_num.binary(BinaryOp::And, &b_nan)?)
}

/// The dtype both lanes of a pair have: the value's, widened to 32 bits (exactly).
fn lane_dtype(value: DType) -> DType {
    match value {
        DType::F16 => DType::F32,
        DType::Bool | DType::U8 | DType::U16 => DType::U32,
        DType::I8 | DType::I16 => DType::I32,
        wide => wide,
    }
}

/// The elements of the network: (value, input index) pairs, the lanes of the last axis of
/// `lanes` (shape `[.., 2]`, lane dtype). `shape` is the pairs' shape (without the lanes).
struct Pairs {
    lanes: Lazy,
    shape: Vec<usize>,
}

impl Pairs {
    /// Pairs of `value` (lane dtype) and `index` (u32), both of `shape`.
    fn pack(value: &Lazy, index: &Lazy) -> Result<Pairs> {
        let shape = value.shape().to_vec();
        let lane = value.dtype();
        let index = if lane.size() == 8 {
            index.cast(lane)
        } else {
            index.bitcast(lane)?
        };
        let mut one: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
        one.push(1);
        // `cat` joins by selecting, so the index's bits are not added to anything
        let lane = |l: &Lazy| DynTensor::wrap(l.clone()).reshape(&one);
        let lanes = DynTensor::cat(&[lane(value)?, lane(&index)?], -1)?.into_lazy();
        Ok(Pairs { lanes, shape })
    }

    fn with_lanes(shape: &[usize]) -> Vec<usize> {
        let mut s = shape.to_vec();
        s.push(2);
        s
    }

    fn lane(&self, lane: usize) -> Result<Lazy> {
        let mut keep: Vec<(usize, usize)> = self.shape.iter().map(|&d| (0, d)).collect();
        keep.push((lane, lane + 1));
        self.lanes.shrink(&keep)?.reshape(&self.shape)
    }

    /// The values (lane dtype).
    fn value(&self) -> Result<Lazy> {
        self.lane(0)
    }

    /// The input indices (u32).
    fn index(&self) -> Result<Lazy> {
        let bits = self.lane(1)?;
        if bits.dtype().size() == 8 {
            Ok(bits.cast(DType::U32))
        } else {
            bits.bitcast(DType::U32)
        }
    }

    /// Where `self`'s pairs come before `other`'s in the output: by value in the sort's
    /// direction, equal values by index (the total order that makes the sort stable).
    fn first(&self, other: &Pairs, descending: bool) -> Result<Lazy> {
        let (a, b) = (self.value()?, other.value()?);
        let by_value = if descending {
            before(&b, &a)?
        } else {
            before(&a, &b)?
        };
        let by_index = same(&a, &b)?.binary(
            BinaryOp::And,
            &self.index()?.binary(BinaryOp::CmpLt, &other.index()?)?,
        )?;
        by_value.binary(BinaryOp::Or, &by_index)
    }

    fn flip(&self, axis: usize) -> Result<Pairs> {
        Ok(Pairs {
            lanes: self.lanes.flip(&[axis])?,
            shape: self.shape.clone(),
        })
    }

    /// The pairs whose position along `axis` (of size 2) is 0, without that axis.
    fn first_half(&self, axis: usize) -> Result<Pairs> {
        let mut keep: Vec<(usize, usize)> = self.shape.iter().map(|&d| (0, d)).collect();
        keep[axis] = (0, 1);
        keep.push((0, 2));
        let mut shape = self.shape.clone();
        shape.remove(axis);
        Ok(Pairs {
            lanes: self
                .lanes
                .shrink(&keep)?
                .reshape(&Self::with_lanes(&shape))?,
            shape,
        })
    }

    /// `yes` where `take` (of the pairs' shape) holds, else `no`.
    fn select(take: &Lazy, yes: &Pairs, no: &Pairs) -> Result<Pairs> {
        let mut one = no.shape.clone();
        one.push(1);
        let take = take.reshape(&one)?.expand(&Self::with_lanes(&no.shape))?;
        Ok(Pairs {
            lanes: take.where_(&yes.lanes, &no.lanes)?,
            shape: no.shape.clone(),
        })
    }
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
/// the maximum ascending, `-inf` or the minimum descending; ties with real values go by
/// index, and the padding's indices are the largest).
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

/// The first `2^keep` pairs of each row of `x` (last axis `2^stages` long, lane dtype; `keep
/// <= stages`) in output order: their values and the position in `x` each came from (i32).
/// `keep == stages` is the whole bitonic sort.
///
/// With fewer kept (topk), the network first sorts blocks of `2^keep`, alternately forward
/// and backward (the first `keep` stages of the sort). Then, while more than one block is
/// left, each forward block and the backward one beside it (together a bitonic sequence) go
/// through one compare-exchange step across them, after which the forward block holds the
/// pair's first `2^keep` (in bitonic order, as a bitonic merge leaves them) and the other
/// block is dropped; `keep` merge steps put the kept blocks in alternating order again. Each
/// round halves the data: `O(n keep^2)` work instead of `O(n stages^2)`, and `keep = 0`
/// (top 1) is a tournament.
fn bitonic_top(x: &Lazy, stages: usize, keep: usize, descending: bool) -> Result<(Lazy, Lazy)> {
    let batch = x.ndim() - 1;
    let mut row = vec![1; x.ndim()];
    row[batch] = 1 << stages;
    let index = Lazy::arange_u32(1 << stages)?
        .reshape(&row)?
        .expand(x.shape())?;
    let mut bits = x.shape()[..batch].to_vec();
    bits.extend(std::iter::repeat_n(2, stages));
    let mut x = Pairs::pack(&x.reshape(&bits)?, &index.reshape(&bits)?)?;
    // with `left` bit axes, axis batch + t holds bit (left - 1 - t) of the position
    let axis_of = |bit: usize, left: usize| batch + left - 1 - bit;
    // blocks of 2^stage run forward (the output's order) where bit `stage` of the position is
    // 0, backward where it is 1; with no bit above, the one block runs forward
    let forward = |shape: &[usize], stage: usize, left: usize| -> Result<Lazy> {
        if stage == left {
            Lazy::constant(true, DType::Bool, shape)
        } else {
            half_mask(shape, axis_of(stage, left), true)
        }
    };
    // one compare-exchange step across `bit`: the lower position of a pair keeps the entry
    // that comes first in a forward block, the later one in a backward block
    let step = |x: &Pairs, bit: usize, left: usize, forward: &Lazy| -> Result<Pairs> {
        let partner = x.flip(axis_of(bit, left))?;
        let low = half_mask(&x.shape, axis_of(bit, left), true)?;
        let keep_first = low.binary(BinaryOp::CmpEq, forward)?;
        // the order is strict (no two pairs share an index), so the partner comes first
        // exactly where `x` does not: one comparison serves both cases
        let take = keep_first.binary(BinaryOp::CmpNe, &x.first(&partner, descending)?)?;
        Pairs::select(&take, &partner, x)
    };
    for stage in 1..=keep {
        let fwd = forward(&x.shape, stage, stages)?;
        for bit in (0..stage).rev() {
            x = step(&x, bit, stages, &fwd)?;
        }
    }
    let mut left = stages;
    while left > keep {
        // the forward block (bit `keep` 0) keeps what comes first of each pair across it
        let axis = axis_of(keep, left);
        let partner = x.flip(axis)?;
        let take = partner.first(&x, descending)?;
        x = Pairs::select(&take, &partner, &x)?.first_half(axis)?;
        left -= 1;
        let fwd = forward(&x.shape, keep, left)?;
        for bit in (0..keep).rev() {
            x = step(&x, bit, left, &fwd)?;
        }
    }
    let mut flat = bits[..batch].to_vec();
    flat.push(1 << keep);
    Ok((
        x.value()?.reshape(&flat)?,
        x.index()?.cast(DType::I32).reshape(&flat)?,
    ))
}

/// u32 words of `x`'s values (most significant first) whose word-by-word order is the sort's:
/// unsigned values as they are, signed ones with the sign bit flipped, floats with every bit
/// flipped when negative and the sign bit set when not (IEEE order), after `-0` becomes `+0`
/// (they compare equal) and with every NaN above `+inf`; 64-bit values in two words; every
/// word inverted for a descending sort. Equal values give equal words.
fn key_words(x: &Lazy, descending: bool) -> Result<Vec<Lazy>> {
    let k = |l: &Lazy, v: u64| l.constant_like(v, l.dtype());
    // -0 and +0 compare equal
    let float_key = |v: &Lazy, bits: DType| -> Result<Lazy> {
        let zero = v.constant_like(0.0, v.dtype());
        float_order(&v.binary(BinaryOp::CmpEq, &zero)?.where_(&zero, v)?, bits)
    };
    let split = |b: Lazy| -> Result<Vec<Lazy>> {
        let hi = b.binary(BinaryOp::Shr, &k(&b, 32))?.cast(DType::U32);
        Ok(vec![hi, b.cast(DType::U32)])
    };
    let words = match x.dtype() {
        DType::Bool | DType::U8 | DType::U16 | DType::U32 => vec![x.cast(DType::U32)],
        DType::I8 | DType::I16 | DType::I32 => {
            let b = x.cast(DType::I32).bitcast(DType::U32)?;
            vec![b.binary(BinaryOp::Xor, &k(&b, 1 << 31))?]
        }
        DType::U64 => split(x.clone())?,
        DType::I64 => {
            let b = x.bitcast(DType::U64)?;
            split(b.binary(BinaryOp::Xor, &k(&b, 1 << 63))?)?
        }
        DType::F16 | DType::F32 => vec![float_key(&x.cast(DType::F32), DType::U32)?],
        DType::F64 => split(float_key(x, DType::U64)?)?,
    };
    if !descending {
        return Ok(words);
    }
    words
        .iter()
        .map(|w| w.binary(BinaryOp::Xor, &k(w, u64::from(u32::MAX))))
        .collect()
}

/// The bits of floats `v` as unsigned integers (`bits`: u32 for f32, u64 for f64) whose
/// order is the numbers' (IEEE order, `-0` below `+0`) with every NaN above `+inf`:
/// non-negative values with the sign bit set, negative ones with every bit flipped, NaN all
/// ones. [`float_from_order`] reads them back.
pub(crate) fn float_order(v: &Lazy, bits: DType) -> Result<Lazy> {
    let (top, ones) = order_masks(bits);
    let b = v.bitcast(bits)?;
    let key = b
        .binary(BinaryOp::CmpLt, &b.constant_like(top, bits))?
        .where_(
            &b.binary(BinaryOp::Or, &b.constant_like(top, bits))?,
            &b.binary(BinaryOp::Xor, &b.constant_like(ones, bits))?,
        )?;
    v.binary(BinaryOp::CmpNe, v)?
        .where_(&key.constant_like(ones, bits), &key)
}

/// The floats of `dtype` whose [`float_order`] keys `key` holds (every NaN comes back as one
/// NaN).
pub(crate) fn float_from_order(key: &Lazy, dtype: DType) -> Result<Lazy> {
    let bits = key.dtype();
    let (top, ones) = order_masks(bits);
    key.binary(BinaryOp::CmpLt, &key.constant_like(top, bits))?
        .where_(
            &key.binary(BinaryOp::Xor, &key.constant_like(ones, bits))?,
            &key.binary(BinaryOp::Xor, &key.constant_like(top, bits))?,
        )?
        .bitcast(dtype)
}

/// The sign bit and all bits of an unsigned dtype.
fn order_masks(bits: DType) -> (u64, u64) {
    (1u64 << (8 * bits.size() - 1), bits.int_max() as u64)
}

/// The input index (i32) of each position of each row of `x` (its last axis) in sorted
/// order, stable: records of the key words and the input index (`key_words`), merge sorted
/// (`Lazy::merge_sort`: a sort of runs and `ceil(log2 n) - 5` merges, `O(n)` work each).
fn merge_sorted_indices(x: &Lazy, descending: bool) -> Result<Lazy> {
    let n = x.shape()[x.ndim() - 1];
    let mut row = vec![1; x.ndim()];
    row[x.ndim() - 1] = n;
    let index = Lazy::arange_u32(n)?.reshape(&row)?.expand(x.shape())?;
    let mut words: Vec<DynTensor> = key_words(x, descending)?
        .into_iter()
        .map(DynTensor::wrap)
        .collect();
    words.push(DynTensor::wrap(index));
    let w = words.len();
    let records = DynTensor::stack(&words, -1)?.into_lazy().merge_sort()?;
    let mut last: Vec<(usize, usize)> = records.shape().iter().map(|&d| (0, d)).collect();
    last[x.ndim()] = (w - 1, w);
    records
        .shrink(&last)?
        .reshape(x.shape())?
        .bitcast(DType::I32)
}

/// The stable ascending order (i32 input indices) of each row (the last axis) of `x`: the
/// merge sort's indices.
pub(crate) fn stable_order(x: &DynTensor) -> Result<DynTensor> {
    if x.ndim() == 0 || x.numel() == 0 || x.shape()[x.ndim() - 1] <= 1 {
        return DynTensor::zeros(x.shape(), DType::I32);
    }
    Ok(DynTensor::wrap(merge_sorted_indices(x.lazy(), false)?))
}

/// `x`'s values along its last axis at the positions `order` (i32, a permutation of each
/// row) holds, differentiated as a permutation: the gradient goes back through the inverse
/// permutation (a sort of `order`), a gather where the gather's own rule would compare every
/// position with every other.
fn permuted(x: &DynTensor, order: &DynTensor) -> Result<DynTensor> {
    let last = x.ndim() - 1;
    let values = DynTensor::wrap(x.lazy().gather(last, order.lazy())?);
    let order = order.clone();
    Ok(values.with_gradient(&[x], move |g| {
        let inverse = stable_order(&order)?;
        Ok(vec![Some(DynTensor::wrap(
            g.lazy().gather(last, inverse.lazy())?,
        ))])
    }))
}

impl DynTensor {
    /// Sorts along `axis` (ascending, or descending), returning the values and, as i32, the
    /// input index of each. Equal values keep their input order in either direction (a
    /// stable sort); NaN sorts above every number, and `-0` equals `+0`; bool sorts as 0 and
    /// 1. A merge sort: `O(n log n)` work per row.
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
        self.sorted_prefix(a, n, descending)
    }

    /// The first `count` values along axis `a` in sorted order (`count <= n`, the axis'
    /// length) and their input indices: the whole sort, or topk's partial network.
    fn sorted_prefix(
        &self,
        a: usize,
        count: usize,
        descending: bool,
    ) -> Result<(DynTensor, DynTensor)> {
        let n = self.shape().get(a).copied().unwrap_or(1);
        if n <= 1 || self.numel() == 0 {
            let (v, i) = (self.clone(), DynTensor::zeros(self.shape(), DType::I32)?);
            if self.ndim() == 0 || count == n {
                return Ok((v, i));
            }
            let mut to: Vec<Option<usize>> = vec![None; self.ndim()];
            to[a] = Some(count);
            return Ok((v.shrink_to(&to)?, i.shrink_to(&to)?));
        }
        let x = self.transpose(a as isize, -1)?;
        let bits_of = |m: usize| (usize::BITS - m.saturating_sub(1).leading_zeros()) as usize;
        let stages = bits_of(n);
        let keep = bits_of(count).min(stages);
        // the partial network's steps against the merge sort's kernels (the sort of runs and
        // each merge past them cost about three steps each)
        let sorted_runs = MAX_SORT_RUN.ilog2() as usize;
        let kernels = stages.saturating_sub(sorted_runs) + 1;
        if count == n || keep * (keep + 1) / 2 + 2 * (keep + 1) >= 3 * kernels {
            let order = DynTensor::wrap(merge_sorted_indices(x.lazy(), descending)?);
            let values = permuted(&x, &order)?;
            let mut to: Vec<Option<usize>> = vec![None; x.ndim()];
            to[x.ndim() - 1] = Some(count);
            let back = |t: DynTensor| t.shrink_to(&to)?.transpose(a as isize, -1);
            return Ok((back(values)?, back(order)?));
        }
        // both lanes of a pair in one dtype (bool, which has no order, as u32)
        let key = x.cast(lane_dtype(x.dtype()));
        let padded = pad_pow2(&key, stages, descending)?;
        let (values, indices) = bitonic_top(&padded.lazy, stages, keep, descending)?;
        let mut keep: Vec<(usize, usize)> = key.shape().iter().map(|&d| (0, d)).collect();
        keep[key.ndim() - 1] = (0, count);
        let sorted = values.shrink(&keep)?;
        let index = indices.shrink(&keep)?;
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
        self.sorted_prefix(a, k, largest)
    }
}
