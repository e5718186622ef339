//! numpy broadcasting: shapes align at their last axis, aligned sizes are equal or one of them
//! is 1, and the longer shape keeps its leading axes. Elementwise ops broadcast their operands
//! together; `expand` and `broadcast_to` broadcast one shape to a given one.

use crate::check::Checker;
use crate::dim::Dim;
use crate::error::{RuleError, shape_error};

use super::{show, show_target};

/// The broadcast of two shapes.
pub fn broadcast<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    a: &[D],
    b: &[D],
) -> Result<Vec<D>, RuleError<D>> {
    let rank = a.len().max(b.len());
    let mut out = Vec::with_capacity(rank);
    for i in 0..rank {
        let x = (i + a.len()).checked_sub(rank).map(|k| &a[k]);
        let y = (i + b.len()).checked_sub(rank).map(|k| &b[k]);
        out.push(match (x, y) {
            (Some(x), None) | (None, Some(x)) => x.clone(),
            (Some(x), Some(y)) if x.is(1) => y.clone(),
            (Some(x), Some(y)) if y.is(1) => x.clone(),
            (Some(x), Some(y)) => {
                // a symbolic size that is 1 at run time would stretch; the rule asks for
                // equal sizes unless one is literally 1
                ck.equal(x, y, || RuleError::Broadcast {
                    op,
                    lhs: a.to_vec(),
                    rhs: b.to_vec(),
                    axis: i as isize - rank as isize,
                })?;
                if x.is_dynamic() { y.clone() } else { x.clone() }
            }
            (None, None) => unreachable!("i < rank, so one shape has axis i"),
        });
    }
    Ok(out)
}

/// The broadcast of several shapes (an empty list broadcasts to a scalar).
pub fn broadcast_all<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shapes: &[&[D]],
) -> Result<Vec<D>, RuleError<D>> {
    shapes
        .iter()
        .try_fold(Vec::new(), |acc, s| broadcast(ck, op, &acc, s))
}

/// `shape` stretched to `target` (`expand`): new axes on the left, size-1 axes stretch, a
/// `None` keeps the axis as it is (a new axis then has size 1).
pub fn expand<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    target: &[Option<D>],
) -> Result<Vec<D>, RuleError<D>> {
    if target.len() < shape.len() {
        return Err(shape_error(
            op,
            format!(
                "cannot broadcast {} to the lower rank {}",
                show(shape),
                show_target(target)
            ),
        ));
    }
    let lead = target.len() - shape.len();
    let wanted: Vec<D> = target
        .iter()
        .enumerate()
        .map(|(i, t)| match t {
            Some(t) => t.clone(),
            None if i < lead => D::lit(1),
            None => shape[i - lead].clone(),
        })
        .collect();
    for (i, d) in shape.iter().enumerate() {
        let t = &wanted[lead + i];
        if !d.is(1) {
            ck.equal(d, t, || RuleError::Broadcast {
                op,
                lhs: shape.to_vec(),
                rhs: wanted.clone(),
                axis: i as isize - shape.len() as isize,
            })?;
        }
    }
    Ok(wanted)
}

/// `shape` stretched to exactly `target` (`broadcast_to`).
pub fn broadcast_to<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    target: &[D],
) -> Result<Vec<D>, RuleError<D>> {
    let target: Vec<Option<D>> = target.iter().cloned().map(Some).collect();
    expand(ck, op, shape, &target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::decide;

    #[test]
    fn numpy_broadcasting() {
        let b = |x: &[usize], y: &[usize]| decide(|ck| broadcast(ck, "add", x, y));
        assert_eq!(b(&[2, 1, 3], &[4, 3]), Ok(vec![2, 4, 3]));
        assert_eq!(b(&[], &[2]), Ok(vec![2]));
        assert_eq!(b(&[0], &[1]), Ok(vec![0]));
        let e = b(&[2, 3], &[2, 4]).unwrap_err();
        assert!(matches!(e, RuleError::Broadcast { axis: -1, .. }));
        assert_eq!(
            e.to_string(),
            "`add`: shapes [2, 3] and [2, 4] do not broadcast: axis -1 is 3 in one and 4 in the other"
        );
        assert_eq!(
            decide(|ck| broadcast_all(ck, "where", &[&[2, 1], &[3], &[1, 1, 1]])),
            Ok(vec![1, 2, 3])
        );
    }

    #[test]
    fn expand_stretches_ones_and_keeps_minus_one() {
        let e = |x: &[usize], t: &[Option<usize>]| decide(|ck| expand(ck, "expand", x, t));
        assert_eq!(e(&[2, 1], &[Some(4), None, Some(3)]), Ok(vec![4, 2, 3]));
        assert_eq!(e(&[3], &[None, None]), Ok(vec![1, 3]));
        assert!(matches!(
            e(&[2, 3], &[Some(3)]),
            Err(RuleError::Shape { .. })
        ));
        assert!(matches!(
            e(&[2], &[Some(3)]),
            Err(RuleError::Broadcast { .. })
        ));
        assert_eq!(
            decide(|ck| broadcast_to(ck, "broadcast_to", &[3], &[2, 3])),
            Ok(vec![2, 3])
        );
    }
}
