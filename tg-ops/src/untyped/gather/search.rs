//! Which write lands last on each position (`last_writers`, writes through tensor indices and
//! scatter): the runtime's grouping of writes by position, read at each group's end.

use tg_runtime::Result;

use crate::untyped::DynTensor;

/// For each position `p` of an axis of `m`, the last of the writes `pos` (rows along the last
/// axis, integers; those outside `0..m` write nothing) that names it in its row: whether one
/// does (bool) and which (i32), both of `pos`'s shape with the last axis `m`. The writes in a
/// stable order of their positions, then per `p` a binary search for the end of its writes
/// (`Lazy::writes_by_position`): `O((k + m) log k)` for `k` writes a row, where a one-hot
/// comparison of every write with every position takes `k m`.
pub(crate) fn last_writers(pos: &DynTensor, m: usize) -> Result<(DynTensor, DynTensor)> {
    let last = pos.ndim() - 1;
    let runs = pos.lazy().writes_by_position(m)?;
    Ok((
        DynTensor::wrap(runs.found),
        DynTensor::wrap(runs.order.gather(last, &runs.end)?),
    ))
}
