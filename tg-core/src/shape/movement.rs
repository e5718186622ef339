//! Views of the same elements in another shape or order: reshape (one size left to the op),
//! permute, transpose, squeeze, unsqueeze, flatten, unflatten, flip, repeat, repeat_interleave,
//! roll, diagonal, and the rank the triangle ops need.

use crate::check::Checker;
use crate::dim::{Dim, numel};
use crate::error::{RuleError, argument_error, shape_error};

use super::{norm_axis, norm_axis_scalar_ok, norm_new_axis, overflow, show, show_target, times};

/// `target` with its `None` (at most one) inferred so that it holds the elements of `shape`,
/// and the element counts required equal. (reshape, and unflatten on one axis)
pub fn infer_sizes<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    target: &[Option<D>],
) -> Result<Vec<D>, RuleError<D>> {
    let open = target.iter().filter(|d| d.is_none()).count();
    if open > 1 {
        return Err(argument_error(
            op,
            format!(
                "only one size may be -1, the target {} has {open}",
                show_target(target)
            ),
        ));
    }
    let total = numel(shape).ok_or_else(|| overflow(op, shape))?;
    let known: Vec<D> = target.iter().flatten().cloned().collect();
    let known_count = numel(&known).ok_or_else(|| overflow(op, &known))?;
    let out: Vec<D> = match target.iter().position(Option::is_none) {
        None => known,
        Some(i) => {
            let q = total.exact_div(&known_count).ok_or_else(|| {
                shape_error(
                    op,
                    format!(
                        "cannot infer the -1 in {}: the {total} elements of {} are not a multiple of {known_count}",
                        show_target(target),
                        show(shape)
                    ),
                )
            })?;
            let mut out = known;
            out.insert(i, q);
            out
        }
    };
    let n = numel(&out).ok_or_else(|| overflow(op, &out))?;
    ck.equal(&total, &n, || RuleError::NumelMismatch {
        op,
        from: shape.to_vec(),
        to: out.clone(),
    })?;
    Ok(out)
}

/// `reshape`: the same elements under `target` (one size may be left to the op).
pub fn reshape<D: Dim>(
    ck: &mut Checker<D>,
    shape: &[D],
    target: &[Option<D>],
) -> Result<Vec<D>, RuleError<D>> {
    infer_sizes(ck, "reshape", shape, target)
}

/// `permute`: output axis `i` is input axis `order[i]`; every axis named once. Returns the
/// normalized order and the shape.
pub fn permute<D: Dim>(
    op: &'static str,
    shape: &[D],
    order: &[isize],
) -> Result<(Vec<usize>, Vec<D>), RuleError<D>> {
    if order.len() != shape.len() {
        return Err(RuleError::RankMismatch {
            op,
            what: "axes given",
            given: order.len(),
            shape: shape.to_vec(),
        });
    }
    let perm = super::distinct_axes(op, order, shape)?;
    let out = perm.iter().map(|&i| shape[i].clone()).collect();
    Ok((perm, out))
}

/// The permutation that undoes `perm` (a permutation of `0..perm.len()`): axis `perm[i]` of
/// the result is its axis `i`.
pub fn inverse_permutation(perm: &[usize]) -> Vec<usize> {
    let mut inverse = vec![0; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        inverse[p] = i;
    }
    inverse
}

/// `transpose(a, b)`: two axes swapped. Returns the permutation and the shape.
pub fn transpose<D: Dim>(
    op: &'static str,
    shape: &[D],
    a: isize,
    b: isize,
) -> Result<(Vec<usize>, Vec<D>), RuleError<D>> {
    let (a, b) = (norm_axis(op, a, shape)?, norm_axis(op, b, shape)?);
    let mut perm: Vec<usize> = (0..shape.len()).collect();
    perm.swap(a, b);
    let out = perm.iter().map(|&i| shape[i].clone()).collect();
    Ok((perm, out))
}

/// The least rank of an op on the last two axes (`t`, `tril`, `triu`, `diagonal`, `qr`).
pub fn require_rank<D: Dim>(op: &'static str, shape: &[D], min: usize) -> Result<(), RuleError<D>> {
    if shape.len() < min {
        return Err(RuleError::RankTooLow {
            op,
            min,
            shape: shape.to_vec(),
        });
    }
    Ok(())
}

/// `t`: the last two axes swapped; needs rank 2.
pub fn matrix_transpose<D: Dim>(shape: &[D]) -> Result<(Vec<usize>, Vec<D>), RuleError<D>> {
    require_rank("t", shape, 2)?;
    transpose("t", shape, -2, -1)
}

/// `squeeze`: without an axis, every size-1 axis removed; with one, that axis removed if its
/// size is 1, the shape unchanged otherwise (tinygrad's and torch's rule). A symbolic size is
/// an error there, since the rank would depend on it.
pub fn squeeze<D: Dim>(shape: &[D], axis: Option<isize>) -> Result<Vec<D>, RuleError<D>> {
    let op = "squeeze";
    let Some(axis) = axis else {
        return Ok(shape.iter().filter(|d| !d.is(1)).cloned().collect());
    };
    let a = norm_axis_scalar_ok(op, axis, shape)?;
    if shape.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = shape.to_vec();
    match shape[a].known() {
        Some(1) => {
            out.remove(a);
        }
        Some(_) => {}
        None => {
            return Err(shape_error(
                op,
                format!(
                    "axis {axis} has the symbolic size {}; its rank after squeeze would depend on it",
                    shape[a]
                ),
            ));
        }
    }
    Ok(out)
}

/// `unsqueeze`: a size-1 axis inserted at `axis` (in `-(rank + 1)..=rank`).
pub fn unsqueeze<D: Dim>(shape: &[D], axis: isize) -> Result<Vec<D>, RuleError<D>> {
    let a = norm_new_axis("unsqueeze", axis, shape)?;
    let mut out = shape.to_vec();
    out.insert(a, D::lit(1));
    Ok(out)
}

/// `flatten(start, end)`: axes `start..=end` merged (a rank-0 tensor becomes `[1]`).
pub fn flatten<D: Dim>(shape: &[D], start: isize, end: isize) -> Result<Vec<D>, RuleError<D>> {
    let op = "flatten";
    let (s, e) = (
        norm_axis_scalar_ok(op, start, shape)?,
        norm_axis_scalar_ok(op, end, shape)?,
    );
    if shape.is_empty() {
        return Ok(vec![D::lit(1)]);
    }
    if s > e {
        return Err(argument_error(
            op,
            format!(
                "start axis {start} comes after end axis {end} in shape {}",
                show(shape)
            ),
        ));
    }
    let merged = numel(&shape[s..=e]).ok_or_else(|| overflow(op, shape))?;
    let mut out = shape[..s].to_vec();
    out.push(merged);
    out.extend_from_slice(&shape[e + 1..]);
    Ok(out)
}

/// `unflatten(axis, sizes)`: one axis split into `sizes` (one may be left to the op).
pub fn unflatten<D: Dim>(
    ck: &mut Checker<D>,
    shape: &[D],
    axis: isize,
    sizes: &[Option<D>],
) -> Result<Vec<D>, RuleError<D>> {
    let op = "unflatten";
    let a = norm_axis(op, axis, shape)?;
    let sizes = infer_sizes(ck, op, &shape[a..=a], sizes)?;
    let mut out = shape[..a].to_vec();
    out.extend(sizes);
    out.extend_from_slice(&shape[a + 1..]);
    Ok(out)
}

/// `flip(axes)`: the axes reversed, normalized (the shape is unchanged).
pub fn flip<D: Dim>(shape: &[D], axes: &[isize]) -> Result<Vec<usize>, RuleError<D>> {
    axes.iter().map(|&a| norm_axis("flip", a, shape)).collect()
}

/// `repeat(reps)`: each axis tiled `reps[i]` times; extra leading repeats add axes, fewer
/// repeats than axes repeat the trailing axes.
pub fn repeat<D: Dim>(shape: &[D], reps: &[usize]) -> Result<Vec<D>, RuleError<D>> {
    let rank = reps.len().max(shape.len());
    let mut base = vec![D::lit(1); rank - shape.len()];
    base.extend_from_slice(shape);
    let mut all = vec![1usize; rank - reps.len()];
    all.extend_from_slice(reps);
    base.iter()
        .zip(&all)
        .map(|(d, &r)| times("repeat", d, r, shape))
        .collect()
}

/// `repeat_interleave(n, axis)`: each element repeated `n` times along `axis` (over the
/// flattened tensor without one).
pub fn repeat_interleave<D: Dim>(
    shape: &[D],
    n: usize,
    axis: Option<isize>,
) -> Result<Vec<D>, RuleError<D>> {
    let op = "repeat_interleave";
    match axis {
        None => {
            let all = numel(shape).ok_or_else(|| overflow(op, shape))?;
            Ok(vec![times(op, &all, n, shape)?])
        }
        Some(axis) => {
            let a = norm_axis(op, axis, shape)?;
            let mut out = shape.to_vec();
            out[a] = times(op, &shape[a], n, shape)?;
            Ok(out)
        }
    }
}

/// `roll(shifts, axes)`: the axes the shifts apply to, normalized and distinct (the shape is
/// unchanged); without axes, one shift of the flattened tensor.
pub fn roll<D: Dim>(
    shape: &[D],
    shifts: &[isize],
    axes: Option<&[isize]>,
) -> Result<Option<Vec<usize>>, RuleError<D>> {
    let op = "roll";
    let Some(axes) = axes else {
        if shifts.len() != 1 {
            return Err(argument_error(
                op,
                format!("without axes, roll takes one shift, got {shifts:?}"),
            ));
        }
        return Ok(None);
    };
    if axes.len() != shifts.len() {
        return Err(argument_error(
            op,
            format!(
                "{} shifts {shifts:?} for {} axes {axes:?}",
                shifts.len(),
                axes.len()
            ),
        ));
    }
    super::distinct_axes(op, axes, shape).map(Some)
}

/// The two axes a diagonal takes, and the output shape.
pub type Diagonal<D> = ((usize, usize), Vec<D>);

/// `diagonal(offset, dim1, dim2)`: the two axes removed, their diagonal appended (shifted by
/// `offset`: above the main one when positive). Returns the two axes and the shape.
pub fn diagonal<D: Dim>(
    ck: &mut Checker<D>,
    shape: &[D],
    offset: isize,
    dim1: isize,
    dim2: isize,
) -> Result<Diagonal<D>, RuleError<D>> {
    let op = "diagonal";
    require_rank(op, shape, 2)?;
    let (a, b) = (norm_axis(op, dim1, shape)?, norm_axis(op, dim2, shape)?);
    if a == b {
        return Err(argument_error(
            op,
            format!(
                "dim1 {dim1} and dim2 {dim2} name one axis ({a}) of {}",
                show(shape)
            ),
        ));
    }
    let (rows, cols) = (&shape[a], &shape[b]);
    // `offset` elements cut off the start of one axis: `max(n - |offset|, 0)`
    let cut = |ck: &mut Checker<D>, n: &D, axis: usize| -> Result<D, RuleError<D>> {
        let k = offset.unsigned_abs();
        if let Some(n) = n.known() {
            return Ok(D::lit(n.saturating_sub(k)));
        }
        let past = || {
            shape_error(
                op,
                format!(
                    "offset {offset} is past axis {axis} of symbolic size {n} ({})",
                    show(shape)
                ),
            )
        };
        let k_signed = i64::try_from(k)
            .map_err(|_| argument_error(op, format!("offset {offset} is out of range")))?;
        ck.at_most(&D::lit(k), n, past)?;
        n.offset(-k_signed).ok_or_else(past)
    };
    let (rows, cols) = if offset >= 0 {
        (rows.clone(), cut(ck, cols, b)?)
    } else {
        (cut(ck, rows, a)?, cols.clone())
    };
    let mut out: Vec<D> = (0..shape.len())
        .filter(|&i| i != a && i != b)
        .map(|i| shape[i].clone())
        .collect();
    out.push(rows.min_dim(&cols));
    Ok(((a, b), out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::decide;

    #[test]
    fn reshape_infers_one_size_and_keeps_the_count() {
        let r = |s: &[usize], t: &[Option<usize>]| decide(|ck| reshape(ck, s, t));
        assert_eq!(r(&[2, 3, 4], &[Some(6), None]), Ok(vec![6, 4]));
        assert_eq!(r(&[0, 3], &[Some(0), None]).map_err(|_| ()), Err(()));
        assert!(matches!(
            r(&[2, 3, 4], &[Some(5), None]),
            Err(RuleError::Shape { op: "reshape", .. })
        ));
        assert!(matches!(
            r(&[2, 3], &[None, None]),
            Err(RuleError::Argument { .. })
        ));
        let e = r(&[2, 3], &[Some(4), Some(2)]).unwrap_err();
        assert_eq!(
            e,
            RuleError::NumelMismatch {
                op: "reshape",
                from: vec![2, 3],
                to: vec![4, 2]
            }
        );
        assert_eq!(
            e.to_string(),
            "`reshape`: cannot reshape [2, 3] (6 elements) to [4, 2] (8 elements)"
        );
        assert!(matches!(
            r(&[usize::MAX, 2], &[None]),
            Err(RuleError::SizeOverflow { .. })
        ));
    }

    #[test]
    fn axis_reorders() {
        let s = [2usize, 3, 4];
        assert_eq!(
            permute("permute", &s, &[2, 0, -2]),
            Ok((vec![2, 0, 1], vec![4, 2, 3]))
        );
        assert!(matches!(
            permute("permute", &s, &[0, 1]),
            Err(RuleError::RankMismatch { given: 2, .. })
        ));
        assert!(matches!(
            permute("permute", &s, &[0, 0, 1]),
            Err(RuleError::DuplicateAxis { axis: 0, .. })
        ));
        assert_eq!(
            transpose("transpose", &s, 0, -1).map(|p| p.1),
            Ok(vec![4, 3, 2])
        );
        assert_eq!(matrix_transpose(&[2usize, 3]).map(|p| p.1), Ok(vec![3, 2]));
        assert!(matches!(
            matrix_transpose(&[3usize]),
            Err(RuleError::RankTooLow { min: 2, .. })
        ));
    }

    #[test]
    fn size_one_axes() {
        let s = [2usize, 1, 3, 1];
        assert_eq!(squeeze(&s, None), Ok(vec![2, 3]));
        assert_eq!(squeeze(&s, Some(1)), Ok(vec![2, 3, 1]));
        assert_eq!(squeeze(&s, Some(0)), Ok(s.to_vec()));
        assert_eq!(squeeze::<usize>(&[], Some(-1)), Ok(vec![]));
        assert!(squeeze(&s, Some(4)).is_err());
        assert_eq!(unsqueeze(&[2usize, 3], -1), Ok(vec![2, 3, 1]));
        assert!(matches!(
            unsqueeze(&[2usize, 3], 3),
            Err(RuleError::AxisOutOfRange { new_axis: true, .. })
        ));
    }

    #[test]
    fn merging_and_splitting_axes() {
        let s = [2usize, 3, 4];
        assert_eq!(flatten(&s, 0, -1), Ok(vec![24]));
        assert_eq!(flatten(&s, 1, 2), Ok(vec![2, 12]));
        assert_eq!(flatten::<usize>(&[], 0, -1), Ok(vec![1]));
        assert!(matches!(flatten(&s, 2, 1), Err(RuleError::Argument { .. })));
        let u = |t: &[Option<usize>]| decide(|ck| unflatten(ck, &[3usize, 4, 1], 1, t));
        assert_eq!(u(&[Some(2), None]), Ok(vec![3, 2, 2, 1]));
        assert!(matches!(
            u(&[Some(3), Some(2)]),
            Err(RuleError::NumelMismatch { .. })
        ));
    }

    #[test]
    fn tiling() {
        assert_eq!(repeat(&[2usize, 3], &[2, 1, 3]), Ok(vec![2, 2, 9]));
        assert_eq!(repeat(&[2usize, 3], &[2]), Ok(vec![2, 6]));
        assert_eq!(repeat_interleave(&[2usize, 3], 2, Some(0)), Ok(vec![4, 3]));
        assert_eq!(repeat_interleave(&[2usize, 3], 2, None), Ok(vec![12]));
        assert_eq!(roll(&[2usize, 3], &[1], Some(&[0])), Ok(Some(vec![0])));
        assert!(roll(&[2usize, 3], &[1, 2], None).is_err());
        assert!(roll(&[2usize, 3], &[1, 2], Some(&[0, -2])).is_err());
    }

    #[test]
    fn diagonals() {
        let d = |s: &[usize], o, a, b| decide(|ck| diagonal(ck, s, o, a, b)).map(|r| r.1);
        assert_eq!(d(&[3, 4], 0, 0, 1), Ok(vec![3]));
        assert_eq!(d(&[3, 4], 2, 0, 1), Ok(vec![2]));
        assert_eq!(d(&[3, 4], -5, 0, 1), Ok(vec![0]));
        assert_eq!(d(&[2, 3, 4], 0, -1, 0), Ok(vec![3, 2]));
        assert!(matches!(
            d(&[3, 4], 0, 1, -1),
            Err(RuleError::Argument { .. })
        ));
        assert!(matches!(
            d(&[3], 0, 0, 1),
            Err(RuleError::RankTooLow { .. })
        ));
    }
}
