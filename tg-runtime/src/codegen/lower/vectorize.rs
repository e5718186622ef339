//! Loads at consecutive indices become vector loads: four at aligned indices under one
//! condition one vector (`Ins::VecLoad`), and where loads are wide (`Lowering::wide_loads`)
//! two vectors at `2m` and `2m + 1` one load of eight elements.

use std::collections::HashMap;

use super::super::program::{BlockId, Ins, Val};
use super::super::symbolic::{Atom, Cond, Expr};
use super::Lowerer;
use crate::dtype::DType;
use crate::kernel::LANES;

impl Lowerer {
    /// Replaces each run of `LANES` loads at consecutive, aligned indices, each valid where
    /// the others are (a padded row read whole: its lanes leave the image together), by one
    /// vector load.
    pub(super) fn vector_loads(&mut self) {
        // unrolled steps' variables stand for their loop counter's multiples again, so the
        // loads of consecutive steps show as consecutive indices
        let steps: Vec<(u32, Expr)> = self.steps.values().flatten().cloned().collect();
        let stepped = |e: &Expr| {
            steps
                .iter()
                .fold(e.clone(), |e, (id, step)| e.substitute(*id, step))
        };
        let stepped_cond = |c: &Cond| {
            steps
                .iter()
                .fold(c.clone(), |c, (id, step)| c.substitute(*id, step))
        };
        for b in 0..self.prog.blocks.len() {
            let list = self.prog.blocks[b].ins.clone();
            let mut by_index: HashMap<(usize, Expr, DType, Cond), usize> = HashMap::new();
            for (pos, &v) in list.iter().enumerate() {
                if let Ins::Load {
                    buf,
                    index,
                    valid,
                    dtype,
                } = &self.prog.ins[v]
                {
                    by_index.insert((*buf, stepped(index), *dtype, stepped_cond(valid)), pos);
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
                let (index, valid) = (stepped(&index), stepped_cond(&valid));
                if !aligned(&index) {
                    continue;
                }
                let lanes: Option<Vec<usize>> = (0..LANES as i64)
                    .map(|l| {
                        by_index
                            .get(&(buf, index.add_const(l), dtype, valid.clone()))
                            .copied()
                    })
                    .collect();
                let Some(lanes) = lanes else { continue };
                let first = *lanes.iter().min().unwrap_or(&pos);
                let vec = self.prog.ins.len();
                self.prog.ins.push(Ins::VecLoad {
                    buf,
                    vindex: divided(&index, LANES as i64),
                    valid,
                    dtype,
                    vectors: 1,
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

    /// Replaces each pair of vector loads at indices `2m` and `2m + 1` by one wide load, in
    /// every block.
    pub(super) fn paired_loads(&mut self) {
        for b in 0..self.prog.blocks.len() {
            self.pair_vectors(b);
        }
    }

    /// Replaces each pair of vector loads of block `b` at indices `2m` and `2m + 1` (of
    /// elements of at most 32 bits) by one wide load at `m`: the first vector's lanes keep
    /// their numbers, the second's follow them.
    fn pair_vectors(&mut self, b: BlockId) {
        let list = self.prog.blocks[b].ins.clone();
        let mut at: HashMap<(usize, Expr, DType, Cond), usize> = HashMap::new();
        for (pos, &v) in list.iter().enumerate() {
            if let Ins::VecLoad {
                buf,
                vindex,
                valid,
                dtype,
                vectors: 1,
            } = &self.prog.ins[v]
            {
                at.insert((*buf, vindex.clone(), *dtype, valid.clone()), pos);
            }
        }
        // (wide load, its lanes' offset) for each vector load replaced
        let mut moved: HashMap<Val, (Val, usize)> = HashMap::new();
        let mut dropped = std::collections::HashSet::new();
        for (pos, &v) in list.iter().enumerate() {
            let Ins::VecLoad {
                buf,
                vindex,
                valid,
                dtype,
                vectors: 1,
            } = self.prog.ins[v].clone()
            else {
                continue;
            };
            if dtype.size() > 4 || !multiple_of(&vindex, 2) {
                continue;
            }
            let Some(&next) = at.get(&(buf, vindex.add_const(1), dtype, valid.clone())) else {
                continue;
            };
            // the wide load takes the place of the earlier of the two
            let (keep, drop) = (pos.min(next), pos.max(next));
            let wide = list[keep];
            moved.insert(v, (wide, 0));
            moved.insert(list[next], (wide, LANES));
            dropped.insert(drop);
            // the other load's slot leaves every block: it is no load any more
            self.prog.ins[list[drop]] = Ins::Extract {
                vec: wide,
                lane: 0,
                dtype,
            };
            self.prog.ins[wide] = Ins::VecLoad {
                buf,
                vindex: divided(&vindex, 2),
                valid,
                dtype,
                vectors: 2,
            };
        }
        if moved.is_empty() {
            return;
        }
        for ins in &mut self.prog.ins {
            if let Ins::Extract { vec, lane, .. } = ins
                && let Some(&(wide, offset)) = moved.get(vec)
            {
                *vec = wide;
                *lane += offset;
            }
        }
        self.prog.blocks[b].ins = list
            .into_iter()
            .enumerate()
            .filter(|(pos, _)| !dropped.contains(pos))
            .map(|(_, v)| v)
            .collect();
    }
}

/// Is every coefficient and the constant a multiple of `LANES`?
fn aligned(e: &Expr) -> bool {
    multiple_of(e, LANES as i64)
}

/// Is every coefficient and the constant a multiple of `k` (so is `e`, for every value)?
pub(super) fn multiple_of(e: &Expr, k: i64) -> bool {
    e.constant_part() % k == 0 && e.terms().iter().all(|(_, c)| c % k == 0)
}

/// `e / k` for an `e` that is a [`multiple_of`] `k`, term by term.
pub(super) fn divided(e: &Expr, k: i64) -> Expr {
    e.terms()
        .iter()
        .fold(Expr::constant(e.constant_part() / k), |acc, (a, c)| {
            acc.add(&atom_expr(a).scale(c / k))
        })
}

fn atom_expr(a: &Atom) -> Expr {
    match a {
        Atom::Var(v) => Expr::var(v.id, v.max),
        Atom::Div(e, d) => e.div(*d),
        Atom::Mod(e, d) => e.modulo(*d),
    }
}
