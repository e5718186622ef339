//! Lowers the fused subgraph of one kernel to a `Program`: movement ops become index
//! arithmetic, reductions become loops, and equal instructions are emitted once.

use std::collections::HashMap;
use std::sync::Arc;

use super::program::{Acc, Block, BlockId, ConstBits, Ins, Program, Val, VarKind};
use super::symbolic::{Atom, Cond, Expr};
use crate::dtype::{DType, Scalar};
use crate::graph::node::{ConstValue, Node, Op};
use crate::graph::walk::post_order;
use crate::kernel::{LANES, SERIAL_THREADS, Strategy, buffer_bytes, kept_axes, tile_axes};
use crate::ops::{BinaryOp, ReduceOp, TernaryOp};
use crate::target::Lowering;

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
fn unflatten(flat: &Expr, shape: &[usize]) -> Vec<Expr> {
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
/// node (of shape `shape`), reads.
fn reshape_index(idx: &[Expr], shape: &[usize], src: &[usize]) -> Vec<Expr> {
    let (lead, tail) = kept_axes(shape, src);
    let mid = flatten(
        &idx[lead..idx.len() - tail],
        &shape[lead..shape.len() - tail],
    );
    let mut out = idx[..lead].to_vec();
    out.extend(unflatten(&mid, &src[lead..src.len() - tail]));
    out.extend_from_slice(&idx[idx.len() - tail..]);
    out
}

fn flatten(idx: &[Expr], shape: &[usize]) -> Expr {
    idx.iter()
        .zip(strides(shape))
        .fold(Expr::constant(0), |acc, (e, st)| acc.add(&e.scale(st)))
}

type MemoKey = (u64, Vec<Expr>, Cond, BlockId);

/// Where new instructions go: the end of `block`, or just before the loop marker `before`.
#[derive(Copy, Clone, Debug)]
struct Cursor {
    block: BlockId,
    before: Option<Val>,
}

impl Cursor {
    fn end(block: BlockId) -> Cursor {
        Cursor {
            block,
            before: None,
        }
    }
}

/// A value to compute: `node` at `idx` where `valid` holds, emitted at cursor `c`. `top`
/// marks the kernel's output, computed whatever else reads the same node.
struct Request {
    node: Arc<Node>,
    idx: Vec<Expr>,
    valid: Cond,
    c: Cursor,
    top: bool,
}

/// How a node's value comes from its sources' values.
enum Step {
    /// The one source's value (movement ops, `contiguous`).
    Pass,
    /// The source's value where the condition holds, else zero (padding of a computed value).
    Mask(Cond),
    /// One instruction of the node's elementwise op.
    Emit,
    /// The source is a gather's positions: read its values there (see
    /// [`Lowerer::gathered`]).
    Gather { idx: Vec<Expr>, valid: Cond },
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
struct Finish {
    node: Arc<Node>,
    c: Cursor,
    step: Step,
    srcs: usize,
    memo: Option<MemoKey>,
    /// The order the sources are evaluated in, when not their own (see
    /// `Lowerer::stash_rows`).
    order: Option<Vec<usize>>,
}

enum Task {
    Eval(Request),
    Finish(Finish),
}

/// What starting a request gives: its value, or the work still to do.
enum Begun {
    Done(Val),
    Need(Finish, Vec<Request>),
}

struct Lowerer<'a> {
    prog: Program,
    inputs: &'a HashMap<u64, usize>,
    memo: HashMap<MemoKey, Val>,
    cse: HashMap<(Ins, BlockId), Val>,
    loops: HashMap<(BlockId, i64), Vec<BlockId>>,
    /// Each loop block's `Loop` instruction in its parent.
    markers: HashMap<BlockId, Val>,
    /// The loops holding each reduction node's accumulators.
    acc_loops: HashMap<u64, Vec<BlockId>>,
    /// The push-constant word of each scalar value already given one, by (bits, dtype).
    param_words: HashMap<(ConstBits, DType), usize>,
    /// Push-constant words the kernel may use (the device's push-constant size, less the
    /// element count).
    capacity: usize,
    /// Reduction trip counts become push constants (see [`Block::trip_word`]).
    generic_trips: bool,
    /// The push-constant word of each var, by (id, dtype).
    var_words: HashMap<(u64, DType), usize>,
    /// A row kernel: a row reduction's source values are kept for the loops that run after
    /// it, other reductions and the row's output loop ([`Ins::Stash`],
    /// `Lowerer::runs_after`), and sources with the most nested reductions are evaluated
    /// first (softmax's sum over the exponentials before the exponentials themselves), so
    /// the output loop finds them kept.
    stash_rows: bool,
    /// Invocations sharing a row ([`Strategy::Row`]'s `threads`; 1 elsewhere). Where several
    /// do, every top-level loop of the row gives its iterations round-robin to them, an
    /// iteration taking [`LANES`] consecutive elements of the row: each keeps the elements
    /// of its own iterations (`Lowerer::stash_index`), and reads back only those.
    row_threads: i64,
    /// Kept values, by node.
    stashed: HashMap<u64, Vec<Stashed>>,
    /// Slots some instruction reads back.
    unstashed: std::collections::HashSet<usize>,
    /// How deeply reductions nest in a node's fused region, by node.
    reduce_depth: HashMap<u64, usize>,
    /// The `VarKind::Unrolled` variables of each loop counter, with what each stands for: a
    /// value using one stays in the loop.
    steps: HashMap<u32, Vec<(u32, Expr)>>,
    /// [`Lowering::wide_loads`].
    wide_loads: bool,
}

/// A row reduction's source values kept in an invocation's array.
#[derive(Clone, Debug)]
struct Stashed {
    /// The source's index on its other axes (0 on the reduced ones): a read at the same
    /// row finds the value kept.
    key: Vec<Expr>,
    /// The reduced axes.
    axes: Vec<usize>,
    /// Their lengths.
    rshape: Vec<usize>,
    /// The array.
    slot: usize,
    /// The loop that fills it.
    body: BlockId,
}

/// The most values an invocation keeps, over all its arrays (32 KiB of f32: a softmax's row
/// of 4096 and its exponentials, or a serial kernel's 4 rows of 1024 each).
const MAX_STASH: usize = 8192;

/// `by * r + step` for loop counter `var` over `0..bound`: the flat index of step `step` of a
/// reduction loop unrolled by `by`.
fn unrolled_step(var: u32, bound: i64, by: i64, step: i64) -> Expr {
    Expr::var(var, bound - 1).scale(by).add_const(step)
}

/// `idx` with 0 on the reduced `axes`: which row of a stashed reduction an index reads.
fn row_key(idx: &[Expr], axes: &[usize]) -> Vec<Expr> {
    let mut key = idx.to_vec();
    for &a in axes {
        key[a] = Expr::constant(0);
    }
    key
}

/// The range class of a trip count read from the push constants: the next power of 16.
fn trip_class(trip: i64) -> i64 {
    let mut class = 16;
    while class < trip {
        class *= 16;
    }
    class
}

/// Trip counts from this one on stay literals: their class could take index arithmetic past
/// 32 bits, and kernels this long are few.
const MAX_GENERIC_TRIP: i64 = 1 << 24;

/// Lowers `root` (computed from `inputs`, which the kernel reads from buffers).
///
/// A [`Strategy::Tile`] kernel may take its rows along any output axis before the last one
/// longer than 1 whose length the rows divide. Which one pays depends on which inputs vary
/// along it (a matmul's A varies along its row axis and not its columns; a convolution's
/// input does not vary along the output channels), so each candidate is lowered and the one
/// with the fewest loads kept: a value the rows share is one load, found by
/// common-subexpression elimination. Ties keep the axis nearest the columns.
///
/// `row_plan`: the scheduler kept reductions broadcast over rows in this kernel
/// (`schedule::rows`), so every reduction reduces a row and those nested in another run
/// before its loop: a row or serial kernel keeps what a row reduction folds for the row's
/// later loops (see `Lowerer::stash_rows`).
pub fn lower(
    root: &Arc<Node>,
    inputs: &[Arc<Node>],
    strategy: Strategy,
    row_plan: bool,
    options: Lowering,
) -> Program {
    if let Strategy::Sort { .. } | Strategy::Merge { .. } | Strategy::Scan { .. } = strategy {
        return template_program(root, inputs, strategy, options);
    }
    let at = |strategy, axis, out_vectors| {
        lower_at(root, inputs, strategy, row_plan, options, axis, out_vectors)
    };
    let mut p = match strategy {
        Strategy::Tile { rows, cols, .. } => tile_axes(root.shape(), rows, cols)
            .into_iter()
            .map(|axis| at(strategy, axis, 1))
            .min_by_key(Program::loads)
            .unwrap_or_else(|| at(Strategy::Serial, 0, 1)),
        // a row of whole pairs: its loops take two vectors an iteration (wide loads, kept
        // rows of eight, a wide store)
        Strategy::Row { row, .. }
            if options.wide_loads && root.dtype().size() <= 4 && row.is_multiple_of(2 * LANES) =>
        {
            at(strategy, 0, 2)
        }
        _ => at(strategy, 0, 1),
    };
    // a kernel without loops, lowered again with two vectors a group: its contiguous
    // operands then read in pairs, and it stores them as one
    if options.wide_loads
        && loop_free(&p)
        && p.numel.is_multiple_of(2 * LANES)
        && p.out_dtype.size() <= 4
    {
        let paired = at(Strategy::Serial, 0, 2);
        if loop_free(&paired) {
            p = paired;
        }
    }
    p.vectors = vectors_per_invocation(&p, options.vectors);
    p
}

/// A [`Strategy::Serial`] program without loops or kept arrays: elementwise work, which
/// several groups an invocation and paired vectors speed up on CPU drivers.
fn loop_free(p: &Program) -> bool {
    p.strategy == Strategy::Serial
        && p.blocks.iter().all(|b| b.loop_var.is_none())
        && p.stashes.is_empty()
}

/// Per buffer (the output, then the inputs): whether the kernel reaches it by device address,
/// being larger than one binding's range. Buffers hold whole vectors of four elements.
fn addressed(root: &Arc<Node>, inputs: &[Arc<Node>], options: Lowering) -> Vec<bool> {
    std::iter::once(root)
        .chain(inputs)
        .map(|n| options.addresses && buffer_bytes(n) > options.bind_limit)
        .collect()
}

/// The program of a kernel from a template (a sort, a merge or a scan of runs): no
/// instructions (the template is the whole body, `glsl::sort`, `glsl::merge`, `glsl::scan`),
/// the row length (records or elements) and the run length as push constants, so every level
/// of a merge sort, every scan stage and every row length is one shader (a sort's network is
/// its run's: its strategy holds the run).
fn template_program(
    root: &Arc<Node>,
    inputs: &[Arc<Node>],
    strategy: Strategy,
    options: Lowering,
) -> Program {
    let shape = root.shape();
    let (len, run) = match root.op() {
        Op::MergeRuns(run) | Op::SortRuns(run) => (shape[shape.len() - 2], *run),
        Op::ScanRuns(_, run) => (shape[shape.len() - 1], *run),
        _ => unreachable!("{root:?} has no template"),
    };
    Program {
        ins: Vec::new(),
        blocks: vec![Block::default()],
        outputs: Vec::new(),
        out_dtype: root.dtype(),
        numel: root.numel(),
        inputs: inputs.iter().map(|n| n.dtype()).collect(),
        vars: vec![VarKind::Group],
        strategy,
        out_block: Program::ROOT,
        out_index: Vec::new(),
        params: vec![len as u32, run as u32],
        addressed: addressed(root, inputs, options),
        in_place: false,
        var_params: Vec::new(),
        stashes: Vec::new(),
        vectors: 1,
        out_vectors: 1,
    }
}

/// [`lower`] with a tile's rows along output axis `tile_axis`, and `out_vectors` adjacent
/// vectors a store ([`Program::out_vectors`]; 2 only for a serial kernel of whole pairs).
fn lower_at(
    root: &Arc<Node>,
    inputs: &[Arc<Node>],
    strategy: Strategy,
    row_plan: bool,
    options: Lowering,
    tile_axis: usize,
    out_vectors: usize,
) -> Program {
    let input_ids: HashMap<u64, usize> = inputs
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id(), i))
        .collect();
    let numel = root.numel();
    let addressed = addressed(root, inputs, options);
    let address_words = 2 * addressed.iter().filter(|&&a| a).count();
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
            out_block: Program::ROOT,
            out_index: Vec::new(),
            params: Vec::new(),
            addressed,
            in_place: matches!(root.op(), Op::Assign),
            var_params: Vec::new(),
            stashes: Vec::new(),
            vectors: 1,
            out_vectors,
        },
        inputs: &input_ids,
        memo: HashMap::new(),
        cse: HashMap::new(),
        loops: HashMap::new(),
        markers: HashMap::new(),
        acc_loops: HashMap::new(),
        param_words: HashMap::new(),
        capacity: options.param_words.saturating_sub(address_words),
        generic_trips: options.generic_trips,
        wide_loads: options.wide_loads,
        var_words: HashMap::new(),
        stash_rows: row_plan && matches!(strategy, Strategy::Row { .. } | Strategy::Serial),
        row_threads: match strategy {
            Strategy::Row { threads, .. } => i64::from(threads.max(1)),
            _ => 1,
        },
        stashed: HashMap::new(),
        unstashed: std::collections::HashSet::new(),
        reduce_depth: HashMap::new(),
        steps: HashMap::new(),
    };
    // vars first: a replay rebinds them, so they may never fall back to literals
    l.place_vars(root);
    let groups = l.prog.groups() as i64;
    let group = Expr::var(0, (groups - 1).max(0));
    let exact_lanes = numel.is_multiple_of(LANES);
    // the first output of each stored vector: 4q; q*row + 4j for the j-th vector of row q;
    // or, for a tile, the same vectors of columns of `rows` consecutive rows
    // a tile's (outer, tile, first column) indices, rows and vectors a row: its outputs'
    // coordinates are formed from them directly, so an input that does not vary along the
    // tile's axis gets one index (one load) for all rows without the simplifier having to
    // see through a flat index
    let mut tiled: Option<(Expr, Expr, Expr, usize, i64)> = None;
    let (bases, out): (Vec<Expr>, Cursor) = match strategy {
        Strategy::Row { row, .. } => {
            let step = (LANES * out_vectors) as i64;
            let steps = row as i64 / step;
            let j = l.new_block(Cursor::end(Program::ROOT), steps, true, false);
            let (jvar, _) = l.prog.blocks[j].loop_var.expect("row loop");
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
            cols: width,
            threads,
        } => {
            // the rows are `rows` consecutive indices along `tile_axis`; a tile's columns are
            // `width` consecutive vectors of one index of that axis (every later axis, `inner`
            // elements), `runs` such runs in all
            let shape = root.shape();
            let m = shape[tile_axis] as i64;
            let inner: i64 = shape[tile_axis + 1..].iter().product::<usize>() as i64;
            let width = width as i64;
            let (runs, tiles) = (inner / (LANES as i64 * width), m / rows as i64);
            // a workgroup takes a block of tiles as square as its size allows (16 x 16 for
            // 256 invocations, 16 x 8 for 128) where they divide, so it reads a few tiles'
            // rows and columns of the inputs instead of a whole row (what it reads stays in
            // cache)
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
            tiled = Some((outer.clone(), tile.clone(), column.clone(), rows, width));
            let bases = (0..rows as i64 * width)
                .map(|k| {
                    outer
                        .scale(m * inner)
                        .add(&tile.scale(rows as i64 * inner))
                        .add(&column)
                        .add_const(k / width * inner + k % width * LANES as i64)
                })
                .collect();
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
    l.prog.out_block = out.block;
    let shape = root.shape();
    for (i, base) in bases.iter().enumerate() {
        l.prog.out_index.push(if exact_lanes {
            base.div(LANES as i64)
        } else {
            group.clone()
        });
        for lane in 0..LANES {
            let idx = match &tiled {
                Some((outer, tile, column, rows, width)) if exact_lanes => {
                    let (row, vector) = (i as i64 / width, i as i64 % width);
                    let mut idx = unflatten(outer, &shape[..tile_axis]);
                    idx.push(tile.scale(*rows as i64).add_const(row));
                    let column = column.add_const(vector * LANES as i64 + lane as i64);
                    idx.extend(unflatten(&column, &shape[tile_axis + 1..]));
                    idx
                }
                _ => {
                    let flat = if exact_lanes {
                        base.add_const(lane as i64)
                    } else {
                        let id = l.prog.vars.len() as u32;
                        l.prog.vars.push(VarKind::ClampedLane(lane));
                        Expr::var(id, numel as i64 - 1)
                    };
                    unflatten(&flat, shape)
                }
            };
            let v = l.lower_op(root, &idx, &Cond::always(), out);
            l.prog.outputs.push(v);
        }
    }
    if out_vectors > 1 {
        // vector indices 2g and 2g + 1 store as one wide store at g
        l.prog.out_index = l
            .prog
            .out_index
            .chunks(out_vectors)
            .map(|pair| {
                debug_assert!(multiple_of(&pair[0], out_vectors as i64), "{pair:?}");
                divided(&pair[0], out_vectors as i64)
            })
            .collect();
    }
    l.drop_unread_stashes();
    if exact_lanes {
        l.vectorize_loads();
    }
    l.prog
}

/// Workgroups an elementwise kernel keeps while its invocations take several vectors each:
/// enough to share out among a CPU's cores.
const MIN_WORKGROUPS: usize = 16;

/// The groups each invocation of `p` computes ([`Program::vectors`], [`Lowering::vectors`]
/// output vectors in all, so pairs take half as many steps): several for a kernel without
/// loops (elementwise work, which the setup of an invocation weighs on most;
/// lavapipe, 16M f32, the same shaders run in turn, medians: a copy 39 -> 34 ms with 4 vectors
/// an invocation, tg's exp 80 -> 50), where at least [`MIN_WORKGROUPS`] workgroups remain;
/// else one.
fn vectors_per_invocation(p: &Program, vectors: usize) -> usize {
    let steps = (vectors / p.out_vectors).max(1);
    if steps > 1 && loop_free(p) && p.groups() >= steps * SERIAL_THREADS as usize * MIN_WORKGROUPS {
        steps
    } else {
        1
    }
}

impl Lowerer<'_> {
    fn position(&self, block: BlockId, v: Val) -> Option<usize> {
        self.prog.blocks[block].ins.iter().position(|&x| x == v)
    }

    /// Can an instruction at cursor `c` use value `v` of the same block?
    fn usable(&self, c: Cursor, v: Val) -> bool {
        match c.before {
            None => true,
            Some(m) => match (self.position(c.block, v), self.position(c.block, m)) {
                (Some(pv), Some(pm)) => pv < pm,
                _ => false,
            },
        }
    }

    fn insert(&mut self, c: Cursor, v: Val) {
        let at = c.before.and_then(|m| self.position(c.block, m));
        let list = &mut self.prog.blocks[c.block].ins;
        match at {
            Some(i) => list.insert(i, v),
            None => list.push(v),
        }
    }

    fn emit(&mut self, c: Cursor, ins: Ins) -> Val {
        if let Some(&v) = self.cse.get(&(ins.clone(), c.block))
            && self.usable(c, v)
        {
            return v;
        }
        let v = self.prog.ins.len();
        self.prog.ins.push(ins.clone());
        self.insert(c, v);
        self.cse.insert((ins, c.block), v);
        v
    }

    /// Gives every var of the region a push-constant word, before any constant takes one.
    fn place_vars(&mut self, root: &Arc<Node>) {
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
    fn var(&mut self, c: Cursor, id: u64, dtype: DType) -> Val {
        let word = self.var_words[&(id, dtype)];
        let c = self.hoist(c, &[], &Cond::always());
        self.emit(c, Ins::Param { word, dtype })
    }

    /// A constant: a push-constant scalar while words are left, else a literal. Values as
    /// data keep a kernel's source independent of them, and keep compilers from folding
    /// arithmetic with them (llvmpipe folds `x * 0.0` to zero even for an infinite `x`).
    fn constant(&mut self, c: Cursor, value: Scalar, dtype: DType) -> Val {
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

    /// The outermost cursor enclosing `c` where a value over these indices can be computed:
    /// out of every loop whose variable it does not use, just before that loop.
    fn hoist(&self, mut c: Cursor, idx: &[Expr], valid: &Cond) -> Cursor {
        // a position read from data is computed at the cursor (or above it): the read
        // through it stays where it is
        let read = |id: u32| matches!(self.prog.vars[id as usize], VarKind::Value(_));
        if idx.iter().any(|e| e.uses_any(&read)) || valid.uses_any(&read) {
            return c;
        }
        loop {
            let b = &self.prog.blocks[c.block];
            let (Some((var, _)), Some(parent)) = (b.loop_var, b.parent) else {
                return c;
            };
            let steps = self.steps.get(&var).map_or(&[][..], |s| &s[..]);
            let uses = |id: u32| idx.iter().any(|e| e.uses_var(id)) || valid.uses_var(id);
            if uses(var) || steps.iter().any(|(s, _)| uses(*s)) {
                return c;
            }
            c = Cursor {
                block: parent,
                before: Some(self.markers[&c.block]),
            };
        }
    }

    /// `node`'s op at `idx` (when `valid`), emitted at `c`, without looking `node` up as an
    /// input or in the memo (the kernel's output is computed here, whatever else reads the
    /// same node). Iterative: a chain of 100,000 ops lowers on a small stack, and the work
    /// is linear in the region's size.
    fn lower_op(&mut self, node: &Arc<Node>, idx: &[Expr], valid: &Cond, c: Cursor) -> Val {
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
    fn run(&mut self, first: Task) -> Val {
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
    fn begin(&mut self, r: Request) -> Begun {
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

    fn begin_op(
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
            Op::SortRuns(_) | Op::MergeRuns(_) | Op::ScanRuns(..) => {
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
            Op::Reduce(op, axes) => {
                return self.begin_reduce(&node, *op, axes, &srcs[0], &idx, &valid, c, memo);
            }
            Op::Reshape => {
                let sidx = reshape_index(&idx, node.shape(), srcs[0].shape());
                (Step::Pass, vec![at(&srcs[0], sidx, &valid, c)])
            }
            Op::Expand => {
                let sidx: Vec<Expr> = idx
                    .iter()
                    .zip(srcs[0].shape())
                    .map(|(e, &s)| if s == 1 { Expr::constant(0) } else { e.clone() })
                    .collect();
                (Step::Pass, vec![at(&srcs[0], sidx, &valid, c)])
            }
            Op::Permute(perm) => {
                let mut sidx = vec![Expr::constant(0); perm.len()];
                for (i, &p) in perm.iter().enumerate() {
                    sidx[p] = idx[i].clone();
                }
                (Step::Pass, vec![at(&srcs[0], sidx, &valid, c)])
            }
            Op::Shrink(ranges) => {
                let sidx: Vec<Expr> = idx
                    .iter()
                    .zip(ranges)
                    .map(|(e, &(s, _))| e.add_const(s as i64))
                    .collect();
                (Step::Pass, vec![at(&srcs[0], sidx, &valid, c)])
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
                let mut inner = Cond::always();
                let mut sidx = Vec::with_capacity(idx.len());
                for ((e, &(before, _)), &n) in idx.iter().zip(pads).zip(srcs[0].shape()) {
                    let s = e.add_const(-(before as i64));
                    inner = inner.and_range(&s, 0, n as i64);
                    sidx.push(s);
                }
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
    fn finish(&mut self, f: &Finish, v: &[Val]) -> Val {
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
            Step::Reduce {
                op,
                body,
                src_dt,
                acc_dt,
                stash,
            } => {
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
        }
    }

    /// Gather `node` at `idx`, its position along its axis being `pos` (the index source's
    /// value): the position is checked against the axis, clamped into it as an index
    /// variable of its own ([`VarKind::Value`]), and the values are read there, 0 where the
    /// position was outside.
    fn gathered(
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

    /// Opens the loop of a reduction and requests its source at each unrolled step.
    #[allow(clippy::too_many_arguments)]
    fn begin_reduce(
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
        // Four consecutive reduction elements per iteration when the innermost reduced axis
        // allows: contiguous ones then load as one vector, and the loop runs a quarter as
        // often. Not over nested reductions, whose bodies would grow fourfold per level.
        // A tile's reduction over axes whose last is not a multiple of 4 (a convolution's
        // (channels, 3, 3)) unrolls too when the whole trip is: each step then gets a
        // variable of its own (`VarKind::Unrolled`), so an operand contiguous along the
        // reduction (the weights) still reads vectors.
        let tiled = matches!(self.prog.strategy, Strategy::Tile { .. });
        let whole = rshape.last().is_some_and(|&n| n % LANES == 0);
        // (a row kernel's reductions all reduce the same row, so those nested in another are
        // computed before its loop, not in it)
        // Eight where loads are wide and the axis allows, so a step reads two vectors of a
        // contiguous operand as one load; not in a tile, whose steps already read runs of
        // vectors (and whose body would double), and where invocations share a row only if
        // its loops take pairs (each keeps its steps' elements: a step must be the row's).
        let wide = self.wide_loads
            && !tiled
            && (self.row_threads == 1 || self.row_step() == 2 * LANES)
            && trip >= 4 * LANES
            && rshape.last().is_some_and(|&n| n % (2 * LANES) == 0);
        let unroll = if !(deps.is_empty() || self.stash_rows) {
            1
        } else if wide {
            2 * LANES
        } else if trip >= 2 * LANES && (whole || tiled && trip.is_multiple_of(LANES)) {
            LANES
        } else {
            1
        };
        let steps = (trip / unroll) as i64;
        let body = self.loop_block(c, steps, &deps);
        let (var, _) = self.prog.blocks[body].loop_var.expect("loop block");
        let bound = self.prog.blocks[body].bound;
        let requests = (0..unroll as i64)
            .map(|u| {
                let r = if whole {
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

    /// The `VarKind::Unrolled` variable of step `step` of `by` of loop counter `var` (of
    /// range `0..bound`), one per step and loop: every reduction in the loop shares it, so
    /// equal loads of different outputs stay one.
    fn step_var(&mut self, var: u32, bound: i64, by: i64, step: i64) -> u32 {
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

    /// Where a row kernel keeps sources of reductions ([`Lowerer::stash_rows`]): the order
    /// to evaluate `srcs` in, the most deeply nested reductions first (`None`: their own
    /// order).
    fn evaluation_order(&mut self, srcs: &[Request]) -> Option<Vec<usize>> {
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
    fn reduce_depth(&mut self, n: &Arc<Node>) -> usize {
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
    fn unstash(&mut self, node: &Arc<Node>, idx: &[Expr], valid: &Cond, c: Cursor) -> Option<Val> {
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

    /// The variable of `kind`: the program's, or a new one.
    fn var_of(&mut self, kind: VarKind) -> u32 {
        let vars = &mut self.prog.vars;
        match vars.iter().position(|k| *k == kind) {
            Some(id) => id as u32,
            None => {
                vars.push(kind);
                vars.len() as u32 - 1
            }
        }
    }

    /// Elements an iteration of a row kernel's loops takes ([`Program::store_elements`]).
    fn row_step(&self) -> usize {
        self.prog.store_elements()
    }

    /// Where element `element` of a row, read in loop `block`, is kept in its invocation's
    /// array: its position among the invocation's elements. With `t` invocations sharing
    /// the row, iteration `r` of a row loop takes elements `wr..wr + w` (`w` the
    /// [`Lowerer::row_step`]) and falls to invocation `lid = r mod t` as its round
    /// `r div t`: the element is kept at `w * round + element mod w`, written over the round
    /// and `lid` (so `wr + u` simplifies to `w * round + u`, an index the compiler can
    /// follow through the loop).
    fn stash_index(&mut self, element: &Expr, block: BlockId) -> Expr {
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
    fn owns(&self, block: BlockId, element: &Expr) -> bool {
        let top = self.top_loop(block);
        let Some((var, _)) = self.prog.blocks[top].loop_var else {
            return false;
        };
        let step = element.div(self.row_step() as i64);
        matches!(step.terms(), [(Atom::Var(v), 1)] if v.id == var && step.constant_part() == 0)
    }

    /// The loop at the top of the kernel that `block` runs in (`block` itself, or the root).
    fn top_loop(&self, block: BlockId) -> BlockId {
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
    fn runs_after(&self, block: BlockId, body: BlockId) -> bool {
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
    fn drop_unread_stashes(&mut self) {
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

    /// `parts` combined pairwise with the reduction's operator.
    fn fold(&mut self, op: ReduceOp, parts: &[Val], dt: DType, c: Cursor) -> Val {
        if let [v] = parts {
            return *v;
        }
        let (l, r) = parts.split_at(parts.len() / 2);
        let (a, b) = (self.fold(op, l, dt, c), self.fold(op, r, dt, c));
        self.emit(c, Ins::Binary(op.combine(dt), a, b, dt))
    }

    /// Reduction nodes inside the fused region below `n`.
    fn reductions_below(&self, n: &Arc<Node>) -> Vec<u64> {
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
    fn loop_block(&mut self, c: Cursor, trip: i64, deps: &[u64]) -> BlockId {
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
        let generic = self.generic_trips && !(self.stash_rows && c.block == Program::ROOT);
        self.new_block(c, trip, false, generic)
    }

    /// A loop block of `trip` iterations at `c`; with `generic`, its trip count is a push
    /// constant (while a word is left) and its variable's range the trip count's class.
    fn new_block(&mut self, c: Cursor, trip: i64, parallel: bool, generic: bool) -> BlockId {
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

    /// Replaces each run of `LANES` loads at consecutive, aligned indices by one vector load.
    fn vectorize_loads(&mut self) {
        // unrolled steps' variables stand for their loop counter's multiples again, so the
        // loads of consecutive steps show as consecutive indices
        let stepped = |e: &Expr| {
            self.steps
                .values()
                .flatten()
                .fold(e.clone(), |e, (id, step)| e.substitute(*id, step))
        };
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
                    by_index.insert((*buf, stepped(index), *dtype), pos);
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
                let index = stepped(&index);
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
                    vindex: divided(&index, LANES as i64),
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
        if self.wide_loads {
            for b in 0..self.prog.blocks.len() {
                self.pair_vectors(b);
            }
        }
    }

    /// Replaces each pair of vector loads of block `b` at indices `2m` and `2m + 1` (of
    /// elements of at most 32 bits) by one wide load at `m`: the first vector's lanes keep
    /// their numbers, the second's follow them.
    fn pair_vectors(&mut self, b: BlockId) {
        let list = self.prog.blocks[b].ins.clone();
        let mut at: HashMap<(usize, Expr, DType), usize> = HashMap::new();
        for (pos, &v) in list.iter().enumerate() {
            if let Ins::VecLoad {
                buf,
                vindex,
                dtype,
                vectors: 1,
            } = &self.prog.ins[v]
            {
                at.insert((*buf, vindex.clone(), *dtype), pos);
            }
        }
        // (wide load, its lanes' offset) for each vector load replaced
        let mut moved: HashMap<Val, (Val, usize)> = HashMap::new();
        let mut dropped = std::collections::HashSet::new();
        for (pos, &v) in list.iter().enumerate() {
            let Ins::VecLoad {
                buf,
                vindex,
                dtype,
                vectors: 1,
            } = self.prog.ins[v].clone()
            else {
                continue;
            };
            if dtype.size() > 4 || !multiple_of(&vindex, 2) {
                continue;
            }
            let Some(&next) = at.get(&(buf, vindex.add_const(1), dtype)) else {
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

/// Is every coefficient and the constant a multiple of `LANES`?
fn aligned(e: &Expr) -> bool {
    multiple_of(e, LANES as i64)
}

/// Is every coefficient and the constant a multiple of `k` (so is `e`, for every value)?
fn multiple_of(e: &Expr, k: i64) -> bool {
    e.constant_part() % k == 0 && e.terms().iter().all(|(_, c)| c % k == 0)
}

/// `e / k` for an `e` that is a [`multiple_of`] `k`, term by term.
fn divided(e: &Expr, k: i64) -> Expr {
    e.terms()
        .iter()
        .fold(Expr::constant(e.constant_part() / k), |acc, (a, c)| {
            acc.add(&atom_expr(a).scale(c / k))
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
