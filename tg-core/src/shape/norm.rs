//! Normalization: layernorm over axes, batchnorm with given statistics.

use crate::check::Checker;
use crate::dim::{Dim, numel};
use crate::dtype::DType;
use crate::error::shape_error;
use crate::ops::{At, Fault, Place};

use super::{broadcast::broadcast, distinct_axes, norm_axis, overflow, show};

/// layernorm: every axis in range; the shape kept.
pub fn layernorm<D: Dim>(
    op: &'static str,
    shape: &[D],
    axes: &[isize],
) -> Result<Vec<D>, Fault<D>> {
    for &a in axes {
        norm_axis(op, a, shape).at(At::Call)?;
    }
    Ok(shape.to_vec())
}

/// batchnorm's statistics, by name, in the order they are checked: `mean`, `invstd`,
/// `weight`, `bias`.
pub type Stats<'a, D> = [(&'static str, Option<(&'a [D], DType)>); 4];

/// batchnorm: each statistic holds one value per element of the normalized axes (tg-ops
/// reshapes it, so only the count must match), or, for `invstd` without one axis per
/// normalized axis, broadcasts against the input as it is.
pub fn batchnorm<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    axes: &[isize],
    stats: Stats<'_, D>,
) -> Result<Vec<D>, Fault<D>> {
    let norm = distinct_axes(op, axes, shape).at(At::Param("axis"))?;
    let sizes: Vec<D> = norm.iter().map(|&a| shape[a].clone()).collect();
    let count = numel(&sizes).ok_or_else(|| Fault::new(At::Call, overflow(op, &sizes)))?;
    let mut out = shape.to_vec();
    for (what, t) in stats {
        let Some((ts, _)) = t else { continue };
        let at = At::Param(what);
        if what == "invstd" && ts.len() != axes.len() {
            out = broadcast(ck, op, &out, ts).at(at)?;
            continue;
        }
        let n = numel(ts).ok_or_else(|| Fault::new(at, overflow(op, ts)))?;
        ck.equal(&n, &count, || {
            shape_error(
                op,
                format!(
                    "the {what} of shape {} has {n} values; axes {axes:?} of the input {} (sizes {}) have {count}",
                    show(ts),
                    show(shape),
                    show(&sizes)
                ),
            )
        })
        .at(at)?;
    }
    Ok(out)
}
