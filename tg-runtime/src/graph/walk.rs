//! The one graph walk: sources before the nodes that read them, iteratively.
//!
//! The scheduler (its node order, kernel size caps, views per value), the gradient (the paths
//! to its targets), kernel signatures and lowering (how deeply reductions nest) all need the
//! nodes below some roots in post-order, each through its own notion of which edges to follow.
//! Graphs may be long chains (200,000 ops differentiate on a 1 MiB stack), so no walk recurses.

use std::collections::HashSet;
use std::sync::Arc;

use super::node::Node;

/// The nodes reachable from `roots` through `descend`, each once, every node after the nodes
/// `descend` gave for it: a depth-first post-order (sources before consumers).
///
/// `descend(n)` is asked once per node, when the walk first meets it, and says which nodes to
/// go on to; the walk enters them in the order given (the first one's subgraph comes first in
/// the result), and the roots in their order. Nodes already met are not entered again, so the
/// walk is linear in the edges it follows.
pub fn post_order(
    roots: &[Arc<Node>],
    mut descend: impl FnMut(&Arc<Node>) -> Vec<Arc<Node>>,
) -> Vec<Arc<Node>> {
    let mut order = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    // (node, whether its sources were pushed): the second time it is popped, it is done
    let mut stack: Vec<(Arc<Node>, bool)> =
        roots.iter().rev().map(|r| (r.clone(), false)).collect();
    while let Some((n, entered)) = stack.pop() {
        if entered {
            order.push(n);
            continue;
        }
        if !seen.insert(n.id()) {
            continue;
        }
        let next = descend(&n);
        stack.push((n, true));
        for s in next.into_iter().rev() {
            if !seen.contains(&s.id()) {
                stack.push((s, false));
            }
        }
    }
    order
}
