//! What the scheduler hands to codegen: a [`Kernel`] (the fused subgraph one dispatch
//! computes, its input buffers, and how invocations map to its outputs, [`Strategy`]), and the
//! facts both sides must agree on (outputs stored [`LANES`] at a time, buffers of whole
//! vectors, 32-bit indices, the flat index a reshape forms). The scheduler decides a kernel;
//! lowering obeys it; neither imports the other.

use std::ops::Range;
use std::sync::Arc;

use crate::dtype::DType;
use crate::graph::node::Node;
use crate::ops::{AttentionMask, AttentionPass, ReduceOp};

/// Output elements each invocation (or workgroup) computes; they are stored as one vector.
pub const LANES: usize = 4;

/// Invocations per workgroup of serial kernels.
pub const SERIAL_THREADS: u32 = 256;

/// One kernel: computes `body` into the buffer of `root`, reading `inputs`.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The node whose buffer the kernel writes.
    pub root: Arc<Node>,
    /// What the kernel evaluates; `root` itself unless the scheduler rewrote it (split
    /// reductions, trailing axes merged for tiles). Same dtype and elements in the same order
    /// as `root`; its shape may merge `root`'s trailing axes. Lowering indexes the output by
    /// this shape.
    pub body: Arc<Node>,
    /// The buffers it reads, by input index.
    pub inputs: Vec<Arc<Node>>,
    /// How invocations map to outputs.
    pub strategy: Strategy,
    /// The reduction this kernel computes a part of, when a split made it (the partial pass
    /// and the final pass both name it).
    pub split_of: Option<u64>,
    /// The kernel keeps reductions broadcast over rows inside itself (a row plan).
    pub row_plan: bool,
    /// Further roots the kernel writes, each into a buffer of its own, computed like `root`
    /// at the same output index (a multi-output kernel: the scheduler groups elementwise
    /// kernels of one shape and dtype, `schedule/multi.rs`, so an optimizer's update of m, v
    /// and the parameter, and the updates of many parameters of one shape, are one dispatch),
    /// or, in a [`Strategy::Row`] kernel, of one value a row, computed once a row at the row's
    /// index (a layer norm's mean and reciprocal deviation, `schedule/row_outputs.rs`). Each
    /// is its own body; a root here or `root` read by another is computed in registers, not
    /// loaded.
    pub also: Vec<Arc<Node>>,
}

impl Kernel {
    /// Every node the kernel writes: `root`, then `also`.
    pub fn roots(&self) -> impl Iterator<Item = &Arc<Node>> {
        std::iter::once(&self.root).chain(&self.also)
    }
}

/// How invocations map to outputs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Each invocation computes `LANES` outputs, looping over reductions alone.
    Serial,
    /// A workgroup of `threads` computes `LANES` outputs, splitting top-level reduction loops
    /// among its threads and combining with subgroup operations and shared memory.
    Cooperative {
        /// Invocations per workgroup.
        threads: u32,
    },
    /// A workgroup computes one row of `row` outputs (a multiple of `LANES`): reductions over
    /// the row run cooperatively once, then the threads share the row's outputs. This fuses
    /// a reduction with the elementwise ops that broadcast it back over its row (softmax,
    /// layernorm) into one kernel.
    Row {
        /// Invocations sharing one row, each taking the row's steps round-robin (a vector
        /// of [`LANES`], or a pair where stores pair: `Program::out_vectors`). 1: an
        /// invocation computes a whole row, with its reductions as plain loops (a CPU without
        /// subgroup arithmetic, whose rows keep its cores busy); at most a subgroup: the row
        /// combines with subgroup operations alone; more (a GPU, or a CPU's few long rows):
        /// through shared memory.
        threads: u32,
        /// Outputs per row.
        row: usize,
        /// Rows a workgroup takes (`threads * rows` invocations, consecutive invocations
        /// sharing a row): [`SERIAL_THREADS`] rows of one invocation; more than one row of
        /// several only where a row is exactly a subgroup (its combines never leave it).
        /// On lavapipe each workgroup costs its own setup (softmax (65536, 256) with 8 lanes
        /// a row, run in turn, fastest and median: 59 and 68 ms a workgroup a row, 52 and 58
        /// with 8 rows).
        rows: u32,
    },
    /// Each invocation computes `rows` rows of `cols * LANES` outputs: the same `cols`
    /// consecutive vectors of columns of `rows` consecutive indices of one output axis before
    /// the last (lowering picks the axis that leaves the fewest loads: a matmul's row axis, a
    /// convolution's output channels). Reductions of one trip count share one loop, so a
    /// value the rows have in common (a matmul's column of B, a convolution's input pixel) is
    /// loaded once for all of them, and a value the columns have in common (a matmul's row of
    /// A) once for all columns: register blocking, `rows * cols * LANES` accumulators for
    /// `rows + cols * LANES` values loaded a step. The shape, and how many invocations a
    /// workgroup has, depend on the device class (`target::ClassDefaults`) or a search (`tune`).
    Tile {
        /// Rows per invocation.
        rows: usize,
        /// Vectors of `LANES` columns per row (a power of two).
        cols: usize,
        /// Invocations per workgroup (a power of two): a workgroup takes a block of tiles
        /// that is as square as it can be, so what it reads of the inputs stays in cache.
        threads: u32,
    },
    /// A sort of runs ([`crate::graph::node::Op::SortRuns`]), from its template: each
    /// invocation sorts one run of `run` records of `words` words in its registers, by a
    /// sorting network.
    Sort {
        /// Words per record.
        words: usize,
        /// Records per run.
        run: usize,
    },
    /// A merge of sorted runs ([`crate::graph::node::Op::MergeRuns`]), from its template:
    /// each invocation writes `per` consecutive records of `words` words. It finds where the
    /// first one comes from by a binary search (up to 31 halvings, two records read each,
    /// most of them cache misses), then takes the rest one comparison each: more records per
    /// invocation spread the search thinner, fewer give more invocations (the device class
    /// decides, `target::ClassDefaults::merge`).
    Merge {
        /// Words per record.
        words: usize,
        /// Records per invocation.
        per: usize,
    },
    /// A scan of runs ([`crate::graph::node::Op::ScanRuns`]), from its template: each
    /// invocation scans one run. The row length and the run length are the first two
    /// `Program::params`.
    Scan {
        /// Add, Mul, or Max (of integers).
        op: ReduceOp,
    },
    /// A pass of a fused attention ([`crate::graph::node::Op::Attention`]), from its
    /// template: each invocation takes `rows` query rows of a head (forward, `GradQ`) or
    /// `rows` key rows (`GradKV`), its rows' widths unrolled, and loops over the keys (or the
    /// queries) once for all of them. The queries and the keys are the first two
    /// `Program::params`.
    Attention {
        /// Which pass.
        pass: AttentionPass,
        /// Which keys a query sees.
        mask: AttentionMask,
        /// The width of a query (and key) row.
        d: usize,
        /// The width of a value row.
        dv: usize,
        /// Rows an invocation takes, sharing each key's (or query's) loads.
        rows: usize,
        /// Dropout of the weights, their kept bits the last source.
        dropout: Option<crate::ops::AttentionDropout>,
    },
}

/// The lengths of `shape` but its axes of length 1: two shapes with equal ones hold the same
/// elements in the same order (a multi-output kernel's roots, `schedule/multi.rs`, index one
/// another's by carrying those axes' indices, `codegen/lower/index.rs`).
pub fn unit_free(shape: &[usize]) -> impl Iterator<Item = &usize> {
    shape.iter().filter(|&&n| n != 1)
}

/// The outputs one invocation of a tile of `rows` rows of `cols` vectors computes.
pub fn tile_outputs(rows: usize, cols: usize) -> usize {
    rows * cols * LANES
}

/// The output axes a tile of `rows` rows of `cols` vectors may run along, nearest the
/// columns first: every axis before the last one longer than 1 (the columns; trailing axes of
/// 1, kept by a reduction, change no layout) whose length `rows` divides and whose index
/// spans a whole number of runs of `cols` vectors (the axes after it, flattened: a run may
/// cross a row of the last axis, a vector may not). None when the columns are not whole
/// vectors of `LANES`.
pub fn tile_axes(shape: &[usize], rows: usize, cols: usize) -> Vec<usize> {
    let columns = shape.iter().rposition(|&d| d != 1).unwrap_or(0);
    if !shape.get(columns).is_some_and(|n| n.is_multiple_of(LANES)) {
        return Vec::new();
    }
    (0..columns)
        .rev()
        .filter(|&axis| {
            shape[axis].is_multiple_of(rows)
                && shape[axis + 1..]
                    .iter()
                    .product::<usize>()
                    .is_multiple_of(cols * LANES)
        })
        .collect()
}

/// Whether a workgroup combines accumulators of `d` with subgroup operations, where the
/// device has subgroup arithmetic: not booleans nor 64-bit values, which GLSL's subgroup
/// arithmetic takes only with extensions; those combine through shared memory.
pub fn subgroup_combines(d: DType) -> bool {
    !d.is_bool() && !d.is_64bit()
}

/// Bytes a buffer of `node` needs: kernels write whole vectors of four elements.
pub fn buffer_bytes(node: &Node) -> u64 {
    (node.numel().div_ceil(LANES) * LANES * node.dtype().size()) as u64
}

/// A window write ([`crate::graph::node::Op::AssignWindow`]) as its kernel covers it: over
/// the window, the value's rows, where its stores stay whole vectors. The target
/// `[outer, cap, inner]` (axes before the window's axis merged, and after it) takes the value
/// `[outer, len, inner]` at rows `start..start + len`; with `inner` a multiple of [`LANES`], a
/// stored vector lies within one row and starts at a multiple of four whatever `start` is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// The window's axis.
    pub axis: usize,
    /// Elements before the axis (the product of the axes before it).
    pub outer: usize,
    /// The value's rows.
    pub len: usize,
    /// The target's rows.
    pub cap: usize,
    /// Elements a row (the product of the axes after it).
    pub inner: usize,
}

/// The window a kernel whose root is `root` runs over, if it is a window write whose rows are
/// whole vectors. Any other window write runs over its whole target, each element keeping its
/// value outside the window (as an `assign` of a select would): correct for every shape, but
/// the size of the target.
pub fn window(root: &Node) -> Option<Window> {
    let crate::graph::node::Op::AssignWindow(axis) = *root.op() else {
        return None;
    };
    let (target, value) = (root.shape(), root.srcs()[1].shape().to_vec());
    let outer: usize = target[..axis].iter().product();
    let inner: usize = target[axis + 1..].iter().product();
    (inner.is_multiple_of(LANES) && inner > 0 && outer > 0 && value[axis] > 0).then_some(Window {
        axis,
        outer,
        len: value[axis],
        cap: target[axis],
        inner,
    })
}

/// The elements a kernel whose root is `root` computes: its root's, or its window's
/// ([`window`]).
pub fn domain_numel(root: &Node) -> usize {
    match window(root) {
        Some(w) => w.outer * w.len * w.inner,
        None => root.numel(),
    }
}

/// Elements one tensor may hold: kernels index with 32-bit signed integers.
pub const MAX_ELEMENTS: u64 = i32::MAX as u64;

/// How a reshape from `from` to `to` regroups the axes: runs of `from`'s axes against runs of
/// `to`'s with the same number of elements, in order (an axis of length 1 is a group of its
/// own against no axis of the other side). A reshape flattens and re-splits the index within
/// each group alone, so the flat indices it forms span `reshape_span` elements, not the
/// whole tensor (splitting the last axis of a `[n, n]` view forms indices below `n`, not
/// `n^2`; merging `[rows / 4, 4]` into rows leaves a block index beside them alone, where a
/// single flat index over both would need the block count as a bound). Shapes holding no
/// element are one group.
pub fn reshape_groups(from: &[usize], to: &[usize]) -> Vec<(Range<usize>, Range<usize>)> {
    let whole = || vec![(0..from.len(), 0..to.len())];
    if from.contains(&0) || to.contains(&0) {
        return whole();
    }
    let (mut i, mut j) = (0, 0);
    let mut groups = Vec::new();
    loop {
        if from.get(i) == Some(&1) {
            groups.push((i..i + 1, j..j));
            i += 1;
        } else if to.get(j) == Some(&1) {
            groups.push((i..i, j..j + 1));
            j += 1;
        } else if i == from.len() || j == to.len() {
            return if i == from.len() && j == to.len() {
                groups
            } else {
                whole()
            };
        } else {
            let (i0, j0) = (i, j);
            let (mut a, mut b) = (1usize, 1usize);
            loop {
                if a <= b {
                    let Some(&n) = from.get(i) else {
                        return whole();
                    };
                    a *= n;
                    i += 1;
                } else {
                    let Some(&n) = to.get(j) else { return whole() };
                    b *= n;
                    j += 1;
                }
                if a == b {
                    break;
                }
            }
            groups.push((i0..i, j0..j));
        }
    }
}

/// Elements of the largest flat index a reshape from `from` to `to` forms (see
/// `reshape_groups`).
pub fn reshape_span(from: &[usize], to: &[usize]) -> usize {
    reshape_groups(from, to)
        .into_iter()
        .map(|(f, _)| from[f].iter().product::<usize>())
        .max()
        .unwrap_or(1)
}
