//! Caps the size of a kernel, so that compiling a long graph takes time in proportion to it,
//! and the buffers it reads, so that it binds no more than the device allows.
//!
//! A fused kernel's source grows with its region, and shader compilers are not linear in
//! the size of one function (a 100,000-op chain as one kernel took minutes to compile on
//! lavapipe). Walking each region from its sources up, a value reached after `MAX_OPS`
//! nodes since the last cut gets a buffer, so the region above it starts afresh. Cuts fall
//! on computing nodes only: a movement node (an expand, say) may describe far more elements
//! than it reads. A long chain then becomes kernels of one structure, which share one
//! compiled shader.
//!
//! A region also reads at most as many buffers as a kernel may bind beside its output
//! (`maxPerStageDescriptorStorageBuffers`: 32 on lavapipe, which segfaulted on a kernel that
//! binds more: a sum of 40 tensors, or a kernel of a GPT's training step that read 36 buffers
//! under a trial threshold of `reuse.rs`). Where one reads more, the value
//! within it that reads the most buffers, but few enough for a kernel of its own, gets a
//! buffer; the scheduler looks again until every region fits.

use std::collections::{HashMap, HashSet};
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

/// The sources of `n` inside its region, last to first (as the walk has always taken them:
/// where the cuts fall).
fn inside(n: &Arc<Node>, realize: &HashSet<u64>) -> Vec<Arc<Node>> {
    let mut srcs: Vec<Arc<Node>> = n
        .srcs()
        .into_iter()
        .filter(|s| !is_boundary(s, realize))
        .collect();
    srcs.reverse();
    srcs
}

/// The nodes of `root`'s region to cut, walking it in post-order (sources first).
fn cuts(root: &Arc<Node>, realize: &HashSet<u64>) -> Vec<Arc<Node>> {
    let mut found = Vec::new();
    let mut since = 0usize;
    for n in post_order(std::slice::from_ref(root), |n| inside(n, realize)) {
        since += 1;
        if since >= MAX_OPS && n.id() != root.id() && computes(&n) {
            found.push(n);
            since = 0;
        }
    }
    found
}

/// Gives a buffer to one value in each region of `roots` that reads more than `max_inputs`
/// buffers; true if any got one. The scheduler calls it again until none does.
pub fn cut_inputs(roots: &[Arc<Node>], realize: &mut HashSet<u64>, max_inputs: usize) -> bool {
    let mut cut = false;
    for root in roots {
        if let Some(n) = input_cut(root, realize, max_inputs) {
            realize.insert(n.id());
            cut = true;
        }
    }
    cut
}

/// The value of `root`'s region to give a buffer, if the region reads more than
/// `max_inputs` buffers: of the computing values below the root, the one whose own
/// computation reads the most buffers, at least two (so the region reads fewer) and at most
/// `max_inputs` (so it fits a kernel itself).
fn input_cut(root: &Arc<Node>, realize: &HashSet<u64>, max_inputs: usize) -> Option<Arc<Node>> {
    let order = post_order(std::slice::from_ref(root), |n| inside(n, realize));
    // the usual case, kept cheap: the region's buffers fit
    let read: HashSet<u64> = order
        .iter()
        .flat_map(|n| n.srcs())
        .filter(|s| is_boundary(s, realize))
        .map(|s| s.id())
        .collect();
    if read.len() <= max_inputs {
        return None;
    }
    // the buffers each value's computation reads, by id
    let mut reads: HashMap<u64, HashSet<u64>> = HashMap::new();
    for n in &order {
        let mut own: HashSet<u64> = HashSet::new();
        for s in n.srcs() {
            if is_boundary(&s, realize) {
                own.insert(s.id());
            } else if let Some(r) = reads.get(&s.id()) {
                own.extend(r);
            }
        }
        reads.insert(n.id(), own);
    }
    order
        .iter()
        .filter(|n| n.id() != root.id() && computes(n))
        .filter(|n| (2..=max_inputs).contains(&reads[&n.id()].len()))
        .max_by_key(|n| reads[&n.id()].len())
        .cloned()
}
