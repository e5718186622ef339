//! Values a kernel evaluates many times over get a buffer when computing them costs more than
//! loading them.
//!
//! Fusing an elementwise value into the kernel that reads it saves a buffer, and lowering
//! computes it once per distinct index within an invocation; but a reduction that reads it
//! through an expand evaluates it again in every invocation that shares the index. The
//! gradient of an MLP's first weight, `x^T @ (dy * relu'(h))`, reads each element of the
//! masked gradient once per input feature (784 times): recomputing the mask there made the
//! kernel twice as slow as loading it. A value read at least [`MIN_READS`] times per element
//! whose own computation takes at least [`MIN_OPS`] elementwise ops over data from a buffer
//! is computed once into a buffer instead. Values made of constants and index arithmetic
//! alone (masks, iotas) stay fused: they cost no memory traffic and are cheap to recompute.

use std::collections::HashSet;
use std::sync::Arc;

use super::is_boundary;
use crate::graph::node::{Node, Op};

/// Evaluations per element from which recomputing is worth a buffer.
pub const MIN_READS: u128 = 64;

/// Reads of a padded view (in all) from which a padded copy pays for its own kernel.
pub const MIN_PAD_READS: u128 = 1 << 26;

/// Elementwise ops a value's computation must take to be worth a buffer (a lone cast or
/// negation is cheaper to redo than to store and load).
pub const MIN_OPS: usize = 3;

/// Whether `n`, evaluated `evals` times per kernel run in a region bounded by `realize`, is
/// worth a buffer of its own.
pub fn worth_a_buffer(n: &Arc<Node>, evals: u128, realize: &HashSet<u64>) -> bool {
    if evals < MIN_READS * n.numel().max(1) as u128 {
        return false;
    }
    // a padded view checks its bounds at every read; a padded copy checks them once (a
    // convolution's padded input is read once per output channel and window position), which
    // pays for the copy's dispatch only over many reads. A pad of constants (an iota's
    // digit, whose bounds fold where its index is unrolled) stays fused, as any value of
    // constants does.
    if matches!(n.op(), Op::Pad(_)) {
        return evals >= MIN_PAD_READS && computation(n, realize, 0).1;
    }
    if !n.op().is_elementwise() {
        return false;
    }
    let (ops, reads_data) = computation(n, realize, MIN_OPS);
    ops >= MIN_OPS && reads_data
}

/// The elementwise ops of `n`'s computation within the region bounded by `realize` (counted
/// until `enough` are found along with data) and whether it reads data: a buffer, a
/// realized value or another kernel's output.
fn computation(n: &Arc<Node>, realize: &HashSet<u64>, enough: usize) -> (usize, bool) {
    let mut ops = 0usize;
    let mut reads_data = false;
    let mut seen: HashSet<u64> = HashSet::new();
    let mut stack: Vec<Arc<Node>> = vec![n.clone()];
    while let Some(m) = stack.pop() {
        if !seen.insert(m.id()) {
            continue;
        }
        if m.id() != n.id() && is_boundary(&m, realize) {
            reads_data = true;
            continue;
        }
        if m.op().is_elementwise() {
            ops += 1;
        }
        if ops >= enough && reads_data {
            break;
        }
        stack.extend(m.srcs());
    }
    (ops, reads_data)
}
