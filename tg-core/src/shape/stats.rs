//! Scans, arg-reductions, sorts and top-k: the shape kept along one axis, or that axis
//! reduced or replaced.

use crate::check::Checker;
use crate::dim::Dim;
use crate::error::{RuleError, argument_error};
use crate::ops::{At, Fault, Place};

use super::{norm_axis, reduce, show};

/// A scan along `axis` (cumsum, cummax, ...): the shape kept; a rank-0 tensor scans as one
/// element, whatever the axis.
pub fn scan<D: Dim>(op: &'static str, shape: &[D], axis: isize) -> Result<Vec<D>, RuleError<D>> {
    if !shape.is_empty() {
        norm_axis(op, axis, shape)?;
    }
    Ok(shape.to_vec())
}

/// argmax/argmin: over `axis` (kept as 1 with `keepdim`), or over everything (rank 0).
pub fn arg_reduce<D: Dim>(
    op: &'static str,
    shape: &[D],
    axis: Option<isize>,
    keepdim: bool,
) -> Result<Vec<D>, RuleError<D>> {
    match axis {
        None => Ok(vec![]),
        Some(a) => Ok(reduce::reduce(op, shape, Some(&[a]), keepdim)?.1),
    }
}

/// topk: `axis` replaced by `k`, which must not be larger than it.
pub fn topk<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    k: &D,
    axis: isize,
) -> Result<Vec<D>, Fault<D>> {
    let n = norm_axis(op, axis, shape).at(At::Call)?;
    ck.at_most(k, &shape[n], || {
        argument_error(
            op,
            format!(
                "k = {k} is out of range for axis {axis} of size {} ({})",
                shape[n],
                show(shape)
            ),
        )
    })
    .at(At::Param("k"))?;
    let mut out = shape.to_vec();
    out[n] = k.clone();
    Ok(out)
}

/// multinomial: weights of rank 1 or 2, at least one sample (without replacement, at most a
/// row's length); `[num_samples]` or `[rows, num_samples]`.
pub fn multinomial<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    num_samples: D,
    replacement: bool,
) -> Result<Vec<D>, Fault<D>> {
    if !(1..=2).contains(&shape.len()) {
        return Err(Fault::new(
            At::Receiver,
            crate::ops::OpError::Needs {
                op,
                what: format!("weights of rank 1 or 2, got shape {}", show(shape)),
            },
        ));
    }
    let at = At::Param("num_samples");
    if num_samples.is(0) {
        return Err(Fault::new(
            at,
            argument_error(op, "num_samples must be positive"),
        ));
    }
    let cols = &shape[shape.len() - 1];
    if !replacement {
        ck.at_most(&num_samples, cols, || {
            argument_error(
                op,
                format!(
                    "{num_samples} samples without replacement from rows of {cols} weights ({})",
                    show(shape)
                ),
            )
        })
        .at(at)?;
    }
    Ok(match shape {
        [_] => vec![num_samples],
        _ => vec![shape[0].clone(), num_samples],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::decide;

    #[test]
    fn scans_sorts_and_topk() {
        assert_eq!(scan::<usize>("cumsum", &[], 5), Ok(vec![]));
        assert!(scan("cumsum", &[2usize, 3], 2).is_err());
        assert_eq!(
            arg_reduce("argmax", &[3usize, 4], Some(1), true),
            Ok(vec![3, 1])
        );
        assert_eq!(arg_reduce("argmax", &[3usize, 4], None, false), Ok(vec![]));
        let t = |k: usize| {
            decide(|ck| {
                topk(ck, "topk", &[3usize, 5], &k, -1).map_err(|f| match f.error {
                    crate::ops::OpError::Rule(e) => e,
                    _ => unreachable!(),
                })
            })
        };
        assert_eq!(t(2), Ok(vec![3, 2]));
        assert_eq!(
            t(6).unwrap_err().to_string(),
            "`topk`: k = 6 is out of range for axis -1 of size 5 ([3, 5])"
        );
    }
}
