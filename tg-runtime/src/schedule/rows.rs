//! Row kernels: a reduction broadcast back over the row it reduced (softmax's max and sum,
//! layernorm's mean and variance, logsumexp's max) runs once per row inside the kernel that
//! consumes it, instead of in a kernel of its own.
//!
//! The rows are the leading axes of a shape `S` that every such reduction reduces over its
//! trailing axes. Walking from the kernel's output, an index is either the full index of `S`,
//! or the row's alone (below a broadcast of the trailing axes, or at an output shaped like one
//! row's result); each reduction must be met where the index is the row's alone. Then it runs
//! cooperatively once per workgroup, and the row's outputs (or the row's own reduction) follow.

use std::collections::HashSet;
use std::sync::Arc;

use crate::graph::node::{Node, Op};
use crate::kernel::LANES;

/// Rows shorter than this are not worth a workgroup each.
const MIN_ROW: usize = 64;

/// How a kernel runs the reductions it keeps.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RowPlan {
    /// The output has the full shape: rows of this many outputs (`Strategy::Row`).
    Row(usize),
    /// The output has one value per row: a cooperative workgroup per four rows, or, where
    /// the rows keep the device busy, an invocation (serial).
    Reduce,
}

#[derive(Copy, Clone, PartialEq)]
enum Path {
    /// The full index of `S`.
    Full,
    /// The row's index alone.
    Row,
    /// Something else: no reduction may be met here.
    Other,
}

/// `shape` without trailing size-1 axes.
fn trimmed(shape: &[usize]) -> &[usize] {
    let n = shape.iter().rposition(|&d| d != 1).map_or(0, |i| i + 1);
    &shape[..n]
}

/// The plan if `candidates` (reductions `root` would otherwise realize) can all run inside
/// `root`'s kernel once per row.
pub fn row_split(
    root: &Arc<Node>,
    realize: &HashSet<u64>,
    candidates: &[Arc<Node>],
) -> Option<RowPlan> {
    let first = candidates.first()?;
    let s = first.srcs()[0].shape().to_vec();
    let rank = s.len();
    let Op::Reduce(_, axes0) = first.op() else {
        return None;
    };
    let p = *axes0.first()?;
    let trailing: Vec<usize> = (p..rank).collect();
    let reduces_rows =
        |n: &Node| matches!(n.op(), Op::Reduce(_, a) if *a == trailing) && n.srcs()[0].shape() == s;
    if !candidates.iter().all(|c| reduces_rows(c)) {
        return None;
    }
    let row_shape = &s[..p];
    let (start, plan) = if root.shape() == s {
        let row: usize = s[p..].iter().product();
        if !row.is_multiple_of(LANES) || row < MIN_ROW {
            return None;
        }
        (Path::Full, RowPlan::Row(row))
    } else if trimmed(root.shape()) == trimmed(row_shape) && root.shape().len() <= rank {
        (Path::Row, RowPlan::Reduce)
    } else {
        return None;
    };
    let row_broadcast = |n: &Node, src: &Node| {
        n.shape() == s.as_slice()
            && src.shape().len() == rank
            && src.shape()[..p] == *row_shape
            && src.shape()[p..].iter().all(|&d| d == 1)
    };
    let row_level = |shape: &[usize]| trimmed(shape) == trimmed(row_shape);
    let mut seen: HashSet<(u64, u8)> = HashSet::new();
    let mut stack = vec![(root.clone(), start, true)];
    while let Some((n, path, is_root)) = stack.pop() {
        if !is_root
            && (n.is_realized() || matches!(n.op(), Op::Buffer) || realize.contains(&n.id()))
        {
            continue;
        }
        if !seen.insert((n.id(), path as u8)) {
            continue;
        }
        let srcs = n.srcs();
        let next = match n.op() {
            Op::Reduce(..) if reduces_rows(&n) => {
                if path != Path::Row {
                    return None;
                }
                Path::Full
            }
            Op::Reduce(..) => {
                if candidates.iter().any(|c| c.id() == n.id()) {
                    return None;
                }
                Path::Other
            }
            Op::Expand if path == Path::Full && row_broadcast(&n, &srcs[0]) => Path::Row,
            // dropping or adding size-1 axes of a row's value keeps it the row's
            Op::Reshape
                if path == Path::Row && row_level(n.shape()) && row_level(srcs[0].shape()) =>
            {
                Path::Row
            }
            op if op.is_movement() => Path::Other,
            _ => path,
        };
        // a gather reads its values at other positions than its own
        let gathered = matches!(n.op(), Op::Gather(_));
        for (k, src) in srcs.into_iter().enumerate() {
            let next = if gathered && k == 0 {
                Path::Other
            } else {
                next
            };
            stack.push((src, next, false));
        }
    }
    Some(plan)
}
