//! Values read through many different views get a buffer of their own.
//!
//! Fusion evaluates a node once per index path that reaches it. A network whose stages each
//! read the previous stage at two places (a bitonic sort, a scan) doubles the paths at every
//! stage, so fusing it all would cost exponentially many evaluations. Counting paths through
//! the fused region finds the highest node that would be recomputed too often.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::graph::node::{Node, Op};

/// Paths above which a node that computes something is worth a buffer.
const MAX_PATHS: u128 = 8;

fn is_boundary(n: &Node, realize: &HashSet<u64>) -> bool {
    n.is_realized() || matches!(n.op(), Op::Buffer) || realize.contains(&n.id())
}

/// Does evaluating the node cost more than an index computation?
fn computes(n: &Node) -> bool {
    n.op().is_elementwise() || matches!(n.op(), Op::Reduce(..))
}

/// The highest computing node of `root`'s fused region reached by more than `MAX_PATHS`
/// index paths, if any.
pub fn overshared(root: &Arc<Node>, realize: &HashSet<u64>) -> Option<Arc<Node>> {
    // reverse post-order of a depth-first walk: every consumer before its sources
    let mut post: Vec<Arc<Node>> = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut stack: Vec<(Arc<Node>, bool)> = vec![(root.clone(), false)];
    while let Some((n, done)) = stack.pop() {
        if done {
            post.push(n);
            continue;
        }
        if !seen.insert(n.id()) {
            continue;
        }
        stack.push((n.clone(), true));
        if n.id() == root.id() || !is_boundary(&n, realize) {
            for s in n.srcs() {
                if !seen.contains(&s.id()) {
                    stack.push((s, false));
                }
            }
        }
    }
    let mut paths: HashMap<u64, u128> = HashMap::from([(root.id(), 1)]);
    for n in post.iter().rev() {
        let p = paths.get(&n.id()).copied().unwrap_or(0);
        if n.id() != root.id() && p > MAX_PATHS && computes(n) && !is_boundary(n, realize) {
            return Some(n.clone());
        }
        if n.id() != root.id() && is_boundary(n, realize) {
            continue;
        }
        let mut distinct: Vec<u64> = Vec::new();
        for s in n.srcs() {
            if !distinct.contains(&s.id()) {
                distinct.push(s.id());
                *paths.entry(s.id()).or_insert(0) += p;
            }
        }
    }
    None
}
