//! The graph's scalars as data: vars (which a replay rebinds) and constants get push-constant
//! words while words are left, so a kernel's source does not depend on their values.

use std::sync::Arc;

use super::super::program::{ConstBits, Ins, Val};
use super::super::symbolic::Cond;
use super::{Cursor, Lowerer};
use crate::dtype::{DType, Scalar};
use crate::graph::node::{ConstValue, Node, Op};

impl Lowerer {
    /// Gives every var of the region a push-constant word, before any constant takes one.
    pub(super) fn place_vars(&mut self, root: &Arc<Node>) {
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![root.clone()];
        while let Some(n) = stack.pop() {
            if self.inputs.contains_key(&n.id()) || !seen.insert(n.id()) {
                continue;
            }
            if let Op::Var(id, ConstValue(v)) = n.op() {
                let d = n.dtype();
                if !self.var_words.contains_key(&(*id, d)) {
                    let w = self.prog.params.len();
                    self.prog.params.extend(param_words(*v, d));
                    self.var_words.insert((*id, d), w);
                    self.prog.var_params.push((*id, w, d));
                }
            }
            stack.extend(n.srcs());
        }
        self.capacity = self.capacity.max(self.prog.params.len());
    }

    /// A var's value: its push-constant word.
    pub(super) fn var(&mut self, c: Cursor, id: u64, dtype: DType) -> Val {
        let word = self.var_words[&(id, dtype)];
        let c = self.hoist(c, &[], &Cond::always());
        self.emit(c, Ins::Param { word, dtype })
    }

    /// A constant: a push-constant scalar while words are left, else a literal. Values as
    /// data keep a kernel's source independent of them, and keep compilers from folding
    /// arithmetic with them (llvmpipe folds `x * 0.0` to zero even for an infinite `x`).
    pub(super) fn constant(&mut self, c: Cursor, value: Scalar, dtype: DType) -> Val {
        let bits = ConstBits(value.cast(dtype));
        let word = match self.param_words.get(&(bits, dtype)) {
            Some(&w) => w,
            None => {
                let words = param_words(bits.0, dtype);
                if self.prog.params.len() + words.len() > self.capacity {
                    let c = self.hoist(c, &[], &Cond::always());
                    return self.emit(c, Ins::Const(bits, dtype));
                }
                let w = self.prog.params.len();
                self.prog.params.extend(words);
                self.param_words.insert((bits, dtype), w);
                w
            }
        };
        let c = self.hoist(c, &[], &Cond::always());
        self.emit(c, Ins::Param { word, dtype })
    }
}

/// A scalar's push-constant words: its register value's bits (f16 as the f32 it computes
/// in, 64-bit types low word first).
pub fn param_words(v: Scalar, d: DType) -> Vec<u32> {
    let v = v.cast(d);
    match d {
        DType::Bool => vec![u32::from(v.as_i128() != 0)],
        DType::I8 | DType::I16 | DType::I32 | DType::U8 | DType::U16 | DType::U32 => {
            vec![v.as_i128() as u32]
        }
        DType::I64 | DType::U64 => {
            let b = v.as_i128() as u64;
            vec![b as u32, (b >> 32) as u32]
        }
        DType::F16 | DType::F32 => vec![(v.as_f64() as f32).to_bits()],
        DType::F64 => {
            let b = v.as_f64().to_bits();
            vec![b as u32, (b >> 32) as u32]
        }
    }
}
