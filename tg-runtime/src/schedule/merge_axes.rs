//! A kernel computed over its output with trailing axes merged, where that lets it be tiled.
//!
//! Tiles store whole vectors of [`LANES`] columns along the last axis
//! ([`crate::kernel::tile_axes`]), so an output whose rows are short and ragged (a pointwise
//! convolution over a 6 x 6 image, then its bias and `Clip`) is computed four outputs an
//! invocation, each loading every weight for itself. Where the output's trailing axes are
//! contiguous in every value the kernel reads, the same kernel can run over them flattened
//! (6 x 6 -> 36, a whole number of vectors): the output buffer holds the same elements in the
//! same order, only the index a kernel forms changes. The body is rebuilt over the merged
//! shape, the reshape pushed from the output down to the kernel's leaves, and accepted only
//! where every leaf takes it without a division: a reshape that undoes it (the convolution's
//! own flat sum), a buffer (its flat index recombines), a constant, or a broadcast along all
//! the merged axes or none.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::is_boundary;
use crate::graph::lazy::Lazy;
use crate::graph::node::{Node, Op};
use crate::kernel::{LANES, tile_axes};
use crate::target::BASE_ROWS;

/// `body` rebuilt over its shape with the fewest trailing axes merged that give a last axis of
/// whole vectors and an axis before it that a tile's rows take, or `None` where no such
/// merge exists or some value of the body would need a division to read through it.
pub(super) fn merged(body: &Arc<Node>, realize: &HashSet<u64>) -> Option<Arc<Node>> {
    (2..body.shape().len()).find_map(|k| {
        let to = merge_last(body.shape(), k);
        let columns = to[to.len() - 1];
        if !columns.is_multiple_of(LANES) || tile_axes(&to, BASE_ROWS, 1).is_empty() {
            return None;
        }
        Merge {
            k,
            realize,
            done: HashMap::new(),
        }
        .node(body, true)
        // a body that only reshapes a buffer would become the buffer's own node, which the
        // kernel must read, not compute
        .filter(|merged| !is_boundary(merged, realize))
    })
}

/// `shape` with its last `k` axes merged into one.
fn merge_last(shape: &[usize], k: usize) -> Vec<usize> {
    let at = shape.len() - k;
    let mut to = shape[..at].to_vec();
    to.push(shape[at..].iter().product());
    to
}

/// One attempt: the last `k` axes of every value in the region merged into one.
struct Merge<'a> {
    k: usize,
    realize: &'a HashSet<u64>,
    /// Values already rebuilt (the region is a graph: a value read twice is rebuilt once).
    done: HashMap<u64, Option<Arc<Node>>>,
}

impl Merge<'_> {
    /// `n` read as `shape`: a buffer through a reshape of its own (one it holds would fold
    /// into it and read past the buffer), anything else as `Lazy::reshape` gives it.
    fn reshaped(&self, n: &Arc<Node>, shape: Vec<usize>) -> Option<Arc<Node>> {
        if is_boundary(n, self.realize) {
            return Some(Node::intern(Op::Reshape, n.dtype(), shape, vec![n.clone()]));
        }
        Lazy(n.clone()).reshape(&shape).ok().map(|l| l.0)
    }

    fn node(&mut self, n: &Arc<Node>, is_root: bool) -> Option<Arc<Node>> {
        if let Some(done) = self.done.get(&n.id()) {
            return done.clone();
        }
        let built = self.build(n, is_root);
        self.done.insert(n.id(), built.clone());
        built
    }

    fn build(&mut self, n: &Arc<Node>, is_root: bool) -> Option<Arc<Node>> {
        let to = merge_last(n.shape(), self.k);
        // a buffer read at the merged index: its flat index recombines (`i / 6 * 6 + i % 6`)
        if !is_root && is_boundary(n, self.realize) {
            return self.reshaped(n, to);
        }
        let srcs = n.srcs();
        match n.op() {
            // a constant (or a run-time value) has no layout: it takes any shape
            Op::Const(_) | Op::Var(..) => self.reshaped(n, to),
            op if op.is_elementwise() && srcs.iter().all(|s| s.shape() == n.shape()) => {
                let merged = srcs
                    .iter()
                    .map(|s| self.node(s, false))
                    .collect::<Option<Vec<_>>>()?;
                Some(Node::intern_at(
                    op.clone(),
                    n.dtype(),
                    to,
                    merged,
                    n.placement(),
                ))
            }
            // the kernel's own `contiguous`: what it evaluates is its source
            Op::Contiguous if is_root => self.node(&srcs[0], false),
            // the reshape the merge undoes
            Op::Reshape if srcs[0].shape() == to.as_slice() => Some(srcs[0].clone()),
            Op::Expand => {
                let src = &srcs[0];
                let at = n.shape().len() - self.k;
                let tail = &src.shape()[at..];
                let inner = if tail.iter().all(|&d| d == 1) {
                    // broadcast along every merged axis: one axis of 1 instead
                    self.reshaped(src, merge_last(src.shape(), self.k))?
                } else if tail == &n.shape()[at..] {
                    self.node(src, false)?
                } else {
                    return None;
                };
                Lazy(inner).expand(&to).ok().map(|l| l.0)
            }
            _ => None,
        }
    }
}
