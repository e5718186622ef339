//! The pieces data-dependent selections are made of, each composed of primitives: position
//! counters, one-hot masks and masked picks (a one-hot reduce: where a mask, not a position,
//! says what to read, as a loss's target class). Reads at positions go through the gather
//! primitive instead, and writes group by position through a sort (`Lazy::writes_by_position`).

use tg_runtime::{DType, Lazy, ReduceOp, Result};

use crate::untyped::DynTensor;

/// `0..n` as a rank-1 tensor of `dtype`, built on the device without a buffer.
pub(crate) fn counter(n: usize, dtype: DType) -> Result<DynTensor> {
    Ok(DynTensor::wrap(Lazy::arange_u32(n)?.cast(dtype)))
}

/// `0..n` laid along `axis` of a rank-`rank` tensor whose other axes have size 1.
pub(crate) fn counter_along(n: usize, axis: usize, rank: usize, dtype: DType) -> Result<DynTensor> {
    let mut shape = vec![1usize; rank];
    shape[axis] = n;
    Ok(DynTensor::wrap(
        Lazy::arange_u32(n)?.cast(dtype).reshape(&shape)?,
    ))
}

/// `index == position along axis`: `index` (an integer tensor with size 1 at `axis`, or of
/// lower rank, aligned right) compared with `0..n` laid along `axis` of a rank-`rank` result;
/// the shapes broadcast. Values out of `0..n`, negative ones included, match nothing.
pub(crate) fn one_hot_along(
    index: &DynTensor,
    n: usize,
    axis: usize,
    rank: usize,
) -> Result<DynTensor> {
    let dt = index.dtype().position_dtype();
    index.cast(dt).eq(&counter_along(n, axis, rank, dt)?)
}

/// `x` where `mask`, else 0, reduced over `axes` (kept with size 1): where `mask` holds at most
/// once along the axes this reads one value at a computed position. Sums in `x`'s own dtype
/// (the one term is exact; f16 accumulates in f32), bool by max.
pub(crate) fn pick(mask: &DynTensor, x: &DynTensor, axes: &[usize]) -> Result<DynTensor> {
    let chosen = mask.where_(x, x.const_like(0))?;
    let op = if x.dtype().is_bool() {
        ReduceOp::Max
    } else {
        ReduceOp::Add
    };
    Ok(DynTensor::wrap(chosen.lazy().reduce(op, axes)?))
}
