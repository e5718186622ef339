//! Binary searches over sorted positions, each halving step a gather: where a running count
//! reaches each value (`lower_bound`, masked_select's packing) and which write lands last on
//! each position (`last_writers`, writes through tensor indices).

use tg_runtime::{DType, Result};

use crate::untyped::DynTensor;
use crate::untyped::indexing::select::counter;
use crate::untyped::sort::stable_order;

/// For each of `targets` (i32, rows along the last axis): the first position `i` of the same
/// row of the ascending i32 `sorted` (rows of length `n`, the same leading axes) where
/// `sorted[i] >= target`, or `n` where there is none. A binary search of `ceil(log2(n + 1))`
/// halving steps over `[lo, hi)`, each reading `sorted` at the midpoints: `log n` reads per
/// target, where a comparison with every position takes `n`.
pub(crate) fn lower_bound(sorted: &DynTensor, targets: &DynTensor) -> Result<DynTensor> {
    let last = sorted.ndim() as isize - 1;
    let n = sorted.shape()[sorted.ndim() - 1];
    let mut lo = targets.zeros_like();
    let mut hi = targets.full_like(n as i64);
    for _ in 0..usize::BITS - n.leading_zeros() {
        let open = lo.lt(&hi)?;
        // lo + (hi - lo) / 2: lo + hi would pass i32 past 2^30 elements
        let mid = lo.add(&hi.sub(&lo)?.shr(1)?)?;
        let below = sorted.gather(last, &mid)?.lt(targets)?;
        lo = open.logical_and(&below)?.where_(&mid.add(1)?, &lo)?;
        hi = open.logical_and(&below.logical_not()?)?.where_(&mid, &hi)?;
    }
    Ok(lo)
}

/// For each position `p` of an axis of `m`, the last of the writes `pos` (rows along the last
/// axis, i32; those outside `0..m` write nothing) that names it in its row: whether one does
/// (bool) and which (i32), both of `pos`'s shape with the last axis `m`. The writes in a
/// stable order of their positions (a merge sort), then per `p` a binary search for the end
/// of its writes: `O((k + m) log k)` for `k` writes a row, where a one-hot comparison of every
/// write with every position takes `k m`.
pub(crate) fn last_writers(pos: &DynTensor, m: usize) -> Result<(DynTensor, DynTensor)> {
    let last = pos.ndim() as isize - 1;
    // compared where `m` fits (u8 positions on an axis of 300); u32 positions past i32 wrap
    // negative, outside as they were
    let pos = pos.cast(pos.dtype().position_dtype());
    let inside = pos.ge(0)?.logical_and(&pos.lt(m as i64)?)?;
    let key = inside.where_(&pos, m as i64)?.cast(DType::I32);
    let order = stable_order(&key)?;
    let sorted = key.gather(last, &order)?;
    let mut shape = pos.shape().to_vec();
    shape[pos.ndim() - 1] = m;
    let p = counter(m, DType::I32)?.broadcast_to(&shape)?;
    let end = lower_bound(&sorted, &p.add(1)?)?.sub(1)?;
    let found = end
        .ge(0)?
        .logical_and(&sorted.gather(last, &end)?.eq(&p)?)?;
    Ok((found, order.gather(last, &end)?))
}
