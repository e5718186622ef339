//! Caps a tiled kernel's epilogue: the elementwise ops after its reductions, which a tile
//! emits once for each of its outputs.
//!
//! A register-blocked kernel (`Strategy::Tile`) computes `rows * cols * LANES` outputs an
//! invocation, unrolled, so its source holds its epilogue that many times. A language
//! model's prefill step multiplies 32 rows by the stacked gate and up weights and applies
//! `silu(gate) * up` in the product's kernel: about 45 ops (the accurate exp of the sigmoid)
//! at 256 outputs a tile were 13,000 of the shader's 18,900 lines. Cut, shaderc's part of
//! recording the step fell from 918 to 333 ms and the product ran 8.1-10.0 -> 6.8-7.2 ms a
//! layer (plus 0.2 for the epilogue's kernel); lavapipe's compile of the product at its
//! first dispatch barely moved (1.43 -> 1.36 s: its loop, not its epilogue, is what LLVM
//! takes long over). Where the epilogue's ops times the tile's outputs
//! pass [`MAX_OPS`] (the size `cap.rs` bounds a region to), the reductions the epilogue
//! reads get buffers, so the epilogue is an elementwise kernel of its own (one output an
//! element); the product's kernel stores its accumulators as they are.

use std::collections::HashSet;
use std::sync::Arc;

use super::cap::MAX_OPS;
use super::{computes, is_boundary};
use crate::graph::node::{Node, Op};
use crate::kernel::{Kernel, Strategy, tile_outputs};

/// The reductions to give buffers so that tiled kernel `k`'s epilogue stays within
/// [`MAX_OPS`] emitted ops; none where it does (or `k` is not tiled).
pub fn over(k: &Kernel, realize: &HashSet<u64>) -> Vec<Arc<Node>> {
    match tiled(&k.body, realize, k.strategy) {
        Some((ops, reductions)) if ops > MAX_OPS => reductions,
        _ => Vec::new(),
    }
}

/// The ops a tile of `strategy` emits for `k`'s epilogue (the whole of an elementwise
/// kernel's region), once for each of its outputs: what `k` adds to a multi-output kernel
/// that such a tile leads (`multi.rs`), held to [`MAX_OPS`] as [`over`] holds one kernel's.
/// Nothing where `strategy` is no tile.
pub fn emitted(k: &Kernel, strategy: Strategy) -> usize {
    let realize: HashSet<u64> = k.inputs.iter().map(|n| n.id()).collect();
    tiled(&k.body, &realize, strategy).map_or(0, |(ops, _)| ops)
}

/// The ops a tile of `strategy` emits for the epilogue of `body`'s region (its ops once for
/// each of the tile's outputs), and the reductions the epilogue reads; `None` where
/// `strategy` is no tile.
fn tiled(
    body: &Arc<Node>,
    realize: &HashSet<u64>,
    strategy: Strategy,
) -> Option<(usize, Vec<Arc<Node>>)> {
    let Strategy::Tile { rows, cols, .. } = strategy else {
        return None;
    };
    let (ops, reductions) = epilogue(body, realize);
    Some((ops * tile_outputs(rows, cols), reductions))
}

/// The computing ops of `body`'s region above its reductions (walking down from the body,
/// stopping at reductions and buffers), and the reductions met.
fn epilogue(body: &Arc<Node>, realize: &HashSet<u64>) -> (usize, Vec<Arc<Node>>) {
    let mut ops = 0;
    let mut reductions: Vec<Arc<Node>> = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut stack = vec![body.clone()];
    while let Some(n) = stack.pop() {
        if !seen.insert(n.id()) || (n.id() != body.id() && is_boundary(&n, realize)) {
            continue;
        }
        if matches!(n.op(), Op::Reduce(..)) {
            reductions.push(n);
            continue;
        }
        if computes(&n) {
            ops += 1;
        }
        stack.extend(n.srcs());
    }
    (ops, reductions)
}
