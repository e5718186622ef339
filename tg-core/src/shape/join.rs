//! Joining tensors along an axis (`cat`, `stack`) and cutting one into pieces (`split` by
//! sizes, `split_every` by a piece size, `chunk` into a number of pieces).

use crate::check::Checker;
use crate::dim::Dim;
use crate::error::{RuleError, argument_error, shape_error};

use super::{norm_axis, norm_new_axis, overflow, show};

/// `cat(shapes, axis)`: sizes agree but along `axis`, where they add up. Returns the axis and
/// the shape.
pub fn cat<D: Dim>(
    ck: &mut Checker<D>,
    shapes: &[&[D]],
    axis: isize,
) -> Result<(usize, Vec<D>), RuleError<D>> {
    let op = "cat";
    let Some(first) = shapes.first() else {
        return Err(argument_error(op, "needs at least one tensor"));
    };
    if first.is_empty() {
        return Err(shape_error(
            op,
            "rank-0 tensors have no axis to concatenate along; use stack",
        ));
    }
    let a = norm_axis(op, axis, first)?;
    let mut total = first[a].clone();
    for s in &shapes[1..] {
        same_but(ck, op, first, s, Some(a), axis)?;
        total = total
            .checked_add(&s[a])
            .ok_or_else(|| overflow(op, first))?;
    }
    let mut out = first.to_vec();
    out[a] = total;
    Ok((a, out))
}

/// `stack(shapes, axis)`: equal shapes joined along a new axis. Returns the axis and the shape.
pub fn stack<D: Dim>(
    ck: &mut Checker<D>,
    shapes: &[&[D]],
    axis: isize,
) -> Result<(usize, Vec<D>), RuleError<D>> {
    let op = "stack";
    let Some(first) = shapes.first() else {
        return Err(argument_error(op, "needs at least one tensor"));
    };
    let a = norm_new_axis(op, axis, first)?;
    for s in &shapes[1..] {
        same_but(ck, op, first, s, None, axis)?;
    }
    let mut out = first.to_vec();
    out.insert(a, D::lit(shapes.len()));
    Ok((a, out))
}

/// Requires `b` to have `a`'s rank and sizes, except along `skip`.
fn same_but<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    a: &[D],
    b: &[D],
    skip: Option<usize>,
    axis: isize,
) -> Result<(), RuleError<D>> {
    if a.len() != b.len() {
        return Err(shape_error(
            op,
            format!("ranks differ: {} and {}", show(a), show(b)),
        ));
    }
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        if Some(i) == skip {
            continue;
        }
        ck.equal(x, y, || {
            shape_error(
                op,
                format!(
                    "along axis {axis}: shapes {} and {} differ at axis {i} ({x} vs {y})",
                    show(a),
                    show(b)
                ),
            )
        })?;
    }
    Ok(())
}

/// `split(sizes, axis)`: consecutive pieces of `sizes`, which add up to the axis. Returns the
/// axis and each piece's shape.
pub fn split<D: Dim>(
    ck: &mut Checker<D>,
    shape: &[D],
    sizes: &[D],
    axis: isize,
) -> Result<(usize, Vec<Vec<D>>), RuleError<D>> {
    let op = "split";
    let a = norm_axis(op, axis, shape)?;
    let sum = sizes
        .iter()
        .try_fold(D::lit(0), |acc, s| acc.checked_add(s))
        .ok_or_else(|| overflow(op, sizes))?;
    ck.equal(&sum, &shape[a], || {
        shape_error(
            op,
            format!(
                "sizes {} sum to {sum}, not {}, the size of axis {axis} of {}",
                show(sizes),
                shape[a],
                show(shape)
            ),
        )
    })?;
    Ok((a, pieces(shape, a, sizes)))
}

/// The sizes of `split_every(size)` on an axis of `len`: pieces of `size`, the last smaller;
/// an empty axis gives one empty piece.
fn every(len: usize, size: usize) -> Vec<usize> {
    if len == 0 {
        return vec![0];
    }
    (0..len).step_by(size).map(|i| size.min(len - i)).collect()
}

/// `split_every(size, axis)` (tinygrad's `split` with an int): pieces of `size` elements, the
/// last smaller. The axis size must be known, since it decides the number of pieces.
pub fn split_every<D: Dim>(
    shape: &[D],
    size: usize,
    axis: isize,
) -> Result<(usize, Vec<Vec<D>>), RuleError<D>> {
    let op = "split";
    if size == 0 {
        return Err(argument_error(
            op,
            "the piece size must be positive, found 0",
        ));
    }
    let a = norm_axis(op, axis, shape)?;
    let Some(len) = shape[a].known() else {
        return Err(shape_error(
            op,
            format!(
                "axis {axis} of {} has the symbolic size {}: the number of pieces of {size} would depend on it; give the sizes as a list",
                show(shape),
                shape[a]
            ),
        ));
    };
    let sizes: Vec<D> = every(len, size).into_iter().map(D::lit).collect();
    Ok((a, pieces(shape, a, &sizes)))
}

/// `chunk(chunks, axis)`: `chunks` pieces of `ceil(size / chunks)`, the last smaller; there
/// may be fewer (tinygrad's and torch's rule), and an empty axis gives `chunks` empty pieces.
/// A symbolic axis must be a known multiple of `chunks`.
pub fn chunk<D: Dim>(
    shape: &[D],
    chunks: usize,
    axis: isize,
) -> Result<(usize, Vec<Vec<D>>), RuleError<D>> {
    let op = "chunk";
    if chunks == 0 {
        return Err(argument_error(
            op,
            "the number of chunks must be positive, found 0",
        ));
    }
    let a = norm_axis(op, axis, shape)?;
    let sizes: Vec<D> = match shape[a].known() {
        Some(0) => vec![D::lit(0); chunks],
        Some(len) => every(len, len.div_ceil(chunks))
            .into_iter()
            .map(D::lit)
            .collect(),
        None => {
            let q = shape[a].exact_div(&D::lit(chunks)).ok_or_else(|| {
                shape_error(
                    op,
                    format!(
                        "axis {axis} of {} has the symbolic size {}, not a known multiple of {chunks}: the number of pieces would depend on it; use `split` with sizes",
                        show(shape),
                        shape[a]
                    ),
                )
            })?;
            vec![q; chunks]
        }
    };
    Ok((a, pieces(shape, a, &sizes)))
}

fn pieces<D: Dim>(shape: &[D], a: usize, sizes: &[D]) -> Vec<Vec<D>> {
    sizes
        .iter()
        .map(|s| {
            let mut o = shape.to_vec();
            o[a] = s.clone();
            o
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::decide;

    #[test]
    fn joins() {
        let c = |s: &[&[usize]], a| decide(|ck| cat(ck, s, a));
        assert_eq!(c(&[&[2, 3], &[2, 5]], 1), Ok((1, vec![2, 8])));
        assert!(matches!(
            c(&[&[2, 3], &[2, 5]], 0),
            Err(RuleError::Shape { .. })
        ));
        assert!(c(&[&[]], 0).is_err());
        assert!(c(&[], 0).is_err());
        let s = |s: &[&[usize]], a| decide(|ck| stack(ck, s, a));
        assert_eq!(s(&[&[2, 3], &[2, 3]], -1), Ok((2, vec![2, 3, 2])));
        assert!(s(&[&[2, 3], &[3, 2]], 0).is_err());
    }

    #[test]
    fn cuts() {
        let shape = [5usize, 2];
        let sizes = |r: Result<(usize, Vec<Vec<usize>>), RuleError<usize>>| {
            r.map(|(_, p)| p.iter().map(|s| s[0]).collect::<Vec<_>>())
        };
        assert_eq!(
            sizes(decide(|ck| split(ck, &shape, &[1, 4], 0))),
            Ok(vec![1, 4])
        );
        assert!(decide(|ck| split(ck, &shape, &[1, 3], 0)).is_err());
        assert_eq!(sizes(split_every(&shape, 2, 0)), Ok(vec![2, 2, 1]));
        assert_eq!(sizes(split_every(&[0usize], 2, 0)), Ok(vec![0]));
        assert!(split_every(&shape, 0, 0).is_err());
        assert_eq!(sizes(chunk(&[11usize], 6, 0)), Ok(vec![2, 2, 2, 2, 2, 1]));
        assert_eq!(sizes(chunk(&[0usize], 3, 0)), Ok(vec![0, 0, 0]));
        assert!(chunk(&shape, 0, 0).is_err());
    }
}
