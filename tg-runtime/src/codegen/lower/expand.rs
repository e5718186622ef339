//! The graph expanded at one output index: an explicit stack of requests (a node at an index
//! under a validity condition, emitted at a cursor) and finishing steps that combine the
//! sources' values, so depth costs no stack. Each op's rule lives with its family: movement
//! (`index`), reductions (`reduce`), gathers (`gather`), kept rows (`rows`), scalars (`params`).

use std::sync::Arc;

use super::super::program::{BlockId, Ins, Val};
use super::super::symbolic::{Cond, Expr};
use super::index::{self, flatten};
use super::rows::Stashed;
use super::{Cursor, Lowerer, MemoKey};
use crate::dtype::{DType, Scalar};
use crate::graph::node::{ConstValue, Node, Op};
use crate::ops::{ReduceOp, TernaryOp};

/// A value to compute: `node` at `idx` where `valid` holds, emitted at cursor `c`. `top`
/// marks the kernel's output, computed whatever else reads the same node.
pub(super) struct Request {
    pub(super) node: Arc<Node>,
    pub(super) idx: Vec<Expr>,
    pub(super) valid: Cond,
    pub(super) c: Cursor,
    pub(super) top: bool,
}

/// How a node's value comes from its sources' values.
pub(super) enum Step {
    /// The one source's value (movement ops, `contiguous`).
    Pass,
    /// The source's value where the condition holds, else zero (padding of a computed value).
    Mask(Cond),
    /// One instruction of the node's elementwise op.
    Emit,
    /// The source is a gather's positions: read its values there (see
    /// [`Lowerer::gathered`]).
    Gather { idx: Vec<Expr>, valid: Cond },
    /// The source is a window write's start: read its rows there (see
    /// [`Lowerer::windowed`]).
    Window { idx: Vec<Expr>, valid: Cond },
    /// The sources are the unrolled steps of loop `body`: fold them into an accumulator
    /// (and keep them, with `stash`).
    Reduce {
        op: ReduceOp,
        body: BlockId,
        src_dt: DType,
        acc_dt: DType,
        stash: Option<Box<Stashed>>,
    },
}

/// The finishing half of a request, waiting for `srcs` source values.
pub(super) struct Finish {
    pub(super) node: Arc<Node>,
    pub(super) c: Cursor,
    pub(super) step: Step,
    pub(super) srcs: usize,
    pub(super) memo: Option<MemoKey>,
    /// The order the sources are evaluated in, when not their own (see
    /// `Lowerer::stash_rows`).
    pub(super) order: Option<Vec<usize>>,
}

pub(super) enum Task {
    Eval(Request),
    Finish(Finish),
}

/// What starting a request gives: its value, or the work still to do.
pub(super) enum Begun {
    Done(Val),
    Need(Finish, Vec<Request>),
}

impl Lowerer {
    /// `node`'s op at `idx` (when `valid`), emitted at `c`, without looking `node` up as an
    /// input or in the memo (the kernel's output is computed here, whatever else reads the
    /// same node). Iterative: a chain of 100,000 ops lowers on a small stack, and the work
    /// is linear in the region's size.
    pub(super) fn lower_op(
        &mut self,
        node: &Arc<Node>,
        idx: &[Expr],
        valid: &Cond,
        c: Cursor,
    ) -> Val {
        self.run(Task::Eval(Request {
            node: node.clone(),
            idx: idx.to_vec(),
            valid: valid.clone(),
            c,
            top: true,
        }))
    }

    /// Runs tasks until `first`'s value is known: evaluations push the requests for their
    /// sources and a finishing task that combines the sources' values.
    pub(super) fn run(&mut self, first: Task) -> Val {
        let mut tasks = vec![first];
        let mut values: Vec<Val> = Vec::new();
        while let Some(task) = tasks.pop() {
            match task {
                Task::Eval(r) => match self.begin(r) {
                    Begun::Done(v) => values.push(v),
                    Begun::Need(mut finish, srcs) => {
                        finish.order = self.evaluation_order(&srcs);
                        let mut srcs: Vec<Option<Request>> = srcs.into_iter().map(Some).collect();
                        let order: Vec<usize> = match &finish.order {
                            Some(o) => o.clone(),
                            None => (0..srcs.len()).collect(),
                        };
                        tasks.push(Task::Finish(finish));
                        // sources in order: the first one's instructions come first
                        for &k in order.iter().rev() {
                            if let Some(r) = srcs[k].take() {
                                tasks.push(Task::Eval(r));
                            }
                        }
                    }
                },
                Task::Finish(f) => {
                    let at = values.len() - f.srcs;
                    let mut srcs = values.split_off(at);
                    if let Some(order) = &f.order {
                        let evaluated = srcs.clone();
                        for (k, &i) in order.iter().enumerate() {
                            srcs[i] = evaluated[k];
                        }
                    }
                    let v = self.finish(&f, &srcs);
                    if let Some(key) = f.memo {
                        self.memo.insert(key, v);
                    }
                    values.push(v);
                }
            }
        }
        values.pop().expect("the first task's value")
    }

    /// The first half of evaluating a request: its value if it needs no sources (a constant,
    /// an input load, a memoized value), else what to finish with and the source requests.
    pub(super) fn begin(&mut self, r: Request) -> Begun {
        let Request {
            node,
            idx,
            valid,
            c,
            top,
        } = r;
        let dt = node.dtype();
        if !top {
            if valid.is_never() {
                return Begun::Done(self.constant(c, Scalar::Int(0), dt));
            }
            let c = self.hoist(c, &idx, &valid);
            if let Some(v) = self.unstash(&node, &idx, &valid, c) {
                return Begun::Done(v);
            }
            if let Some(&buf) = self.inputs.get(&node.id()) {
                let index = flatten(&idx, node.shape());
                return Begun::Done(self.emit(
                    c,
                    Ins::Load {
                        buf,
                        index,
                        valid,
                        dtype: dt,
                    },
                ));
            }
            let key = (node.id(), idx.clone(), valid.clone(), c.block);
            if let Some(&v) = self.memo.get(&key)
                && self.usable(c, v)
            {
                return Begun::Done(v);
            }
            return self.begin_op(node, idx, valid, c, Some(key));
        }
        self.begin_op(node, idx, valid, c, None)
    }

    pub(super) fn begin_op(
        &mut self,
        node: Arc<Node>,
        idx: Vec<Expr>,
        valid: Cond,
        c: Cursor,
        memo: Option<MemoKey>,
    ) -> Begun {
        let srcs = node.srcs();
        let dt = node.dtype();
        let at = |n: &Arc<Node>, idx: Vec<Expr>, valid: &Cond, c: Cursor| Request {
            node: n.clone(),
            idx,
            valid: valid.clone(),
            c,
            top: false,
        };
        let same = |k: usize| at(&srcs[k], idx.clone(), &valid, c);
        let (step, requests) = match node.op() {
            Op::Buffer => unreachable!("buffer {node:?} is not a kernel input"),
            Op::SortRuns(_) | Op::MergeRuns(_) | Op::ScanRuns(..) | Op::Attention(..) => {
                unreachable!("{node:?} is a kernel of its own")
            }
            Op::Const(ConstValue(v)) => return Begun::Done(self.constant(c, *v, dt)),
            Op::Var(id, _) => return Begun::Done(self.var(c, *id, dt)),
            Op::Unary(_) | Op::Cast | Op::Bitcast => (Step::Emit, vec![same(0)]),
            Op::Binary(_) => (Step::Emit, vec![same(0), same(1)]),
            Op::Ternary(_) => (Step::Emit, vec![same(0), same(1), same(2)]),
            Op::Contiguous | Op::Detach | Op::ContiguousBackward => (Step::Pass, vec![same(0)]),
            // read as the value it writes (a kernel computing an assign has it as its root)
            Op::Assign => (Step::Pass, vec![same(1)]),
            // the start first (a scalar); the rows' reads need it (`finish`)
            Op::AssignWindow(_) => (
                Step::Window {
                    idx: idx.clone(),
                    valid: valid.clone(),
                },
                vec![at(&srcs[2], Vec::new(), &Cond::always(), c)],
            ),
            Op::Reduce(op, axes) => {
                return self.begin_reduce(&node, *op, axes, &srcs[0], &idx, &valid, c, memo);
            }
            Op::Reshape | Op::Expand | Op::Permute(_) | Op::Shrink(_) | Op::Flip(_) => {
                let sidx = index::source_index(node.op(), node.shape(), srcs[0].shape(), &idx);
                (Step::Pass, vec![at(&srcs[0], sidx, &valid, c)])
            }
            // the positions first; the values' read needs them (`finish`)
            Op::Gather(_) => (
                Step::Gather {
                    idx: idx.clone(),
                    valid: valid.clone(),
                },
                vec![same(1)],
            ),
            Op::Pad(pads) => {
                let (sidx, inner) = index::padded(pads, srcs[0].shape(), &idx);
                let all = valid.and(&inner);
                if all.is_never() {
                    return Begun::Done(self.constant(c, Scalar::Int(0), dt));
                }
                // a plain load already reads zero outside its valid region
                let wrap = !inner.is_always() && !self.inputs.contains_key(&srcs[0].id());
                let step = if wrap { Step::Mask(inner) } else { Step::Pass };
                (step, vec![at(&srcs[0], sidx, &all, c)])
            }
        };
        Begun::Need(
            Finish {
                node,
                c,
                step,
                srcs: requests.len(),
                memo,
                order: None,
            },
            requests,
        )
    }

    /// The second half: combines the sources' values into the node's value.
    pub(super) fn finish(&mut self, f: &Finish, v: &[Val]) -> Val {
        let c = f.c;
        let dt = f.node.dtype();
        match &f.step {
            Step::Pass => v[0],
            Step::Mask(inner) => {
                let cond = self.emit(c, Ins::Cond(inner.clone()));
                let zero = self.constant(c, Scalar::Int(0), dt);
                self.emit(c, Ins::Ternary(TernaryOp::Where, cond, v[0], zero, dt))
            }
            Step::Emit => {
                let srcs = f.node.srcs();
                let ins = match f.node.op() {
                    Op::Unary(op) => Ins::Unary(*op, v[0], dt),
                    Op::Binary(op) => Ins::Binary(*op, v[0], v[1], srcs[0].dtype()),
                    Op::Ternary(op) => Ins::Ternary(*op, v[0], v[1], v[2], dt),
                    Op::Cast => Ins::Cast {
                        src: v[0],
                        from: srcs[0].dtype(),
                        to: dt,
                    },
                    Op::Bitcast => Ins::Bitcast {
                        src: v[0],
                        from: srcs[0].dtype(),
                        to: dt,
                    },
                    op => unreachable!("{op:?} is not elementwise"),
                };
                self.emit(c, ins)
            }
            Step::Gather { idx, valid } => self.gathered(&f.node, idx, valid, v[0], c),
            Step::Window { idx, valid } => self.windowed(&f.node, idx, valid, v[0], c),
            Step::Reduce { .. } => self.finish_reduce(f, v),
        }
    }
}
