//! numpy's `matmul` shapes: a rank-1 operand is a vector (the result drops its axis), the
//! last axis of the left meets the second-to-last of the right (the only one of a vector), and
//! the leading axes of both are batch axes that broadcast.

use crate::check::Checker;
use crate::dim::Dim;
use crate::error::{RuleError, shape_error};

use super::broadcast::broadcast;
use super::show;

/// The shape of `a @ b`.
pub fn matmul<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    a: &[D],
    b: &[D],
) -> Result<Vec<D>, RuleError<D>> {
    if a.is_empty() || b.is_empty() {
        return Err(shape_error(
            op,
            format!(
                "cannot multiply {} by {}: both operands need at least one axis",
                show(a),
                show(b)
            ),
        ));
    }
    let k_a = &a[a.len() - 1];
    let k_b = if b.len() == 1 { &b[0] } else { &b[b.len() - 2] };
    ck.equal(k_a, k_b, || {
        shape_error(
            op,
            format!(
                "inner dimensions differ: {} @ {}: {k_a} (last axis of the left) vs {k_b} ({} of the right)",
                show(a),
                show(b),
                if b.len() == 1 {
                    "the only axis"
                } else {
                    "second-to-last axis"
                }
            ),
        )
    })?;
    let (ba, bb) = (
        &a[..a.len().saturating_sub(2)],
        &b[..b.len().saturating_sub(2)],
    );
    let mut out = broadcast(ck, op, ba, bb).map_err(|e| match e {
        RuleError::Broadcast { axis, .. } => {
            let at = |s: &[D]| s[(s.len() as isize + axis) as usize].to_string();
            shape_error(
                op,
                format!(
                    "the batch axes of {} @ {} do not broadcast: {} and {} (axis {axis}: {} vs {})",
                    show(a),
                    show(b),
                    show(ba),
                    show(bb),
                    at(ba),
                    at(bb)
                ),
            )
        }
        other => other,
    })?;
    if a.len() >= 2 {
        out.push(a[a.len() - 2].clone());
    }
    if b.len() >= 2 {
        out.push(b[b.len() - 1].clone());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::decide;

    #[test]
    fn numpy_matmul_shapes() {
        let m = |a: &[usize], b: &[usize]| decide(|ck| matmul(ck, "matmul", a, b));
        assert_eq!(m(&[5, 2, 3], &[3, 4]), Ok(vec![5, 2, 4]));
        assert_eq!(m(&[3], &[2, 3, 4]), Ok(vec![2, 4]));
        assert_eq!(m(&[2, 3], &[3]), Ok(vec![2]));
        assert_eq!(m(&[3], &[3]), Ok(vec![]));
        assert_eq!(m(&[2, 1, 2, 3], &[4, 3, 5]), Ok(vec![2, 4, 2, 5]));
        let e = m(&[2, 3], &[4, 5]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "`matmul`: inner dimensions differ: [2, 3] @ [4, 5]: 3 (last axis of the left) vs 4 (second-to-last axis of the right)"
        );
        assert_eq!(
            m(&[2, 2, 3], &[3, 3, 4]).unwrap_err().to_string(),
            "`matmul`: the batch axes of [2, 2, 3] @ [3, 3, 4] do not broadcast: [2] and [3] (axis -1: 2 vs 3)"
        );
        assert!(m(&[], &[3]).is_err());
    }
}
