//! A window write ([`Op::AssignWindow`]): a value's rows stored at a runtime row of its
//! target. The window's start becomes an index variable of its own (as a gather's position
//! does), so where the kernel covers the window alone ([`kernel::window`]) each vector's
//! store index is an expression of the group and the start, and elsewhere the target's
//! elements read the value at their row less the start.

use std::sync::Arc;

use super::super::program::{Ins, MoreOutput, OutputAt, Program, Val, VarKind};
use super::super::symbolic::{Cond, Expr};
use super::expand::{Request, Task};
use super::index::{unflatten, units_at_zero};
use super::{Cursor, Lowerer};
use crate::dtype::{DType, Scalar};
use crate::graph::node::{Node, Op};
use crate::kernel::{self, LANES, Window};
use crate::ops::{BinaryOp, TernaryOp};

impl Lowerer {
    /// The first row of window write `node` as an index variable in `0..=cap` (the target's
    /// rows along the axis): its start `start` read as unsigned, at most `cap`, where a
    /// window writes nothing.
    fn window_start(&mut self, node: &Node, start: Val, c: Cursor) -> Expr {
        let Op::AssignWindow(axis) = *node.op() else {
            unreachable!("{node:?} is not a window write");
        };
        let cap = node.shape()[axis];
        let sd = node.srcs()[2].dtype();
        let cast = |l: &mut Self, src: Val, from: DType, to: DType| {
            if from == to {
                src
            } else {
                l.emit(c, Ins::Cast { src, from, to })
            }
        };
        let unsigned = cast(self, start, sd, DType::U32);
        let end = self.constant(c, Scalar::Int(cap as i64), DType::U32);
        let below = self.emit(c, Ins::Binary(BinaryOp::CmpLt, unsigned, end, DType::U32));
        let first = self.emit(
            c,
            Ins::Ternary(TernaryOp::Where, below, unsigned, end, DType::U32),
        );
        let first = cast(self, first, DType::U32, DType::I32);
        let id = self.var_of(VarKind::Value(first));
        Expr::var(id, cap as i64)
    }

    /// Window write `node` at `idx`, an index of its whole target, its start's value being
    /// `start`: the value at the row less the start where that lies in the window, else the
    /// target's own element (the kernel stores it only where the lanes of a vector are all
    /// inside: `Program::kept_where`).
    pub(super) fn windowed(
        &mut self,
        node: &Arc<Node>,
        idx: &[Expr],
        valid: &Cond,
        start: Val,
        c: Cursor,
    ) -> Val {
        let Op::AssignWindow(axis) = *node.op() else {
            unreachable!("{node:?} is not a window write");
        };
        let srcs = node.srcs();
        let (target, value) = (&srcs[0], &srcs[1]);
        let s = self.window_start(node, start, c);
        let row = idx[axis].sub(&s);
        let inside = Cond::always().and_range(&row, 0, value.shape()[axis] as i64);
        let mut vidx = idx.to_vec();
        vidx[axis] = row;
        let written = self.read_where(value, vidx, valid.and(&inside), c);
        let kept = self.read_where(target, idx.to_vec(), valid.clone(), c);
        let inside = self.emit(c, Ins::Cond(inside));
        self.emit(
            c,
            Ins::Ternary(TernaryOp::Where, inside, written, kept, node.dtype()),
        )
    }

    /// `node`'s value at `idx` where `valid` holds (zero elsewhere): a source of the root,
    /// computed in the kernel or read from its buffer.
    fn read_where(&mut self, node: &Arc<Node>, idx: Vec<Expr>, valid: Cond, c: Cursor) -> Val {
        self.run(Task::Eval(Request {
            node: node.clone(),
            idx,
            valid,
            c,
            top: false,
        }))
    }

    fn read(&mut self, node: &Arc<Node>, idx: Vec<Expr>, c: Cursor) -> Val {
        self.read_where(node, idx, Cond::always(), c)
    }

    /// The outputs of a kernel over window `w` of write `root` ([`kernel::window`]): an
    /// invocation computes a vector of the value (one row's: rows are whole vectors) and
    /// stores it at the target's row `start + t`, only where that lies inside the target.
    /// The store index is the vector's own plus what the target's rows add: `start` rows, and
    /// `cap - len` rows for each index of the axes before. Further roots (`also`) are writes
    /// of the same window and start (`schedule/multi.rs`), stored at the same index.
    pub(super) fn window_outputs(&mut self, root: &Arc<Node>, also: &[Arc<Node>], w: Window) {
        debug_assert_eq!(
            self.prog.out_vectors, 1,
            "a window's stores are single vectors"
        );
        let srcs = root.srcs();
        let (value, start) = (&srcs[1], &srcs[2]);
        let c = Cursor::end(Program::ROOT);
        let groups = self.prog.groups() as i64;
        let group = Expr::var(0, (groups - 1).max(0));
        let start = self.read(start, Vec::new(), c);
        let s = self.window_start(root, start, c);
        let per_row = (w.inner / LANES) as i64;
        let row = group.div(per_row);
        let (outer, t) = (row.div(w.len as i64), row.modulo(w.len as i64));
        let skipped = (w.cap - w.len) as i64 * per_row;
        self.prog
            .out_index
            .push(group.add(&outer.scale(skipped)).add(&s.scale(per_row)));
        let inside = Cond::always().and_range(&t.add(&s), 0, w.cap as i64);
        let inside = self.emit(c, Ins::Cond(inside));
        // each value's lanes at the same flat index (the values are `[outer, len, inner]`
        // alike), split over its own shape
        let lowered = |l: &mut Self, value: &Arc<Node>| -> Vec<Val> {
            let shape = value.shape();
            (0..LANES)
                .map(|lane| {
                    let flat = group.scale(LANES as i64).add_const(lane as i64);
                    let idx = units_at_zero(&unflatten(&flat, shape), shape);
                    l.read(value, idx, c)
                })
                .collect()
        };
        let outputs = lowered(self, value);
        let kept = |xs: &[Val]| xs.iter().map(|&x| Some((inside, x))).collect::<Vec<_>>();
        let mut kept_where = vec![kept(&outputs)];
        self.prog.outputs = outputs;
        for r in also {
            debug_assert_eq!(kernel::window(r), Some(w), "{r:?} writes another window");
            let values = lowered(self, &r.srcs()[1]);
            kept_where.push(kept(&values));
            self.prog.more_outputs.push(MoreOutput {
                at: OutputAt::Lanes,
                values,
            });
        }
        self.prog.kept_where = kept_where;
    }
}
