//! Gathers read their values at positions known only when the kernel runs. Codegen computes
//! each value there like any fused value, but a reduction's loop cannot open at such a
//! position (its index would be a value of the loop's own block), so every reduction a
//! gather's values are computed from gets a buffer of its own.

use std::collections::HashSet;
use std::sync::Arc;

use super::is_boundary;
use crate::graph::node::{Node, Op};

/// The reductions inside the fused regions of the gathers' values among `order`, given the
/// nodes that already get buffers. More buffers only shrink regions, so the answer for the
/// first set of buffers holds for every later one.
pub(super) fn reductions_under(order: &[Arc<Node>], realize: &HashSet<u64>) -> Vec<u64> {
    let mut found = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut stack: Vec<Arc<Node>> = order
        .iter()
        .filter(|n| !n.is_realized() && matches!(n.op(), Op::Gather(_)))
        .map(|n| n.srcs()[0].clone())
        .collect();
    while let Some(n) = stack.pop() {
        if is_boundary(&n, realize) || !seen.insert(n.id()) {
            continue;
        }
        if matches!(n.op(), Op::Reduce(..)) {
            found.push(n.id());
            continue;
        }
        stack.extend(n.srcs());
    }
    found
}
