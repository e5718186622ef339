//! Reductions become loops: one loop block per trip count and place, shared by every
//! reduction of that size there (so `sum(x)` and `sum(x*x)` share a loop) unless one feeds the
//! other; steps unroll by 4 (8 where loads pair) when the innermost reduced axis allows (four
//! such steps an iteration in a serial kernel that reads an operand in blocks,
//! `Choices::unroll`), each source value folded pairwise into an accumulator. Trip counts are push constants, ranges
//! their class, so reductions that differ only in length share a shader.

use std::sync::Arc;

use super::super::program::{Acc, Block, BlockId, Ins, Program, Val, VarKind};
use super::super::symbolic::{Cond, Expr};
use super::expand::{Begun, Finish, Request, Step};
use super::index::unflatten;
use super::rows::{MAX_STASH, Stashed, row_key};
use super::{Cursor, Lowerer, MemoKey};
use crate::dtype::DType;
use crate::graph::node::{Node, Op};
use crate::kernel::{LANES, Strategy};
use crate::ops::ReduceOp;

/// `by * r + step` for loop counter `var` over `0..bound`: the flat index of step `step` of a
/// reduction loop unrolled by `by`.
pub(super) fn unrolled_step(var: u32, bound: i64, by: i64, step: i64) -> Expr {
    Expr::var(var, bound - 1).scale(by).add_const(step)
}

/// The range class of a trip count read from the push constants: the next power of 16.
fn trip_class(trip: i64) -> i64 {
    let mut class = 16;
    while class < trip {
        class *= 16;
    }
    class
}

/// Reductions over several axes of at most this many elements are taken whole, without a loop
/// counter (see `Lowerer::unroll`): 5 x 5 windows and smaller.
const MAX_WHOLE_WINDOW: usize = 25;

/// Trip counts from this one on stay literals: their class could take index arithmetic past
/// 32 bits, and kernels this long are few.
const MAX_GENERIC_TRIP: i64 = 1 << 24;

impl Lowerer {
    /// Opens the loop of a reduction and requests its source at each unrolled step.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn begin_reduce(
        &mut self,
        node: &Arc<Node>,
        op: ReduceOp,
        axes: &[usize],
        src: &Arc<Node>,
        idx: &[Expr],
        valid: &Cond,
        c: Cursor,
        memo: Option<MemoKey>,
    ) -> Begun {
        let dt = src.dtype();
        let rshape: Vec<usize> = axes.iter().map(|&a| src.shape()[a]).collect();
        let trip: usize = rshape.iter().product();
        if trip == 0 {
            return Begun::Done(self.constant(c, op.identity(dt), dt));
        }
        let deps = self.reductions_below(src);
        let whole = rshape.last().is_some_and(|&n| n % LANES == 0);
        let unroll = self.unroll(trip, &rshape, whole, !deps.is_empty());
        let steps = (trip / unroll) as i64;
        let body = self.loop_block(c, steps, &deps);
        let (var, _) = self.prog.blocks[body].loop_var.expect("loop block");
        let bound = self.prog.blocks[body].bound;
        let requests = (0..unroll as i64)
            .map(|u| {
                // a window taken whole: each step's position in it is a constant
                let r = if steps == 1 {
                    Expr::constant(u)
                } else if whole {
                    unrolled_step(var, bound, unroll as i64, u)
                } else {
                    Expr::var(
                        self.step_var(var, bound, unroll as i64, u),
                        bound * unroll as i64 - 1,
                    )
                };
                let mut sidx = idx.to_vec();
                for (&a, e) in axes.iter().zip(unflatten(&r, &rshape)) {
                    sidx[a] = e;
                }
                Request {
                    node: src.clone(),
                    idx: sidx,
                    valid: valid.clone(),
                    c: Cursor::end(body),
                    top: false,
                }
            })
            .collect::<Vec<_>>();
        // f16 accumulates in f32 and rounds once, as numpy does
        let acc_dt = if dt == DType::F16 { DType::F32 } else { dt };
        // a row reduction at the top of a row kernel keeps what it folds (loads too, so the
        // row is read from memory once; not constants) for the row's later loops; where
        // invocations share the row, each keeps its own iterations' elements, which are
        // the row's consecutive steps only when a step folds one of the row's
        let (t, step) = (self.row_threads, self.row_step());
        let kept = if t > 1 {
            trip.div_ceil(step * t as usize) * step
        } else {
            trip
        };
        let keep = self.stash_rows
            && self.prog.blocks[c.block].loop_var.is_none()
            && valid.is_always()
            && self.prog.stashes.iter().map(|s| s.1).sum::<usize>() + kept <= MAX_STASH
            && (t == 1 || unroll == step && whole)
            && !matches!(src.op(), Op::Const(_));
        let stash = keep.then(|| {
            let slot = self.prog.stashes.len();
            self.prog.stashes.push((dt, kept));
            Box::new(Stashed {
                key: row_key(idx, axes),
                axes: axes.to_vec(),
                rshape: rshape.clone(),
                slot,
                body,
            })
        });
        Begun::Need(
            Finish {
                node: node.clone(),
                c,
                step: Step::Reduce {
                    op,
                    body,
                    src_dt: dt,
                    acc_dt,
                    stash,
                },
                srcs: requests.len(),
                memo,
                order: None,
            },
            requests,
        )
    }

    /// Reduction elements an iteration of a reduction's loop takes (of `trip`, over reduced
    /// axes `rshape`; `whole`: the innermost one is whole vectors; `nested`: the source holds
    /// reductions of its own).
    fn unroll(&self, trip: usize, rshape: &[usize], whole: bool, nested: bool) -> usize {
        // Four consecutive reduction elements per iteration when the innermost reduced axis
        // allows: contiguous ones then load as one vector, and the loop runs a quarter as
        // often. Not over nested reductions, whose bodies would grow fourfold per level.
        // A tile's reduction over axes whose last is not a multiple of 4 (a convolution's
        // (channels, 3, 3)) unrolls too when the whole trip is: each step then gets a
        // variable of its own (`VarKind::Unrolled`), so an operand contiguous along the
        // reduction (the weights) still reads vectors.
        let tiled = matches!(self.prog.strategy, Strategy::Tile { .. });
        // A small window (a depthwise convolution's 3 x 3, a pooling's): taken whole, one
        // iteration, each step's position in it a constant, where a loop would divide and
        // take the remainder of its counter by the window's axes every step (a trip read
        // from the push constants has a range of 16, too wide for those to fold away).
        // Only windows of several axes, whose steps need that arithmetic; a serial kernel's
        // (a tile's steps already share loads across outputs).
        let axes = rshape.iter().filter(|&&n| n > 1).count();
        if axes > 1 && trip <= MAX_WHOLE_WINDOW && !nested && !self.stash_rows && !tiled {
            return trip;
        }
        // (a row kernel's reductions all reduce the same row, so those nested in another are
        // computed before its loop, not in it)
        // Eight where loads are wide and the axis allows, so a step reads two vectors of a
        // contiguous operand as one load; not in a tile, whose steps already read runs of
        // vectors (and whose body would double), and where invocations share a row only if
        // its loops take pairs (each keeps its steps' elements: a step must be the row's).
        let wide = self.prog.wide_loads
            && !tiled
            && (self.row_threads == 1 || self.row_step() == 2 * LANES)
            && trip >= 4 * LANES
            && rshape.last().is_some_and(|&n| n % (2 * LANES) == 0);
        let step = if nested && !self.stash_rows {
            1
        } else if wide {
            2 * LANES
        } else if trip >= 2 * LANES && (whole || tiled && trip.is_multiple_of(LANES)) {
            LANES
        } else {
            1
        };
        // a serial kernel may take several steps an iteration (`Choices::unroll`), where the
        // innermost reduced axis holds whole iterations and the loop still runs at least
        // twice: an operand read in blocks then reads each block's values once
        let deep = step * self.deep;
        if self.deep > 1
            && step > 1
            && whole
            && self.prog.strategy == Strategy::Serial
            && !self.stash_rows
            && trip >= 2 * deep
            && rshape.last().is_some_and(|&n| n % deep == 0)
        {
            deep
        } else {
            step
        }
    }

    /// The `VarKind::Unrolled` variable of step `step` of `by` of loop counter `var` (of
    /// range `0..bound`), one per step and loop: every reduction in the loop shares it, so
    /// equal loads of different outputs stay one.
    pub(super) fn step_var(&mut self, var: u32, bound: i64, by: i64, step: i64) -> u32 {
        let def = unrolled_step(var, bound, by, step);
        if let Some((id, _)) = self
            .steps
            .get(&var)
            .and_then(|s| s.iter().find(|(_, d)| *d == def))
        {
            return *id;
        }
        let id = self.prog.vars.len() as u32;
        self.prog.vars.push(VarKind::Unrolled { var, by, step });
        self.steps.entry(var).or_default().push((id, def));
        id
    }

    /// The second half of a reduction ([`Step::Reduce`]): keeps the unrolled steps' source
    /// values where the row keeps them, folds them into the loop's accumulator and reads the
    /// total after the loop.
    pub(super) fn finish_reduce(&mut self, f: &Finish, v: &[Val]) -> Val {
        let Step::Reduce {
            op,
            body,
            src_dt,
            acc_dt,
            stash,
        } = &f.step
        else {
            unreachable!("not a reduction's step")
        };
        let c = f.c;
        let at = Cursor::end(*body);
        if let Some(s) = stash {
            // element r * unroll + u of the reduced axes is the u-th source value
            let (var, _) = self.prog.blocks[*body].loop_var.expect("loop block");
            let bound = self.prog.blocks[*body].bound;
            for (u, &x) in v.iter().enumerate() {
                let step = unrolled_step(var, bound, v.len() as i64, u as i64);
                let index = self.stash_index(&step, *body);
                self.emit(
                    at,
                    Ins::Stash {
                        slot: s.slot,
                        index,
                        value: x,
                    },
                );
            }
            let src = &f.node.srcs()[0];
            self.stashed
                .entry(src.id())
                .or_default()
                .push(Stashed::clone(s));
        }
        let parts: Vec<Val> = v
            .iter()
            .map(|&x| {
                if v.len() > 1 && acc_dt != src_dt {
                    self.emit(
                        at,
                        Ins::Cast {
                            src: x,
                            from: *src_dt,
                            to: *acc_dt,
                        },
                    )
                } else {
                    x
                }
            })
            .collect();
        let value = self.fold(*op, &parts, *acc_dt, at);
        let acc = self.prog.blocks[*body].accs.len();
        self.prog.blocks[*body].accs.push(Acc {
            op: *op,
            dtype: *acc_dt,
            value,
        });
        self.acc_loops.entry(f.node.id()).or_default().push(*body);
        let total = self.emit(
            c,
            Ins::AccResult {
                block: *body,
                acc,
                dtype: *acc_dt,
            },
        );
        if acc_dt == src_dt {
            total
        } else {
            self.emit(
                c,
                Ins::Cast {
                    src: total,
                    from: *acc_dt,
                    to: *src_dt,
                },
            )
        }
    }
    /// `parts` combined pairwise with the reduction's operator.
    pub(super) fn fold(&mut self, op: ReduceOp, parts: &[Val], dt: DType, c: Cursor) -> Val {
        if let [v] = parts {
            return *v;
        }
        let (l, r) = parts.split_at(parts.len() / 2);
        let (a, b) = (self.fold(op, l, dt, c), self.fold(op, r, dt, c));
        self.emit(c, Ins::Binary(op.combine(dt), a, b, dt))
    }

    /// Reduction nodes inside the fused region below `n`.
    pub(super) fn reductions_below(&self, n: &Arc<Node>) -> Vec<u64> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![n.clone()];
        while let Some(x) = stack.pop() {
            if self.inputs.contains_key(&x.id()) || !seen.insert(x.id()) {
                continue;
            }
            if matches!(x.op(), Op::Reduce(..)) {
                out.push(x.id());
            }
            stack.extend(x.srcs());
        }
        out
    }

    /// A reduction loop of `trip` iterations usable at `c`, shared by every reduction of that
    /// size there, except loops holding a reduction this one depends on (`deps`).
    pub(super) fn loop_block(&mut self, c: Cursor, trip: i64, deps: &[u64]) -> BlockId {
        let existing = self
            .loops
            .get(&(c.block, trip))
            .cloned()
            .unwrap_or_default();
        for b in existing {
            let feeds_us = deps
                .iter()
                .any(|d| self.acc_loops.get(d).is_some_and(|l| l.contains(&b)));
            if self.usable(c, self.markers[&b]) && !self.prog.blocks[b].parallel && !feeds_us {
                return b;
            }
        }
        // a row kernel's loops at the top run over its row: a constant trip lets the
        // compiler know how often each invocation runs them (a `Row` kernel's shader names
        // its row anyway, so a push-constant trip would share no shader there)
        let generic =
            self.generic_trips && trip > 1 && !(self.stash_rows && c.block == Program::ROOT);
        self.new_block(c, trip, false, generic)
    }

    /// A loop block of `trip` iterations at `c`; with `generic`, its trip count is a push
    /// constant (while a word is left) and its variable's range the trip count's class.
    pub(super) fn new_block(
        &mut self,
        c: Cursor,
        trip: i64,
        parallel: bool,
        generic: bool,
    ) -> BlockId {
        let var = self.prog.vars.len() as u32;
        self.prog.vars.push(VarKind::Loop);
        let b = self.prog.blocks.len();
        let word = (generic && trip < MAX_GENERIC_TRIP && self.prog.params.len() < self.capacity)
            .then(|| {
                self.prog.params.push(trip as u32);
                self.prog.params.len() - 1
            });
        self.prog.blocks.push(Block {
            ins: Vec::new(),
            parent: Some(c.block),
            loop_var: Some((var, trip)),
            trip_word: word,
            bound: if word.is_some() {
                trip_class(trip)
            } else {
                trip
            },
            accs: Vec::new(),
            parallel,
        });
        let marker = self.prog.ins.len();
        self.prog.ins.push(Ins::Loop(b));
        self.insert(c, marker);
        self.markers.insert(b, marker);
        self.loops.entry((c.block, trip)).or_default().push(b);
        b
    }
}
