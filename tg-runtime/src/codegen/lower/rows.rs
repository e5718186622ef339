//! Row kernels keep what a row reduction folds in an array of the invocation (`Ins::Stash`),
//! and the loops that run after it read it back (`Ins::Unstash`): softmax computes each
//! exponential once, a layernorm reads its row from memory once. Where invocations share the
//! row, each keeps the elements of its own rounds.

use std::sync::Arc;

use super::super::program::{BlockId, Ins, Program, Val, VarKind};
use super::super::symbolic::{Atom, Cond, Expr};
use super::expand::Request;
use super::index::flatten;
use super::{Cursor, Lowerer};
use crate::graph::node::{Node, Op};
use crate::graph::walk::post_order;

/// A row reduction's source values kept in an invocation's array.
#[derive(Clone, Debug)]
pub(super) struct Stashed {
    /// The source's index on its other axes (0 on the reduced ones): a read at the same
    /// row finds the value kept.
    pub(super) key: Vec<Expr>,
    /// The reduced axes.
    pub(super) axes: Vec<usize>,
    /// Their lengths.
    pub(super) rshape: Vec<usize>,
    /// The array.
    pub(super) slot: usize,
    /// The loop that fills it.
    pub(super) body: BlockId,
}

/// The most values an invocation keeps, over all its arrays (32 KiB of f32: a softmax's row
/// of 4096 and its exponentials, or a serial kernel's 4 rows of 1024 each).
pub(super) const MAX_STASH: usize = 8192;

/// `idx` with 0 on the reduced `axes`: which row of a stashed reduction an index reads.
pub(super) fn row_key(idx: &[Expr], axes: &[usize]) -> Vec<Expr> {
    let mut key = idx.to_vec();
    for &a in axes {
        key[a] = Expr::constant(0);
    }
    key
}

impl Lowerer {
    /// Where a row kernel keeps sources of reductions ([`Lowerer::stash_rows`]): the order
    /// to evaluate `srcs` in, the most deeply nested reductions first (`None`: their own
    /// order).
    pub(super) fn evaluation_order(&mut self, srcs: &[Request]) -> Option<Vec<usize>> {
        if !self.stash_rows || srcs.len() < 2 {
            return None;
        }
        let depth: Vec<usize> = srcs.iter().map(|r| self.reduce_depth(&r.node)).collect();
        let mut order: Vec<usize> = (0..srcs.len()).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(depth[k]));
        order
            .iter()
            .enumerate()
            .any(|(k, &i)| k != i)
            .then_some(order)
    }

    /// How deeply reductions nest in `n`'s fused region (iterative: regions may be deep).
    pub(super) fn reduce_depth(&mut self, n: &Arc<Node>) -> usize {
        // below a node whose depth is known (or an input), nothing is walked again
        let known = |x: &Arc<Node>| {
            self.reduce_depth.contains_key(&x.id()) || self.inputs.contains_key(&x.id())
        };
        let order = post_order(std::slice::from_ref(n), |x| {
            if known(x) { Vec::new() } else { x.srcs() }
        });
        for x in order {
            if self.reduce_depth.contains_key(&x.id()) {
                continue;
            }
            let depth = if self.inputs.contains_key(&x.id()) {
                0
            } else {
                let below = x.srcs().iter().map(|s| self.reduce_depth[&s.id()]).max();
                below.unwrap_or(0) + usize::from(matches!(x.op(), Op::Reduce(..)))
            };
            self.reduce_depth.insert(x.id(), depth);
        }
        self.reduce_depth[&n.id()]
    }

    /// `node` at `idx`, read back from what a row reduction kept, when a reduction kept
    /// `node` for the same row in a loop that has run by the time the request's loop does.
    pub(super) fn unstash(
        &mut self,
        node: &Arc<Node>,
        idx: &[Expr],
        valid: &Cond,
        c: Cursor,
    ) -> Option<Val> {
        if !self.stash_rows || !valid.is_always() {
            return None;
        }
        let kept = self
            .stashed
            .get(&node.id())?
            .iter()
            .find(|s| row_key(idx, &s.axes) == s.key && self.runs_after(c.block, s.body))?;
        let within: Vec<Expr> = kept.axes.iter().map(|&a| idx[a].clone()).collect();
        let element = flatten(&within, &kept.rshape);
        if self.row_threads > 1 && !self.owns(c.block, &element) {
            return None;
        }
        let slot = kept.slot;
        let index = self.stash_index(&element, self.top_loop(c.block));
        self.unstashed.insert(slot);
        Some(self.emit(
            c,
            Ins::Unstash {
                slot,
                index,
                dtype: node.dtype(),
            },
        ))
    }

    /// Elements an iteration of a row kernel's loops takes ([`Program::store_elements`]).
    pub(super) fn row_step(&self) -> usize {
        self.prog.store_elements()
    }

    /// Where element `element` of a row, read in loop `block`, is kept in its invocation's
    /// array: its position among the invocation's elements. With `t` invocations sharing
    /// the row, iteration `r` of a row loop takes elements `wr..wr + w` (`w` the
    /// [`Lowerer::row_step`]) and falls to invocation `lid = r mod t` as its round
    /// `r div t`: the element is kept at `w * round + element mod w`, written over the round
    /// and `lid` (so `wr + u` simplifies to `w * round + u`, an index the compiler can
    /// follow through the loop).
    pub(super) fn stash_index(&mut self, element: &Expr, block: BlockId) -> Expr {
        let t = self.row_threads;
        if t == 1 {
            return element.clone();
        }
        let (var, _) = self.prog.blocks[block].loop_var.expect("row loop");
        let rounds = (self.prog.blocks[block].bound + t - 1) / t;
        let (round, lid) = (
            self.var_of(VarKind::Round { var }),
            self.var_of(VarKind::Lid),
        );
        let r = Expr::var(round, rounds - 1)
            .scale(t)
            .add(&Expr::var(lid, t - 1));
        let e = element.substitute(var, &r);
        let w = self.row_step() as i64;
        e.div(w * t).scale(w).add(&e.modulo(w))
    }

    /// Does the invocation running `block` keep `element` of the row: is it one of the
    /// elements of the current iteration of its top-level loop (`wr..wr + w`, the loop
    /// counter `r` shared out round-robin alike in every row loop)? A read at another
    /// element of the row (a flip) may be another invocation's.
    pub(super) fn owns(&self, block: BlockId, element: &Expr) -> bool {
        let top = self.top_loop(block);
        let Some((var, _)) = self.prog.blocks[top].loop_var else {
            return false;
        };
        let step = element.div(self.row_step() as i64);
        matches!(step.terms(), [(Atom::Var(v), 1)] if v.id == var && step.constant_part() == 0)
    }

    /// The loop at the top of the kernel that `block` runs in (`block` itself, or the root).
    pub(super) fn top_loop(&self, block: BlockId) -> BlockId {
        let mut top = block;
        while let Some(p) = self.prog.blocks[top].parent {
            if p == Program::ROOT {
                break;
            }
            top = p;
        }
        top
    }

    /// Does `block` run after the whole loop `body` has? Row kernels' reductions are loops at
    /// the top of the kernel, ordered by their markers there: a later loop (another reduction
    /// that reads this one's result, or the row's output loop) finds the array filled.
    pub(super) fn runs_after(&self, block: BlockId, body: BlockId) -> bool {
        let top = self.top_loop(block);
        if top == body
            || top == Program::ROOT
            || self.prog.blocks[body].parent != Some(Program::ROOT)
        {
            return false;
        }
        let at = |b: BlockId| self.position(Program::ROOT, self.markers[&b]);
        matches!((at(body), at(top)), (Some(a), Some(b)) if a < b)
    }

    /// Takes out the stashes no instruction reads back (a layernorm keeps its squared
    /// deviations, but its output reads the deviations), so they cost no stores.
    pub(super) fn drop_unread_stashes(&mut self) {
        let unread =
            |ins: &Ins| matches!(ins, Ins::Stash { slot, .. } if !self.unstashed.contains(slot));
        let dropped: Vec<bool> = self.prog.ins.iter().map(unread).collect();
        for b in &mut self.prog.blocks {
            b.ins.retain(|&v| !dropped[v]);
        }
        for (slot, s) in self.prog.stashes.iter_mut().enumerate() {
            if !self.unstashed.contains(&slot) {
                s.1 = 0;
            }
        }
    }
}
