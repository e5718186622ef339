//! Lowers the fused subgraph of one kernel to a `Program`: movement ops become index
//! arithmetic, reductions become loops, and equal instructions are emitted once.

use std::collections::HashMap;
use std::sync::Arc;

use super::program::{Acc, Block, BlockId, ConstBits, Ins, LANES, Program, Strategy, Val, VarKind};
use super::symbolic::{Cond, Expr};
use crate::dtype::{DType, Scalar};
use crate::graph::node::{ConstValue, Node, Op};
use crate::ops::{ReduceOp, TernaryOp};

/// Row-major strides of `shape`.
pub fn strides(shape: &[usize]) -> Vec<i64> {
    let mut s = vec![1i64; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1] * shape[k + 1] as i64;
    }
    s
}

/// Splits a row-major flat index over `shape` into one index per axis.
fn unflatten(flat: &Expr, shape: &[usize]) -> Vec<Expr> {
    strides(shape)
        .iter()
        .zip(shape)
        .map(|(&st, &n)| flat.div(st).modulo(n.max(1) as i64))
        .collect()
}

fn flatten(idx: &[Expr], shape: &[usize]) -> Expr {
    idx.iter()
        .zip(strides(shape))
        .fold(Expr::constant(0), |acc, (e, st)| acc.add(&e.scale(st)))
}

/// The value a reduction starts from.
pub fn identity(op: ReduceOp, dtype: DType) -> Scalar {
    match op {
        ReduceOp::Add => Scalar::Int(0).cast(dtype),
        ReduceOp::Mul => Scalar::Int(1).cast(dtype),
        ReduceOp::Max => {
            if dtype.is_float() {
                Scalar::Float(f64::NEG_INFINITY)
            } else if dtype.is_bool() {
                Scalar::Bool(false)
            } else if dtype.is_unsigned() {
                Scalar::UInt(0)
            } else {
                Scalar::Int(dtype.int_min() as i64)
            }
        }
    }
}

type MemoKey = (u64, Vec<Expr>, Cond, BlockId);

struct Lowerer<'a> {
    prog: Program,
    inputs: &'a HashMap<u64, usize>,
    memo: HashMap<MemoKey, Val>,
    cse: HashMap<(Ins, BlockId), Val>,
    loops: HashMap<(BlockId, i64), BlockId>,
}

/// Lowers `root` (computed from `inputs`, which the kernel reads from buffers).
pub fn lower(root: &Arc<Node>, inputs: &[Arc<Node>], strategy: Strategy) -> Program {
    let input_ids: HashMap<u64, usize> = inputs
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id(), i))
        .collect();
    let numel = root.numel();
    let mut l = Lowerer {
        prog: Program {
            ins: Vec::new(),
            blocks: vec![Block::default()],
            outputs: Vec::new(),
            out_dtype: root.dtype(),
            numel,
            inputs: inputs.iter().map(|n| n.dtype()).collect(),
            vars: vec![VarKind::Group],
            strategy,
        },
        inputs: &input_ids,
        memo: HashMap::new(),
        cse: HashMap::new(),
        loops: HashMap::new(),
    };
    let exact_lanes = numel.is_multiple_of(LANES);
    let group = Expr::var(0, (numel.div_ceil(LANES) as i64 - 1).max(0));
    for lane in 0..LANES {
        let flat = if exact_lanes {
            group.scale(LANES as i64).add_const(lane as i64)
        } else {
            let id = l.prog.vars.len() as u32;
            l.prog.vars.push(VarKind::ClampedLane(lane));
            Expr::var(id, numel as i64 - 1)
        };
        let idx = unflatten(&flat, root.shape());
        let v = l.lower_op(root, &idx, &Cond::always(), Program::ROOT);
        l.prog.outputs.push(v);
    }
    if exact_lanes {
        l.vectorize_loads();
    }
    l.prog
}

impl Lowerer<'_> {
    fn emit(&mut self, block: BlockId, ins: Ins) -> Val {
        if let Some(&v) = self.cse.get(&(ins.clone(), block)) {
            return v;
        }
        let v = self.prog.ins.len();
        self.prog.ins.push(ins.clone());
        self.prog.blocks[block].ins.push(v);
        self.cse.insert((ins, block), v);
        v
    }

    fn constant(&mut self, block: BlockId, value: Scalar, dtype: DType) -> Val {
        self.emit(block, Ins::Const(ConstBits(value.cast(dtype)), dtype))
    }

    fn lower(&mut self, node: &Arc<Node>, idx: &[Expr], valid: &Cond, block: BlockId) -> Val {
        if valid.is_never() {
            return self.constant(block, Scalar::Int(0), node.dtype());
        }
        if let Some(&buf) = self.inputs.get(&node.id()) {
            let index = flatten(idx, node.shape());
            return self.emit(
                block,
                Ins::Load {
                    buf,
                    index,
                    valid: valid.clone(),
                    dtype: node.dtype(),
                },
            );
        }
        let key = (node.id(), idx.to_vec(), valid.clone(), block);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let v = self.lower_op(node, idx, valid, block);
        self.memo.insert(key, v);
        v
    }

    fn lower_op(&mut self, node: &Arc<Node>, idx: &[Expr], valid: &Cond, block: BlockId) -> Val {
        let srcs = node.srcs();
        let dt = node.dtype();
        let src_shape = |i: usize| srcs[i].shape().to_vec();
        match node.op() {
            Op::Buffer => unreachable!("buffer {node:?} is not a kernel input"),
            Op::Const(ConstValue(v)) => self.constant(block, *v, dt),
            Op::Unary(op) => {
                let a = self.lower(&srcs[0], idx, valid, block);
                self.emit(block, Ins::Unary(*op, a, dt))
            }
            Op::Binary(op) => {
                let a = self.lower(&srcs[0], idx, valid, block);
                let b = self.lower(&srcs[1], idx, valid, block);
                self.emit(block, Ins::Binary(*op, a, b, srcs[0].dtype()))
            }
            Op::Ternary(op) => {
                let a = self.lower(&srcs[0], idx, valid, block);
                let b = self.lower(&srcs[1], idx, valid, block);
                let c = self.lower(&srcs[2], idx, valid, block);
                self.emit(block, Ins::Ternary(*op, a, b, c, dt))
            }
            Op::Cast => {
                let a = self.lower(&srcs[0], idx, valid, block);
                self.emit(
                    block,
                    Ins::Cast {
                        src: a,
                        from: srcs[0].dtype(),
                        to: dt,
                    },
                )
            }
            Op::Bitcast => {
                let a = self.lower(&srcs[0], idx, valid, block);
                self.emit(
                    block,
                    Ins::Bitcast {
                        src: a,
                        from: srcs[0].dtype(),
                        to: dt,
                    },
                )
            }
            Op::Contiguous => self.lower(&srcs[0], idx, valid, block),
            Op::Reduce(op, axes) => self.lower_reduce(*op, axes, &srcs[0], idx, valid, block),
            Op::Reshape => {
                let flat = flatten(idx, node.shape());
                let sidx = unflatten(&flat, &src_shape(0));
                self.lower(&srcs[0], &sidx, valid, block)
            }
            Op::Expand => {
                let sidx: Vec<Expr> = idx
                    .iter()
                    .zip(srcs[0].shape())
                    .map(|(e, &s)| if s == 1 { Expr::constant(0) } else { e.clone() })
                    .collect();
                self.lower(&srcs[0], &sidx, valid, block)
            }
            Op::Permute(perm) => {
                let mut sidx = vec![Expr::constant(0); perm.len()];
                for (i, &p) in perm.iter().enumerate() {
                    sidx[p] = idx[i].clone();
                }
                self.lower(&srcs[0], &sidx, valid, block)
            }
            Op::Shrink(ranges) => {
                let sidx: Vec<Expr> = idx
                    .iter()
                    .zip(ranges)
                    .map(|(e, &(s, _))| e.add_const(s as i64))
                    .collect();
                self.lower(&srcs[0], &sidx, valid, block)
            }
            Op::Flip(axes) => {
                let sidx: Vec<Expr> = idx
                    .iter()
                    .enumerate()
                    .map(|(k, e)| {
                        if axes.contains(&k) {
                            e.scale(-1).add_const(node.shape()[k] as i64 - 1)
                        } else {
                            e.clone()
                        }
                    })
                    .collect();
                self.lower(&srcs[0], &sidx, valid, block)
            }
            Op::Pad(pads) => {
                let sshape = src_shape(0);
                let mut inner = Cond::always();
                let mut sidx = Vec::with_capacity(idx.len());
                for ((e, &(before, _)), &n) in idx.iter().zip(pads).zip(&sshape) {
                    let s = e.add_const(-(before as i64));
                    inner = inner.and_range(&s, 0, n as i64);
                    sidx.push(s);
                }
                let all = valid.and(&inner);
                if all.is_never() {
                    return self.constant(block, Scalar::Int(0), dt);
                }
                let v = self.lower(&srcs[0], &sidx, &all, block);
                // a plain load already reads zero outside its valid region
                if inner.is_always() || self.inputs.contains_key(&srcs[0].id()) {
                    return v;
                }
                let c = self.emit(block, Ins::Cond(inner));
                let zero = self.constant(block, Scalar::Int(0), dt);
                self.emit(block, Ins::Ternary(TernaryOp::Where, c, v, zero, dt))
            }
        }
    }

    fn lower_reduce(
        &mut self,
        op: ReduceOp,
        axes: &[usize],
        src: &Arc<Node>,
        idx: &[Expr],
        valid: &Cond,
        block: BlockId,
    ) -> Val {
        let dt = src.dtype();
        let rshape: Vec<usize> = axes.iter().map(|&a| src.shape()[a]).collect();
        let trip: usize = rshape.iter().product();
        if trip == 0 {
            return self.constant(block, identity(op, dt), dt);
        }
        let body = self.loop_block(block, trip as i64);
        let (var, _) = self.prog.blocks[body].loop_var.expect("loop block");
        let r = Expr::var(var, trip as i64 - 1);
        let ridx = unflatten(&r, &rshape);
        let mut sidx = idx.to_vec();
        for (&a, e) in axes.iter().zip(ridx) {
            sidx[a] = e;
        }
        let value = self.lower(src, &sidx, valid, body);
        // f16 accumulates in f32 and rounds once, as numpy does
        let acc_dt = if dt == DType::F16 { DType::F32 } else { dt };
        let acc = self.prog.blocks[body].accs.len();
        self.prog.blocks[body].accs.push(Acc {
            op,
            dtype: acc_dt,
            value,
        });
        let total = self.emit(
            block,
            Ins::AccResult {
                block: body,
                acc,
                dtype: acc_dt,
            },
        );
        if acc_dt == dt {
            total
        } else {
            self.emit(
                block,
                Ins::Cast {
                    src: total,
                    from: acc_dt,
                    to: dt,
                },
            )
        }
    }

    /// The loop of `trip` iterations inside `parent`, shared by every reduction of that size.
    fn loop_block(&mut self, parent: BlockId, trip: i64) -> BlockId {
        if let Some(&b) = self.loops.get(&(parent, trip)) {
            return b;
        }
        let var = self.prog.vars.len() as u32;
        self.prog.vars.push(VarKind::Loop);
        let b = self.prog.blocks.len();
        self.prog.blocks.push(Block {
            ins: Vec::new(),
            parent: Some(parent),
            loop_var: Some((var, trip)),
            accs: Vec::new(),
        });
        let marker = self.prog.ins.len();
        self.prog.ins.push(Ins::Loop(b));
        self.prog.blocks[parent].ins.push(marker);
        self.loops.insert((parent, trip), b);
        b
    }

    /// Replaces each run of `LANES` loads at consecutive, aligned indices by one vector load.
    fn vectorize_loads(&mut self) {
        for b in 0..self.prog.blocks.len() {
            let list = self.prog.blocks[b].ins.clone();
            let mut by_index: HashMap<(usize, Expr, DType), usize> = HashMap::new();
            for (pos, &v) in list.iter().enumerate() {
                if let Ins::Load {
                    buf,
                    index,
                    valid,
                    dtype,
                } = &self.prog.ins[v]
                    && valid.is_always()
                {
                    by_index.insert((*buf, index.clone(), *dtype), pos);
                }
            }
            let mut inserts: Vec<(usize, Val)> = Vec::new();
            for (pos, &v) in list.iter().enumerate() {
                let Ins::Load {
                    buf,
                    index,
                    valid,
                    dtype,
                } = self.prog.ins[v].clone()
                else {
                    continue;
                };
                if !valid.is_always() || !aligned(&index) {
                    continue;
                }
                let lanes: Option<Vec<usize>> = (0..LANES as i64)
                    .map(|l| by_index.get(&(buf, index.add_const(l), dtype)).copied())
                    .collect();
                let Some(lanes) = lanes else { continue };
                let first = *lanes.iter().min().unwrap_or(&pos);
                let vec = self.prog.ins.len();
                self.prog.ins.push(Ins::VecLoad {
                    buf,
                    vindex: quarter(&index),
                    dtype,
                });
                for (lane, &p) in lanes.iter().enumerate() {
                    self.prog.ins[list[p]] = Ins::Extract { vec, lane, dtype };
                }
                inserts.push((first, vec));
            }
            inserts.sort_unstable();
            for (k, (pos, vec)) in inserts.into_iter().enumerate() {
                self.prog.blocks[b].ins.insert(pos + k, vec);
            }
        }
    }
}

/// Is every coefficient and the constant a multiple of `LANES`?
fn aligned(e: &Expr) -> bool {
    let l = LANES as i64;
    e.constant_part() % l == 0 && e.terms().iter().all(|(_, c)| c % l == 0)
}

fn quarter(e: &Expr) -> Expr {
    let l = LANES as i64;
    e.terms()
        .iter()
        .fold(Expr::constant(e.constant_part() / l), |acc, (a, c)| {
            acc.add(&atom_expr(a).scale(c / l))
        })
}

fn atom_expr(a: &super::symbolic::Atom) -> Expr {
    use super::symbolic::Atom;
    match a {
        Atom::Var(v) => Expr::var(v.id, v.max),
        Atom::Div(e, d) => e.div(*d),
        Atom::Mod(e, d) => e.modulo(*d),
    }
}
