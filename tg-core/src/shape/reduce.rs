//! Reductions over a set of axes (`sum`, `max`, `mean`, `var`, ...): which axes, and the
//! shape that remains (reduced axes dropped, or kept as 1 with `keepdim`).

use crate::dim::Dim;
use crate::error::RuleError;

use super::{distinct_axes, norm_axis_scalar_ok};

/// The distinct, normalized axes a reduction covers (`None`: all). A rank-0 tensor accepts
/// axis 0 or -1 and reduces nothing, as in tinygrad.
pub fn reduce_axes<D: Dim>(
    op: &'static str,
    shape: &[D],
    axes: Option<&[isize]>,
) -> Result<Vec<usize>, RuleError<D>> {
    let Some(axes) = axes else {
        return Ok((0..shape.len()).collect());
    };
    if shape.is_empty() {
        let mut seen = Vec::new();
        for &a in axes {
            let n = norm_axis_scalar_ok(op, a, shape)?;
            if seen.contains(&n) {
                return Err(RuleError::DuplicateAxis {
                    op,
                    axis: a,
                    axes: axes.to_vec(),
                });
            }
            seen.push(n);
        }
        return Ok(Vec::new());
    }
    distinct_axes(op, axes, shape)
}

/// `shape` without `axes` (or with them as 1, `keepdim`).
pub fn reduced<D: Dim>(shape: &[D], axes: &[usize], keepdim: bool) -> Vec<D> {
    shape
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match (axes.contains(&i), keepdim) {
            (false, _) => Some(d.clone()),
            (true, true) => Some(D::lit(1)),
            (true, false) => None,
        })
        .collect()
}

/// The axes and the output shape of a reduction.
pub fn reduce<D: Dim>(
    op: &'static str,
    shape: &[D],
    axes: Option<&[isize]>,
    keepdim: bool,
) -> Result<(Vec<usize>, Vec<D>), RuleError<D>> {
    let axes = reduce_axes(op, shape, axes)?;
    let out = reduced(shape, &axes, keepdim);
    Ok((axes, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_drop_or_keep_axes() {
        let s = [2usize, 3, 4];
        assert_eq!(reduce("sum", &s, None, false), Ok((vec![0, 1, 2], vec![])));
        assert_eq!(
            reduce("sum", &s, Some(&[0, 2]), true),
            Ok((vec![0, 2], vec![1, 3, 1]))
        );
        assert_eq!(
            reduce("max", &s, Some(&[-1]), false),
            Ok((vec![2], vec![2, 3]))
        );
        assert!(matches!(
            reduce("sum", &s, Some(&[1, -2]), false),
            Err(RuleError::DuplicateAxis {
                op: "sum",
                axis: -2,
                ..
            })
        ));
        assert!(matches!(
            reduce("sum", &s, Some(&[3]), false),
            Err(RuleError::AxisOutOfRange {
                op: "sum",
                axis: 3,
                ..
            })
        ));
        assert_eq!(
            reduce::<usize>("sum", &[], Some(&[-1]), false),
            Ok((vec![], vec![]))
        );
        assert!(reduce::<usize>("sum", &[], Some(&[1]), false).is_err());
    }
}
