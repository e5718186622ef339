//! Row kernels: a reduction broadcast back over the row it reduced (softmax's max and sum,
//! layernorm's mean and variance) runs once per row inside the kernel that consumes it, instead
//! of in a kernel of its own.
//!
//! A kernel qualifies when each such reduction reduces the trailing axes of a source shaped
//! like the kernel's output, and every path from the output to it is elementwise except one
//! expand that broadcasts exactly those axes back. Then the reduction's index depends on the
//! row alone, so it runs cooperatively once per workgroup, and the row's outputs follow.

use std::collections::HashSet;
use std::sync::Arc;

use crate::codegen::program::LANES;
use crate::graph::node::{Node, Op};

/// Rows shorter than this are not worth a workgroup each.
const MIN_ROW: usize = 64;

#[derive(Copy, Clone, PartialEq)]
enum Path {
    /// Index is the kernel's full output index (or a reduction source's).
    Full,
    /// Below a broadcast of the row's trailing axes: the index depends on the row only.
    Row,
    /// Below some other movement: nothing known.
    Other,
}

/// The row length if `candidates` (reductions `root` would otherwise realize) can all run
/// inside a row kernel for `root`.
pub fn row_split(
    root: &Arc<Node>,
    realize: &HashSet<u64>,
    candidates: &[Arc<Node>],
) -> Option<usize> {
    if candidates.is_empty() || matches!(root.op(), Op::Reduce(..)) {
        return None;
    }
    let shape = root.shape();
    let rank = shape.len();
    let mut split = None;
    for r in candidates {
        let Op::Reduce(_, axes) = r.op() else {
            return None;
        };
        let src = &r.srcs()[0];
        let p = *axes.first()?;
        let trailing =
            axes.iter().enumerate().all(|(i, &a)| a == p + i) && axes.last() == Some(&(rank - 1));
        if src.shape() != shape || !trailing || split.is_some_and(|s| s != p) {
            return None;
        }
        split = Some(p);
    }
    let p = split?;
    let row: usize = shape[p..].iter().product();
    if !row.is_multiple_of(LANES) || row < MIN_ROW {
        return None;
    }
    let is_candidate = |n: &Node| candidates.iter().any(|c| c.id() == n.id());
    let row_broadcast = |n: &Node, src: &Node| {
        n.shape() == shape
            && src
                .shape()
                .iter()
                .enumerate()
                .all(|(i, &d)| if i >= p { d == 1 } else { d == shape[i] })
    };
    let mut seen: HashSet<(u64, u8)> = HashSet::new();
    let mut stack = vec![(root.clone(), Path::Full, true)];
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
            Op::Reduce(..) if is_candidate(&n) => {
                if path != Path::Row {
                    return None;
                }
                Path::Full
            }
            Op::Reduce(..) => Path::Other,
            Op::Expand if path == Path::Full && row_broadcast(&n, &srcs[0]) => Path::Row,
            op if op.is_movement() => Path::Other,
            _ => path,
        };
        for s in srcs {
            stack.push((s, next, false));
        }
    }
    Some(row)
}
