//! Caps the size of a kernel, so that compiling a long graph takes time in proportion to it.
//!
//! A fused kernel's source grows with its region, and shader compilers are not linear in
//! the size of one function (a 100,000-op chain as one kernel took minutes to compile on
//! lavapipe). Walking each region from its sources up, a value reached after `MAX_OPS`
//! nodes since the last cut gets a buffer, so the region above it starts afresh. Cuts fall
//! on computing nodes only: a movement node (an expand, say) may describe far more elements
//! than it reads. A long chain then becomes kernels of one structure, which share one
//! compiled shader.

use std::collections::HashSet;
use std::sync::Arc;

use super::{computes, is_boundary};
use crate::graph::node::Node;
use crate::graph::walk::post_order;

/// Nodes a kernel's region may hold before a cut.
pub const MAX_OPS: usize = 2048;

/// Cuts every region of `roots` larger than [`MAX_OPS`]; true if anything was cut.
pub fn cut_all(roots: &[Arc<Node>], realize: &mut HashSet<u64>) -> bool {
    let mut cut = false;
    for root in roots {
        for n in cuts(root, realize) {
            realize.insert(n.id());
            cut = true;
        }
    }
    cut
}

/// The nodes of `root`'s region to cut, walking it in post-order (sources first).
fn cuts(root: &Arc<Node>, realize: &HashSet<u64>) -> Vec<Arc<Node>> {
    let mut found = Vec::new();
    let mut since = 0usize;
    // sources last to first, as the walk has always taken them (where the cuts fall)
    let inside = |n: &Arc<Node>| {
        let mut srcs: Vec<Arc<Node>> = n
            .srcs()
            .into_iter()
            .filter(|s| !is_boundary(s, realize))
            .collect();
        srcs.reverse();
        srcs
    };
    for n in post_order(std::slice::from_ref(root), inside) {
        since += 1;
        if since >= MAX_OPS && n.id() != root.id() && computes(&n) {
            found.push(n);
            since = 0;
        }
    }
    found
}
