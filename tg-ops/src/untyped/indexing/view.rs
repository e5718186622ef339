//! Basic indices as views (shrink, flip, a pad-and-reshape for steps), and the inverse for
//! assignment: a selection spread back over the whole tensor and merged under a mask.

use tg_runtime::{DType, Lazy, Result};

use super::parse::{Kind, Parsed};
use super::select::counter_along;
use crate::untyped::DynTensor;

/// The tensor seen through the basic indices: integer axes removed, new axes inserted, tensor
/// indices' axes kept whole (the advanced step reads them next).
pub(crate) fn apply(x: &DynTensor, parsed: &[Parsed]) -> Result<DynTensor> {
    let mops: Vec<&Parsed> = parsed
        .iter()
        .filter(|p| !matches!(p.kind, Kind::NewAxis))
        .collect();
    let mut v = x.lazy().clone();
    if !mops.is_empty() {
        let ranges: Vec<(usize, usize)> = mops.iter().map(|p| (p.start, p.end)).collect();
        v = v.shrink(&ranges)?;
        let flips: Vec<usize> = (0..mops.len()).filter(|&i| mops[i].step < 0).collect();
        v = v.flip(&flips)?;
        if mops.iter().any(|p| p.step.unsigned_abs() != 1) {
            v = take_every(
                &v,
                &mops
                    .iter()
                    .map(|p| p.step.unsigned_abs())
                    .collect::<Vec<_>>(),
            )?;
        }
    }
    let dims: Vec<usize> = parsed
        .iter()
        .filter(|p| !p.collapse)
        .map(|p| p.size)
        .collect();
    Ok(DynTensor::wrap(v.reshape(&dims)?))
}

/// Every `steps[i]`-th element of each axis, from the first: pad each axis up to a multiple
/// of its step, split it into (size / step, step) and keep column 0.
fn take_every(v: &Lazy, steps: &[usize]) -> Result<Lazy> {
    let shape = v.shape().to_vec();
    let pads: Vec<(usize, usize)> = shape
        .iter()
        .zip(steps)
        .map(|(&s, &st)| (0, s.next_multiple_of(st) - s))
        .collect();
    let padded = v.pad(&pads)?;
    let split: Vec<usize> = padded
        .shape()
        .iter()
        .zip(steps)
        .flat_map(|(&s, &st)| [s / st, st])
        .collect();
    let keep: Vec<(usize, usize)> = split.chunks(2).flat_map(|c| [(0, c[0]), (0, 1)]).collect();
    let out: Vec<usize> = split.chunks(2).map(|c| c[0]).collect();
    padded.reshape(&split)?.shrink(&keep)?.reshape(&out)
}

/// `x` with the elements the basic indices select replaced by `sel` (shaped as the view
/// `apply` gives, before tensor indices): `sel` is spread back over `x`'s shape (steps undone
/// by interleaving, flips undone, padded to the full axes) and merged under a mask of the
/// selected positions.
pub(crate) fn place(x: &DynTensor, parsed: &[Parsed], sel: &DynTensor) -> Result<DynTensor> {
    let mops: Vec<&Parsed> = parsed
        .iter()
        .filter(|p| !matches!(p.kind, Kind::NewAxis))
        .collect();
    let per_axis: Vec<usize> = mops
        .iter()
        .map(|p| if p.collapse { 1 } else { p.size })
        .collect();
    let mut v = sel.lazy().reshape(&per_axis)?;
    for (d, p) in mops.iter().enumerate() {
        let st = p.step.unsigned_abs();
        if st != 1 {
            v = spread(&v, d, st, p.end - p.start)?;
        }
    }
    let flips: Vec<usize> = (0..mops.len()).filter(|&i| mops[i].step < 0).collect();
    v = v.flip(&flips)?;
    let pads: Vec<(usize, usize)> = mops
        .iter()
        .zip(x.shape())
        .map(|(p, &n)| (p.start, n - p.end))
        .collect();
    let v = DynTensor::wrap(v.pad(&pads)?);
    let mut mask: Option<DynTensor> = None;
    for (d, p) in mops.iter().enumerate() {
        let n = x.shape()[d];
        if p.start == 0 && p.end == n && p.step == 1 {
            continue;
        }
        let m = axis_mask(p, d, n, x.ndim())?;
        mask = Some(match mask {
            Some(acc) => acc.logical_and(&m)?,
            None => m,
        });
    }
    match mask {
        Some(m) => m.where_(&v, x),
        None => Ok(v),
    }
}

/// Axis `d` of `v` (length `n`) interleaved with `st - 1` zeros after each element, cut to
/// `len`: the inverse of taking every `st`-th element.
fn spread(v: &Lazy, d: usize, st: usize, len: usize) -> Result<Lazy> {
    let shape = v.shape().to_vec();
    let mut wide = shape.clone();
    wide.insert(d + 1, 1);
    let mut pads = vec![(0, 0); wide.len()];
    pads[d + 1] = (0, st - 1);
    let mut merged = shape.clone();
    merged[d] = shape[d] * st;
    let mut keep: Vec<(usize, usize)> = merged.iter().map(|&s| (0, s)).collect();
    keep[d] = (0, len.min(merged[d]));
    v.reshape(&wide)?
        .pad(&pads)?
        .reshape(&merged)?
        .shrink(&keep)
}

/// Which positions of axis `d` (length `n`) the entry `p` selects, laid along `d`.
fn axis_mask(p: &Parsed, d: usize, n: usize, rank: usize) -> Result<DynTensor> {
    let i = counter_along(n, d, rank, DType::I32)?;
    let inside = i.ge(p.start as i64)?.logical_and(&i.lt(p.end as i64)?)?;
    let st = p.step.unsigned_abs();
    if st == 1 {
        return Ok(inside);
    }
    // the kept positions are start, start + st, ... (or end - 1, end - 1 - st, ... backwards)
    let from = if p.step < 0 {
        i.neg()?.add(p.end as i64 - 1)?
    } else {
        i.sub(p.start as i64)?
    };
    inside.logical_and(&from.modulo(st as i64)?.eq(0)?)
}
