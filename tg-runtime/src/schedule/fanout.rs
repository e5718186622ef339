//! Values read through many different views get a buffer of their own.
//!
//! Lowering computes a node once per distinct index it is read at (it memoizes on node and
//! index), so sharing through elementwise ops costs nothing; what multiplies work is reading a
//! value through different views. A network whose stages each read the previous stage at two
//! places (a bitonic sort, a scan) doubles the views at every stage, so fusing it all would
//! cost exponentially many evaluations. Counting the distinct chains of movement ops from the
//! kernel's output to each node finds the highest node that would be recomputed too often.
//!
//! A value made of constants and index arithmetic alone (an iota, a mask) is cut only past
//! many more views, as `reuse.rs` keeps such values fused: it loads nothing, and a few
//! integer ops at each view cost less than a kernel of its own. The shift amounts of a
//! quantized weight's decode (`8 * i` from an iota, read through a view per weight tensor)
//! were a kernel of four values in every step of a language model.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::{computes, is_boundary};
use crate::graph::node::{Node, Op};
use crate::graph::walk::post_order;

/// Distinct views above which a node that computes something from data is worth a buffer.
const MAX_VIEWS: usize = 8;

/// Distinct views above which a value of constants and index arithmetic alone is worth a
/// buffer: its few integer ops repeat at each view, but a network of views that doubles at
/// every stage would still make its evaluations exponential.
const MAX_INDEX_VIEWS: usize = 64;

/// Changes the index a source is read at.
fn reindexes(n: &Node) -> bool {
    n.op().is_movement() || matches!(n.op(), Op::Reduce(..))
}

/// The highest computing node of `root`'s fused region that reads data and is read through
/// more than `MAX_VIEWS` distinct views, if any.
pub fn overshared(root: &Arc<Node>, realize: &HashSet<u64>) -> Option<Arc<Node>> {
    // reverse post-order of a depth-first walk: every consumer before its sources (sources
    // entered last to first)
    let post = post_order(std::slice::from_ref(root), |n| {
        if n.id() == root.id() || !is_boundary(n, realize) {
            let mut srcs = n.srcs();
            srcs.reverse();
            srcs
        } else {
            Vec::new()
        }
    });
    // the nodes whose computation reads a buffer, a realized value or another kernel's output
    // (sources come first in post-order)
    let mut reads_data: HashSet<u64> = HashSet::new();
    for n in &post {
        let data = if n.id() != root.id() && is_boundary(n, realize) {
            true
        } else {
            n.srcs().iter().any(|s| reads_data.contains(&s.id()))
        };
        if data {
            reads_data.insert(n.id());
        }
    }
    // each view is the chain of reindexing nodes from the root, kept as a hash; sets are
    // capped, since only "more than MAX_INDEX_VIEWS" matters, so a short list is the set. Every
    // consumer of a node comes before it, so its set is complete (and taken) when it is met.
    let mut views: HashMap<u64, Vec<u64>> = HashMap::from([(root.id(), vec![0])]);
    for n in post.iter().rev() {
        let mine = views.remove(&n.id()).unwrap_or_default();
        if n.id() != root.id() {
            if is_boundary(n, realize) {
                continue;
            }
            let most = match reads_data.contains(&n.id()) {
                true => MAX_VIEWS,
                false => MAX_INDEX_VIEWS,
            };
            if mine.len() > most && computes(n) {
                return Some(n.clone());
            }
        }
        let passed: Vec<u64> = if reindexes(n) {
            mine.iter().map(|&v| chain(v, n.id())).collect()
        } else {
            mine
        };
        for s in n.srcs() {
            let set = views.entry(s.id()).or_default();
            for &v in &passed {
                if set.len() > MAX_INDEX_VIEWS {
                    break;
                }
                if !set.contains(&v) {
                    set.push(v);
                }
            }
        }
    }
    None
}

/// The view `v` continued through reindexing node `id`: a 64-bit mix (the sets only count
/// views, so a collision could only miss one).
fn chain(v: u64, id: u64) -> u64 {
    (v.rotate_left(29) ^ id)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(31)
        .wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// Cuts every region reachable from `roots` (outputs first) until no value is read through
/// too many views; a cut node is then a root of its own region, checked in turn.
pub fn cut_all(roots: Vec<Arc<Node>>, realize: &mut HashSet<u64>) -> bool {
    let mut work = roots;
    work.reverse(); // pop from the end: outputs first
    let mut cut = false;
    while let Some(root) = work.pop() {
        while let Some(n) = overshared(&root, realize) {
            realize.insert(n.id());
            work.insert(0, n);
            cut = true;
        }
    }
    cut
}
