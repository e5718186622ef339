//! The kernel's outputs: where each invocation's stored vectors lie for its strategy (an
//! output group of `LANES`; a row's loop over its vectors; a tile's rows of column vectors,
//! a workgroup taking a block of tiles), each lane's index split over the output axes, and the
//! graph expanded there.

use std::sync::Arc;

use super::super::program::{Ins, MoreOutput, OutputAt, Program, Val, VarKind};
use super::super::symbolic::{Cond, Expr};
use super::index::{self, unflatten};
use super::vectorize::{divided, multiple_of};
use super::{Cursor, Lowerer};
use crate::graph::node::{Node, Op};
use crate::kernel::{self, LANES, Strategy};
use crate::ops::TernaryOp;

/// A tile's coordinates: the index over the axes before the tile's (`outer`), the tile along
/// its axis (`tile`, `rows` rows from `tile * rows`), and its first column (`column`, `width`
/// vectors from there over the flattened axes after it). Its outputs' coordinates are formed
/// from these directly, so an input that does not vary along the tile's axis gets one index
/// (one load) for all rows without the simplifier having to see through a flat index.
struct Tiled {
    outer: Expr,
    tile: Expr,
    column: Expr,
    rows: usize,
    width: i64,
}

impl Tiled {
    /// Output group `group`'s tile of `rows` rows of `width` vectors along `tile_axis` of
    /// `shape`, in workgroups of `threads`, and the first output of each of its vectors, row by
    /// row.
    fn new(
        shape: &[usize],
        tile_axis: usize,
        (rows, width, threads): (usize, usize, u32),
        group: &Expr,
    ) -> (Tiled, Vec<Expr>) {
        // the rows are `rows` consecutive indices along `tile_axis`; a tile's columns are
        // `width` consecutive vectors of one index of that axis (every later axis, `inner`
        // elements), `runs` such runs in all
        let m = shape[tile_axis] as i64;
        let inner: i64 = shape[tile_axis + 1..].iter().product::<usize>() as i64;
        let width = width as i64;
        let (runs, tiles) = (inner / (LANES as i64 * width), m / rows as i64);
        // a workgroup takes a block of tiles as square as its size allows (16 x 16 for 256
        // invocations, 16 x 8 for 128) where they divide, so it reads a few tiles' rows and
        // columns of the inputs instead of a whole row (what it reads stays in cache)
        let threads = i64::from(threads);
        let wide = 1i64 << (threads.max(1).ilog2().div_ceil(2));
        let (wide, high) = (wide, (threads / wide).max(1));
        let (col, tile, outer) = if runs % wide == 0 && tiles % high == 0 {
            let local = group.modulo(wide * high);
            let wg = group.div(wide * high);
            let across = runs / wide;
            let col = wg.modulo(across).scale(wide).add(&local.modulo(wide));
            let tile = wg
                .div(across)
                .modulo(tiles / high)
                .scale(high)
                .add(&local.div(wide));
            (col, tile, wg.div(across * (tiles / high)))
        } else {
            (
                group.modulo(runs),
                group.div(runs).modulo(tiles),
                group.div(runs * tiles),
            )
        };
        // a tile's vectors row by row: (row, vector) of the k-th is (k / width, k % width)
        let column = col.scale(LANES as i64 * width);
        let bases = (0..rows as i64 * width)
            .map(|k| {
                outer
                    .scale(m * inner)
                    .add(&tile.scale(rows as i64 * inner))
                    .add(&column)
                    .add_const(k / width * inner + k % width * LANES as i64)
            })
            .collect();
        let tiled = Tiled {
            outer,
            tile,
            column,
            rows,
            width,
        };
        (tiled, bases)
    }

    /// The coordinates of lane `lane` of the tile's `i`-th vector, over `shape`.
    fn index(&self, shape: &[usize], tile_axis: usize, i: usize, lane: usize) -> Vec<Expr> {
        let (row, vector) = (i as i64 / self.width, i as i64 % self.width);
        let mut idx = unflatten(&self.outer, &shape[..tile_axis]);
        idx.push(self.tile.scale(self.rows as i64).add_const(row));
        let column = self.column.add_const(vector * LANES as i64 + lane as i64);
        idx.extend(unflatten(&column, &shape[tile_axis + 1..]));
        idx
    }
}

impl Lowerer {
    /// Computes `root` at every output lane: a tile's rows along output axis `tile_axis`, and
    /// [`Program::out_vectors`] adjacent vectors a store.
    /// Further roots of a multi-output kernel (`also`, of `root`'s shape but for axes of
    /// length 1) are computed at the same lanes into [`Program::more_outputs`]; in a row
    /// kernel, those of one value a row once a row ([`OutputAt::Row`]).
    pub(super) fn outputs(&mut self, root: &Arc<Node>, also: &[Arc<Node>], tile_axis: usize) {
        if let Some(w) = kernel::window(root) {
            return self.window_outputs(root, also, w);
        }
        let (strategy, out_vectors, numel) =
            (self.prog.strategy, self.prog.out_vectors, self.prog.numel);
        let groups = self.prog.groups() as i64;
        let group = Expr::var(0, (groups - 1).max(0));
        let exact_lanes = numel.is_multiple_of(LANES);
        // the first output of each stored vector: 4q; q*row + 4j for the j-th vector of row q;
        // or, for a tile, the same vectors of columns of `rows` consecutive rows
        let mut tiled: Option<Tiled> = None;
        let (bases, out): (Vec<Expr>, Cursor) = match strategy {
            Strategy::Row { row, .. } => {
                let step = (LANES * out_vectors) as i64;
                let steps = row as i64 / step;
                let j = self.new_block(Cursor::end(Program::ROOT), steps, true, false);
                let (jvar, _) = self.prog.blocks[j].loop_var.expect("row loop");
                let first = group
                    .scale(row as i64)
                    .add(&Expr::var(jvar, steps - 1).scale(step));
                let bases = (0..out_vectors as i64)
                    .map(|k| first.add_const(k * LANES as i64))
                    .collect();
                (bases, Cursor::end(j))
            }
            Strategy::Tile {
                rows,
                cols,
                threads,
            } => {
                let (t, bases) = Tiled::new(root.shape(), tile_axis, (rows, cols, threads), &group);
                tiled = Some(t);
                (bases, Cursor::end(Program::ROOT))
            }
            _ => {
                let span = (LANES * out_vectors) as i64;
                let bases = (0..out_vectors as i64)
                    .map(|k| group.scale(span).add_const(k * LANES as i64))
                    .collect();
                (bases, Cursor::end(Program::ROOT))
            }
        };
        self.prog.out_block = out.block;
        let shape = root.shape();
        // a row kernel's member of one value a row is stored once a row, the rest at lanes
        let at = |r: &Arc<Node>| match strategy {
            Strategy::Row { row, .. } if r.numel() * row == numel && row > 1 => OutputAt::Row,
            _ => OutputAt::Lanes,
        };
        self.prog.more_outputs = also
            .iter()
            .map(|r| MoreOutput {
                at: at(r),
                values: Vec::new(),
            })
            .collect();
        let mut kept: Vec<Vec<Option<(Val, Val)>>> = vec![Vec::new(); also.len() + 1];
        for (i, base) in bases.iter().enumerate() {
            self.prog.out_index.push(if exact_lanes {
                base.div(LANES as i64)
            } else {
                group.clone()
            });
            for lane in 0..LANES {
                let idx = match &tiled {
                    Some(t) if exact_lanes => t.index(shape, tile_axis, i, lane),
                    _ => {
                        let flat = if exact_lanes {
                            base.add_const(lane as i64)
                        } else {
                            let id = self.prog.vars.len() as u32;
                            self.prog.vars.push(VarKind::ClampedLane(lane));
                            Expr::var(id, numel as i64 - 1)
                        };
                        unflatten(&flat, shape)
                    }
                };
                // an axis of length 1 is at 0 (so a member reading the root through a
                // reshape that drops it meets the root's own index)
                let idx = index::units_at_zero(&idx, shape);
                let v = self.lower_op(root, &idx, &Cond::always(), out);
                self.prog.outputs.push(v);
                kept[0].push(self.kept_where(root, v));
                for (j, r) in also.iter().enumerate() {
                    if self.prog.more_outputs[j].at == OutputAt::Row {
                        continue;
                    }
                    let idx = index::reshape_index(&idx, shape, r.shape());
                    let v = self.lower_op(r, &idx, &Cond::always(), out);
                    self.prog.more_outputs[j].values.push(v);
                    kept[j + 1].push(self.kept_where(r, v));
                }
            }
        }
        // after the row's outputs, so that a member meets the row's reductions they
        // computed (at the row's index: the output's with the row's own axes at 0)
        for (j, r) in also.iter().enumerate() {
            if self.prog.more_outputs[j].at == OutputAt::Row {
                let idx = unflatten(&group, r.shape());
                let v = self.lower_op(r, &idx, &Cond::always(), Cursor::end(Program::ROOT));
                self.prog.more_outputs[j].values.push(v);
            }
        }
        if out_vectors > 1 {
            // vector indices 2g and 2g + 1 store as one wide store at g
            self.prog.out_index = self
                .prog
                .out_index
                .chunks(out_vectors)
                .map(|pair| {
                    debug_assert!(multiple_of(&pair[0], out_vectors as i64), "{pair:?}");
                    divided(&pair[0], out_vectors as i64)
                })
                .collect();
        }
        self.prog.kept_where = kept;
    }

    /// Where `root`, lowered to `v`, writes in place `where(c, x, target)` into its own
    /// target (a KV cache's rows at a position, the rest kept) and `v` is that select: its
    /// condition and `x` ([`Program::kept_where`]). An assign's value is computed by the
    /// assign's own kernel only where it reads the target at the index it writes
    /// (`schedule/assign.rs`), so `v` is a select only then, and the buffer written holds
    /// the target's value. Not behind another unrealized write (an assign chain, which a
    /// packed kernel might compute in registers).
    fn kept_where(&self, root: &Arc<Node>, v: Val) -> Option<(Val, Val)> {
        let srcs = root.srcs();
        let (target, value) = match root.op() {
            Op::Assign | Op::AssignWindow(_) => (&srcs[0], &srcs[1]),
            _ => return None,
        };
        // (a window write over its whole target is such a select, `Lowerer::windowed`)
        let keeps = (!target.op().writes_in_place() || target.is_realized())
            && (matches!(root.op(), Op::AssignWindow(_))
                || matches!(value.op(), Op::Ternary(TernaryOp::Where))
                    && value.srcs()[2].id() == target.id());
        match self.prog.ins[v] {
            Ins::Ternary(TernaryOp::Where, c, x, _, _) if keeps => Some((c, x)),
            _ => None,
        }
    }
}
