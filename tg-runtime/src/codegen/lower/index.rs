//! Movement ops as index arithmetic: a reshape flattens and re-splits the axes it changes, a
//! permute reorders, an expand reads index 0, a shrink adds its start, a flip reads `n - 1 - i`
//! and a pad subtracts its `before` under a validity condition. A value is requested at one
//! index expression per axis; these rewrite that index into its source's.

use super::super::symbolic::{Cond, Expr};
use crate::graph::node::Op;
use crate::kernel::reshape_groups;

/// Row-major strides of `shape`.
pub fn strides(shape: &[usize]) -> Vec<i64> {
    let mut s = vec![1i64; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1] * shape[k + 1] as i64;
    }
    s
}

/// Splits a row-major flat index over `shape` into one index per axis. Every flat index
/// lowering splits is below the shape's element count, so the first axis needs no modulo
/// (a range that only bounds `flat` loosely, as a trip count's class does, could not drop it).
pub(super) fn unflatten(flat: &Expr, shape: &[usize]) -> Vec<Expr> {
    strides(shape)
        .iter()
        .zip(shape)
        .enumerate()
        .map(|(axis, (&st, &n))| {
            let q = flat.div(st);
            if axis == 0 {
                q
            } else {
                q.modulo(n.max(1) as i64)
            }
        })
        .collect()
}

/// The index into a reshape's source (of shape `src`) that `idx`, an index of the reshaped
/// node (of shape `shape`), reads; also how a multi-output kernel indexes a root of another
/// shape of the same size.
pub(super) fn reshape_index(idx: &[Expr], shape: &[usize], src: &[usize]) -> Vec<Expr> {
    let mut out = Vec::with_capacity(src.len());
    for (from, to) in reshape_groups(shape, src) {
        if to.is_empty() {
            continue;
        }
        let flat = flatten(&idx[from.clone()], &shape[from]);
        out.extend(unflatten(&flat, &src[to]));
    }
    out
}

/// `idx`, an index of shape `shape`, with its axes of length 1 at the constant 0 (where an
/// expand reads its source).
pub(super) fn units_at_zero(idx: &[Expr], shape: &[usize]) -> Vec<Expr> {
    idx.iter()
        .zip(shape)
        .map(|(e, &n)| if n == 1 { Expr::constant(0) } else { e.clone() })
        .collect()
}

pub(super) fn flatten(idx: &[Expr], shape: &[usize]) -> Expr {
    idx.iter()
        .zip(strides(shape))
        .fold(Expr::constant(0), |acc, (e, st)| acc.add(&e.scale(st)))
}

/// The index into the source (of shape `src`) that `idx`, an index of a movement node of op
/// `op` and shape `shape` (not a pad: [`padded`]), reads.
pub(super) fn source_index(op: &Op, shape: &[usize], src: &[usize], idx: &[Expr]) -> Vec<Expr> {
    match op {
        Op::Reshape => reshape_index(idx, shape, src),
        Op::Expand => units_at_zero(idx, src),
        Op::Permute(perm) => {
            let mut sidx = vec![Expr::constant(0); perm.len()];
            for (i, &p) in perm.iter().enumerate() {
                sidx[p] = idx[i].clone();
            }
            sidx
        }
        Op::Shrink(ranges) => idx
            .iter()
            .zip(ranges)
            .map(|(e, &(s, _))| e.add_const(s as i64))
            .collect(),
        Op::Flip(axes) => idx
            .iter()
            .enumerate()
            .map(|(k, e)| {
                if axes.contains(&k) {
                    e.scale(-1).add_const(shape[k] as i64 - 1)
                } else {
                    e.clone()
                }
            })
            .collect(),
        op => unreachable!("{op:?} is not a movement that reindexes alone"),
    }
}

/// The index into a padded source (of shape `src`) that `idx` reads, and where it lies inside
/// the source (elsewhere the pad reads zero).
pub(super) fn padded(pads: &[(usize, usize)], src: &[usize], idx: &[Expr]) -> (Vec<Expr>, Cond) {
    let mut inner = Cond::always();
    let mut sidx = Vec::with_capacity(idx.len());
    for ((e, &(before, _)), &n) in idx.iter().zip(pads).zip(src) {
        let s = e.add_const(-(before as i64));
        inner = inner.and_range(&s, 0, n as i64);
        sidx.push(s);
    }
    (sidx, inner)
}
