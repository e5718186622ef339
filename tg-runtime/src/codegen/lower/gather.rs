//! A gather reads its values at positions a kernel computes: the position is checked against
//! the axis, clamped into it, and becomes an index variable of its own, so the values' index
//! expressions simplify (and vectorize) as any other.

use std::sync::Arc;

use super::super::program::{Ins, Val, VarKind};
use super::super::symbolic::{Cond, Expr};
use super::expand::{Request, Task};
use super::{Cursor, Lowerer};
use crate::dtype::{DType, Scalar};
use crate::graph::node::{Node, Op};
use crate::ops::{BinaryOp, TernaryOp};

impl Lowerer {
    /// Gather `node` at `idx`, its position along its axis being `pos` (the index source's
    /// value): the position is checked against the axis, clamped into it as an index
    /// variable of its own ([`VarKind::Value`]), and the values are read there, 0 where the
    /// position was outside.
    pub(super) fn gathered(
        &mut self,
        node: &Arc<Node>,
        idx: &[Expr],
        valid: &Cond,
        pos: Val,
        c: Cursor,
    ) -> Val {
        let Op::Gather(axis) = node.op() else {
            unreachable!("{node:?} is not a gather");
        };
        let srcs = node.srcs();
        let (values, index) = (&srcs[0], &srcs[1]);
        let (pdt, dt) = (index.dtype(), node.dtype());
        let n = values.shape()[*axis];
        let zero = self.constant(c, Scalar::Int(0), pdt);
        // each bound is checked where the positions' dtype can pass it (`n` itself may not
        // fit a narrow one: u8 positions on an axis of 300 are all inside)
        let past_end = (pdt.int_max() as u128) >= n as u128;
        let below_end = past_end.then(|| {
            let end = self.constant(c, Scalar::Int(n as i64), pdt);
            self.emit(c, Ins::Binary(BinaryOp::CmpLt, pos, end, pdt))
        });
        let negative = (!pdt.is_unsigned())
            .then(|| self.emit(c, Ins::Binary(BinaryOp::CmpLt, pos, zero, pdt)));
        let yes = |l: &mut Self| l.constant(c, Scalar::Bool(true), DType::Bool);
        let inside = match (negative, below_end) {
            (Some(neg), Some(below)) => {
                let no = self.constant(c, Scalar::Bool(false), DType::Bool);
                self.emit(
                    c,
                    Ins::Ternary(TernaryOp::Where, neg, no, below, DType::Bool),
                )
            }
            (Some(neg), None) => {
                let no = self.constant(c, Scalar::Bool(false), DType::Bool);
                let ok = yes(self);
                self.emit(c, Ins::Ternary(TernaryOp::Where, neg, no, ok, DType::Bool))
            }
            (None, Some(below)) => below,
            (None, None) => yes(self),
        };
        let clamped = self.emit(c, Ins::Ternary(TernaryOp::Where, inside, pos, zero, pdt));
        let clamped = if pdt == DType::I32 {
            clamped
        } else {
            self.emit(
                c,
                Ins::Cast {
                    src: clamped,
                    from: pdt,
                    to: DType::I32,
                },
            )
        };
        // one variable per value, so the lanes' reads of one row show as consecutive
        // indices (a vector load)
        let id = self.var_of(VarKind::Value(clamped));
        let mut sidx = idx.to_vec();
        sidx[*axis] = Expr::var(id, n as i64 - 1);
        let read = self.run(Task::Eval(Request {
            node: values.clone(),
            idx: sidx,
            valid: valid.clone(),
            c,
            top: false,
        }));
        let none = self.constant(c, Scalar::Int(0), dt);
        self.emit(c, Ins::Ternary(TernaryOp::Where, inside, read, none, dt))
    }
}
