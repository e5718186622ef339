//! The shape rules of the op families, generic over the dimension type: one function per op
//! (or per group of ops that share a rule), returning the output shape or the error.
//!
//! Axes are `isize` as the user gives them (negative axes count from the end, as numpy's);
//! sizes the user may leave to the op are `Option` (`None` is tinygrad's `-1`).

pub mod broadcast;
pub mod einsum;
pub mod gather;
pub mod hash;
pub mod index;
pub mod join;
pub mod linalg;
pub mod loss;
pub mod matmul;
pub mod movement;
pub mod norm;
pub mod pad;
pub mod reduce;
pub mod stats;
pub mod window;

use crate::dim::{Dim, ShowShape};
use crate::error::{RuleError, argument_error};

/// The highest rank of the typed API's shape tuples (`Rank0` .. `Rank6`); the trait impls
/// tg-ops generates per rank go this far.
pub const MAX_RANK: usize = 6;

/// The highest rank of either operand of the typed API's `matmul` (numpy's rules, batch axes
/// included).
pub const MATMUL_MAX_RANK: usize = 4;

/// `axis` in `-rank..rank` as an index.
pub fn norm_axis<D: Dim>(
    op: &'static str,
    axis: isize,
    shape: &[D],
) -> Result<usize, RuleError<D>> {
    norm_in(op, axis, shape.len(), shape, false)
}

/// A new axis in `-(rank + 1)..=rank` (unsqueeze, stack) as an index of the longer shape.
pub fn norm_new_axis<D: Dim>(
    op: &'static str,
    axis: isize,
    shape: &[D],
) -> Result<usize, RuleError<D>> {
    norm_in(op, axis, shape.len() + 1, shape, true)
}

/// An axis of a rank-0 tensor where ops treat it as rank 1 (squeeze, flatten, reductions
/// accept axis 0 and -1 of a scalar, as tinygrad does).
pub fn norm_axis_scalar_ok<D: Dim>(
    op: &'static str,
    axis: isize,
    shape: &[D],
) -> Result<usize, RuleError<D>> {
    norm_in(op, axis, shape.len().max(1), shape, false)
}

fn norm_in<D: Dim>(
    op: &'static str,
    axis: isize,
    rank: usize,
    shape: &[D],
    new_axis: bool,
) -> Result<usize, RuleError<D>> {
    let r = rank as isize;
    if axis < -r || axis >= r {
        return Err(RuleError::AxisOutOfRange {
            op,
            axis,
            shape: shape.to_vec(),
            new_axis,
        });
    }
    Ok(if axis < 0 { axis + r } else { axis } as usize)
}

/// Each of `axes` normalized, none twice.
pub fn distinct_axes<D: Dim>(
    op: &'static str,
    axes: &[isize],
    shape: &[D],
) -> Result<Vec<usize>, RuleError<D>> {
    let mut out = Vec::with_capacity(axes.len());
    for &a in axes {
        let n = norm_axis(op, a, shape)?;
        if out.contains(&n) {
            return Err(RuleError::DuplicateAxis {
                op,
                axis: a,
                axes: axes.to_vec(),
            });
        }
        out.push(n);
    }
    Ok(out)
}

/// One size of a target shape as the user gives it: `-1` is left to the op (`None`), any
/// other negative size is an error.
pub fn size_arg<D: Dim>(
    op: &'static str,
    size: i64,
    all: &str,
) -> Result<Option<usize>, RuleError<D>> {
    match size {
        -1 => Ok(None),
        s if s < 0 => Err(argument_error(op, format!("size {s} in {all} is negative"))),
        s => usize::try_from(s)
            .map(Some)
            .map_err(|_| argument_error(op, format!("size {s} in {all} is too large"))),
    }
}

/// Target sizes given as integers (`-1` left to the op).
pub fn size_args<D: Dim>(
    op: &'static str,
    sizes: &[isize],
) -> Result<Vec<Option<D>>, RuleError<D>> {
    let all = format!("{sizes:?}");
    sizes
        .iter()
        .map(|&s| Ok(size_arg::<D>(op, s as i64, &all)?.map(D::lit)))
        .collect()
}

/// `[2, -1, B]`: a target shape with the sizes left to the op.
pub fn show_target<D: Dim>(target: &[Option<D>]) -> String {
    let shown: Vec<String> = target
        .iter()
        .map(|d| {
            d.as_ref()
                .map_or_else(|| "-1".to_string(), |d| d.to_string())
        })
        .collect();
    format!("[{}]", shown.join(", "))
}

/// `shape` as a message writes it.
pub(crate) fn show<D: Dim>(shape: &[D]) -> String {
    ShowShape(shape).to_string()
}

/// A `Shape` error of `op` at `at`.
pub(crate) fn shape_error_at<D>(
    at: crate::ops::At,
    op: &'static str,
    message: impl Into<String>,
) -> crate::ops::Fault<D> {
    crate::ops::Fault::new(at, crate::error::shape_error(op, message))
}

/// The overflow error of `op` building `shape`.
pub(crate) fn overflow<D: Dim>(op: &'static str, shape: &[D]) -> RuleError<D> {
    RuleError::SizeOverflow {
        op,
        shape: shape.to_vec(),
    }
}

/// `d * k`, or the overflow error of `op` on `shape`.
pub(crate) fn times<D: Dim>(
    op: &'static str,
    d: &D,
    k: usize,
    shape: &[D],
) -> Result<D, RuleError<D>> {
    d.checked_mul(&D::lit(k)).ok_or_else(|| overflow(op, shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_normalize_and_repeat_is_an_error() {
        let s = [2usize, 3, 4];
        assert_eq!(norm_axis("sum", -1, &s), Ok(2));
        assert_eq!(norm_new_axis("unsqueeze", 3, &s), Ok(3));
        assert_eq!(norm_new_axis("unsqueeze", -4, &s), Ok(0));
        assert!(matches!(
            norm_axis("sum", 3, &s),
            Err(RuleError::AxisOutOfRange {
                axis: 3,
                new_axis: false,
                ..
            })
        ));
        assert_eq!(norm_axis_scalar_ok::<usize>("squeeze", -1, &[]), Ok(0));
        assert!(matches!(
            distinct_axes("sum", &[0, -3], &s),
            Err(RuleError::DuplicateAxis { axis: -3, .. })
        ));
        assert_eq!(
            size_args::<usize>("reshape", &[2, -1]),
            Ok(vec![Some(2), None])
        );
        assert!(matches!(
            size_args::<usize>("reshape", &[2, -2]),
            Err(RuleError::Argument { .. })
        ));
    }
}
