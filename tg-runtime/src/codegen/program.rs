//! A kernel lowered to straight-line instructions over scalar values, one copy per output lane,
//! with reductions as loops. The GLSL renderer prints it; nothing here knows GLSL.

use super::symbolic::{Cond, Expr};
use crate::dtype::{DType, Scalar};
pub use crate::kernel::Strategy;
use crate::kernel::{LANES, SERIAL_THREADS, tile_outputs};
use crate::ops::{AttentionPass, BinaryOp, ReduceOp, TernaryOp, UnaryOp};

/// Index of an instruction in `Program::ins`.
pub type Val = usize;
/// Index of a block in `Program::blocks`.
pub type BlockId = usize;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
/// One instruction of a program: produces one scalar value (or a vector, `VecLoad`).
pub enum Ins {
    /// A literal the code is written with (identities, padding zeros, constants that did not
    /// fit the push constants).
    Const(ConstBits, DType),
    /// A scalar read from the push constants, starting at word `word` of `Program::params`:
    /// the graph's constants are data, so a kernel that differs from another only in their
    /// values is the same shader.
    Param {
        /// The first push-constant word of the value.
        word: usize,
        /// Its dtype.
        dtype: DType,
    },
    /// Element `index` of input buffer `buf` when `valid`, else zero.
    Load {
        /// The input buffer.
        buf: usize,
        /// The element index.
        index: Expr,
        /// When it is false, the value is zero and memory is not read.
        valid: Cond,
        /// The element's dtype.
        dtype: DType,
    },
    /// `LANES * vectors` consecutive elements starting at `LANES * vectors * vindex`: one
    /// vector, or two read as one wide load (`target::Lowering::wide_loads`); zeros where
    /// `valid` is false (a padded window's row above the image: its lanes leave the image
    /// together).
    VecLoad {
        /// The input buffer.
        buf: usize,
        /// The load's index, in units of its `LANES * vectors` elements.
        vindex: Expr,
        /// When it is false, every lane is zero and memory is not read.
        valid: Cond,
        /// The elements' dtype.
        dtype: DType,
        /// Vectors read at once: 1, or 2 for a wide load.
        vectors: usize,
    },
    /// Lane `lane` of a `VecLoad`.
    Extract {
        /// The `VecLoad`.
        vec: Val,
        /// The lane, `0..LANES * vectors`.
        lane: usize,
        /// The element's dtype.
        dtype: DType,
    },
    /// A validity condition as a bool value.
    Cond(Cond),
    /// A unary op of the operand's dtype.
    Unary(UnaryOp, Val, DType),
    /// A binary op of the operands' dtype (comparisons give bool).
    Binary(BinaryOp, Val, Val, DType),
    /// Operand dtype, result dtype.
    Ternary(TernaryOp, Val, Val, Val, DType),
    /// A conversion with tg's cast semantics.
    Cast {
        /// The value.
        src: Val,
        /// Its dtype.
        from: DType,
        /// The target dtype.
        to: DType,
    },
    /// The same bits as another dtype of one size.
    Bitcast {
        /// The value.
        src: Val,
        /// Its dtype.
        from: DType,
        /// The target dtype.
        to: DType,
    },
    /// Final value of accumulator `acc` of loop block `block`.
    AccResult {
        /// The loop block.
        block: BlockId,
        /// The accumulator's index in the block.
        acc: usize,
        /// The accumulator's dtype.
        dtype: DType,
    },
    /// Marks where loop `block` runs inside its parent.
    Loop(BlockId),
    /// Keeps `value` as element `index` of the invocation's array `slot`
    /// ([`Program::stashes`]): a row reduction's source values, which the row's later loops
    /// read back ([`Ins::Unstash`]) instead of computing or loading them again (softmax's
    /// exponentials, layernorm's row). Produces no value.
    Stash {
        /// The array.
        slot: usize,
        /// The element, `0..` the array's length.
        index: Expr,
        /// What to keep.
        value: Val,
    },
    /// Element `index` of the invocation's array `slot`, kept by an [`Ins::Stash`] that ran
    /// before.
    Unstash {
        /// The array.
        slot: usize,
        /// The element.
        index: Expr,
        /// Its dtype.
        dtype: DType,
    },
}

/// A scalar with bitwise equality, so instructions can be hashed for CSE.
#[derive(Copy, Clone, Debug)]
pub struct ConstBits(pub Scalar);

impl PartialEq for ConstBits {
    fn eq(&self, o: &Self) -> bool {
        self.0.key_bits() == o.0.key_bits()
            && std::mem::discriminant(&self.0) == std::mem::discriminant(&o.0)
    }
}
impl Eq for ConstBits {}
impl std::hash::Hash for ConstBits {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.key_bits().hash(h)
    }
}

impl Ins {
    /// The dtype of the value the instruction produces.
    pub fn dtype(&self) -> DType {
        match self {
            Ins::Const(_, d)
            | Ins::Param { dtype: d, .. }
            | Ins::Load { dtype: d, .. }
            | Ins::VecLoad { dtype: d, .. }
            | Ins::Extract { dtype: d, .. }
            | Ins::Unary(_, _, d)
            | Ins::AccResult { dtype: d, .. }
            | Ins::Unstash { dtype: d, .. } => *d,
            Ins::Binary(op, _, _, d) => {
                if op.is_comparison() {
                    DType::Bool
                } else {
                    *d
                }
            }
            Ins::Ternary(_, _, _, _, d) => *d,
            Ins::Cast { to, .. } | Ins::Bitcast { to, .. } => *to,
            Ins::Cond(_) | Ins::Loop(_) | Ins::Stash { .. } => DType::Bool,
        }
    }
}

/// An accumulator of a loop block.
#[derive(Clone, Debug)]
pub struct Acc {
    /// How values are combined.
    pub op: ReduceOp,
    /// The dtype accumulated in.
    pub dtype: DType,
    /// Value folded in each iteration; lives in the loop's block.
    pub value: Val,
}

/// A straight-line list of instructions; loop blocks repeat theirs over a loop variable.
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// The instructions, in order.
    pub ins: Vec<Val>,
    /// The enclosing block (`None` for the root).
    pub parent: Option<BlockId>,
    /// For loops: the variable id and trip count.
    pub loop_var: Option<(u32, i64)>,
    /// For loops whose trip count the kernel reads from its push constants: that word. The
    /// loop variable's range is then `bound`, a class the trip count falls in, so kernels
    /// that differ only in a reduction's length share a shader.
    pub trip_word: Option<usize>,
    /// For loops: the upper bound of the loop variable the index arithmetic assumes (the
    /// trip count, or its class with `trip_word`).
    pub bound: i64,
    /// The accumulators a loop folds into.
    pub accs: Vec<Acc>,
    /// A loop over the outputs of a row, split among the threads of the workgroup.
    pub parallel: bool,
}

/// Where a variable's value comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// The output group: invocation (serial) or workgroup (cooperative) index.
    Group,
    /// `min(LANES * group + lane, n - 1)`: an output index clamped into range.
    ClampedLane(usize),
    /// A loop counter.
    Loop,
    /// `by * var + step`: one unrolled step of a reduction loop (`var` its counter), as a
    /// variable of its own, so index simplification sees the reduction's flat index whole
    /// (a convolution's weight index recombines into it where `4 * r + 1` split over
    /// (channels, 3, 3) would not).
    Unrolled {
        /// The loop counter.
        var: u32,
        /// The unroll factor.
        by: i64,
        /// This step.
        step: i64,
    },
    /// The round of loop `var` that its invocation runs: `var div threads`, where the loop's
    /// iterations are shared round-robin among a workgroup's `threads` invocations (its
    /// counter is `lid + threads * round`). A row's kept values are indexed by it.
    Round {
        /// The loop counter.
        var: u32,
    },
    /// The invocation's index in its workgroup, where invocations share a row.
    Lid,
    /// A position read from data (a gather's): the i32 instruction `Val`, already in the
    /// variable's range. A load indexed with it stays in the block that computes it.
    Value(Val),
}

/// A further output of a multi-output kernel ([`Program::more_outputs`]).
#[derive(Clone, Debug)]
pub struct MoreOutput {
    /// Where its values are stored.
    pub at: OutputAt,
    /// The values: per output lane as [`Program::outputs`] ([`OutputAt::Lanes`]), or the
    /// one value of the invocation's row ([`OutputAt::Row`]).
    pub values: Vec<Val>,
}

/// Where a further output of a multi-output kernel is stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OutputAt {
    /// At the output's lanes and [`Program::out_index`], in vectors, as the first output.
    Lanes,
    /// One value per row of a [`Strategy::Row`] kernel, at the row's index, by the row's
    /// first invocation after the row's loops: a per-row value the row computes anyway (a
    /// layer norm's mean and reciprocal deviation, which its backward reads, beside the
    /// normalized rows).
    Row,
}

/// A lowered kernel.
#[derive(Clone, Debug)]
pub struct Program {
    /// Every instruction; blocks refer to them by index.
    pub ins: Vec<Ins>,
    /// The blocks; `Program::ROOT` first.
    pub blocks: Vec<Block>,
    /// Per output lane, the value to store: `LANES` per stored vector, vector after vector.
    pub outputs: Vec<Val>,
    /// A multi-output kernel's further outputs (`Kernel::also`), in order, each of the
    /// output's dtype and stored to a binding of its own after the first.
    pub more_outputs: Vec<MoreOutput>,
    /// Per output lane of `outputs` (then of each of `more_outputs`), where the lane is an
    /// in-place write that keeps its target's value wherever a condition fails
    /// (`assign(where(c, x, target))`): the condition and `x`. A store whose lanes all have
    /// the same condition is made only where it holds, storing the `x`s, so the target's
    /// other elements are neither read nor written (a KV cache's write of one row a token
    /// touches that row alone; the select and its loads are left unused, for the shader
    /// compiler to drop).
    pub kept_where: Vec<Vec<Option<(Val, Val)>>>,
    /// The output's dtype.
    pub out_dtype: DType,
    /// Number of output elements.
    pub numel: usize,
    /// Groups each invocation computes, one after another (`target::Lowering::vectors`; 1 but
    /// for kernels without loops on CPU drivers). The push constants are read once, before
    /// them.
    pub vectors: usize,
    /// Vectors each store writes: 1, or 2 (eight elements of at most 32 bits, as one wide
    /// store; `target::Lowering::wide_loads`), where a [`Strategy::Serial`] group computes two
    /// adjacent vectors. `out_index` counts in these units, and `outputs` has
    /// `LANES * out_vectors` values a store.
    pub out_vectors: usize,
    /// The target reads two adjacent vectors as one load (`target::Lowering::wide_loads`):
    /// lowering pairs its vector loads itself (`Ins::VecLoad`'s `vectors`), a template reads
    /// its rows of whole pairs so (`glsl::attention`).
    pub wide_loads: bool,
    /// Dtypes of the input buffers, by input index.
    pub inputs: Vec<DType>,
    /// The index variables, by id.
    pub vars: Vec<VarKind>,
    /// How invocations map to outputs.
    pub strategy: Strategy,
    /// The block that stores the outputs.
    pub out_block: BlockId,
    /// The vector index of each store.
    pub out_index: Vec<Expr>,
    /// Push-constant words after the element count and buffer addresses: the values of
    /// `Ins::Param` scalars and of loop trip counts. The shader's source depends only on how
    /// many there are.
    pub params: Vec<u32>,
    /// Per buffer (0 the output, `i + 1` input `i`): reached by device address rather than a
    /// descriptor, because it is larger than one binding's range.
    pub addressed: Vec<bool>,
    /// Per input: it may be read through a uniform texel buffer (`target::Lowering::
    /// texel_bytes`), a renderer that reads texels choosing to. Only inputs a kernel cannot
    /// also write, of tg's own buffers (an application's lacks the usage), of at most 32-bit
    /// elements and that fit one texel view.
    pub texels: Vec<bool>,
    /// The kernel writes into a buffer it also reads (an in-place assign), so no binding may
    /// promise the compiler that it is the only way to its memory (`restrict`).
    pub in_place: bool,
    /// The graph's vars (`Op::Var`) the kernel reads: (var id, first word in `params`,
    /// dtype). A replay rebinding a var rewrites those words.
    pub var_params: Vec<(u64, usize, DType)>,
    /// The invocation's arrays for [`Ins::Stash`], by slot: (dtype, length).
    pub stashes: Vec<(DType, usize)>,
    /// Invocations per workgroup of a [`Strategy::Serial`] kernel: [`SERIAL_THREADS`], or
    /// for a kernel with loops, fewer where a CPU's cores would not each get a workgroup
    /// ([`crate::target::balanced_threads`]; a kernel without loops is over before another
    /// core would wake for it).
    pub serial_threads: u32,
}

impl Program {
    /// The block every program starts in.
    pub const ROOT: BlockId = 0;

    /// Whether input `input` may be read through a uniform texel buffer ([`Program::texels`]).
    pub fn reads_texels(&self, input: usize) -> bool {
        self.texels.get(input).copied().unwrap_or(false)
    }

    /// Whether the kernel keeps part of a row in an array ([`Ins::Stash`]) that a later loop
    /// reads back (a stash no one reads has length 0).
    pub fn keeps_rows(&self) -> bool {
        self.stashes.iter().any(|s| s.1 > 0)
    }

    /// The largest absolute value of any integer arithmetic the kernel does on indices:
    /// loads and their validity conditions, vector loads, conditions, the store and the
    /// clamped lanes. Kernels compute indices in 32-bit signed integers, so it must fit in
    /// `i32` (the scheduler's size checks see to it; this is the proof).
    pub fn index_magnitude(&self) -> i128 {
        let lanes = LANES as i128;
        let mut m = self
            .out_index
            .iter()
            .map(|e| e.scaled_magnitude(lanes * self.out_vectors as i128))
            .max()
            .unwrap_or(0);
        m = m.max(self.numel as i128);
        for ins in &self.ins {
            let here = match ins {
                Ins::Load { index, valid, .. } => index.magnitude().max(valid.magnitude()),
                Ins::VecLoad {
                    vindex,
                    vectors,
                    valid,
                    ..
                } => vindex
                    .scaled_magnitude(lanes * *vectors as i128)
                    .max(valid.magnitude()),
                Ins::Stash { index, .. } | Ins::Unstash { index, .. } => index.magnitude(),
                Ins::Cond(c) => c.magnitude(),
                _ => 0,
            };
            m = m.max(here);
        }
        m
    }

    /// Loads from input buffers (scalar and vector), the figure a tile's axis minimises.
    pub fn loads(&self) -> usize {
        self.ins
            .iter()
            .filter(|i| matches!(i, Ins::Load { .. } | Ins::VecLoad { .. }))
            .count()
    }

    /// Elements each store writes: [`LANES`] times [`Program::out_vectors`]. Also a serial
    /// group's outputs and the step of a row kernel's loops (each iteration takes a store's
    /// worth of the row, and invocations sharing the row keep arrays of rows of this width).
    pub fn store_elements(&self) -> usize {
        LANES * self.out_vectors
    }

    /// Invocations per workgroup.
    pub fn threads(&self) -> u32 {
        match self.strategy {
            Strategy::Serial | Strategy::Attention { .. } => self.serial_threads,
            Strategy::Sort { .. } | Strategy::Merge { .. } | Strategy::Scan { .. } => {
                SERIAL_THREADS
            }
            Strategy::Row { threads, rows, .. } => threads * rows,
            Strategy::Tile { threads, .. } | Strategy::Cooperative { threads } => threads,
        }
    }

    /// Whether a workgroup's invocations share output groups (cooperative, and rows split
    /// among threads): its top-level loops are split among them and combined.
    pub fn shares_groups(&self) -> bool {
        match self.strategy {
            Strategy::Serial
            | Strategy::Tile { .. }
            | Strategy::Row { threads: 1, .. }
            | Strategy::Sort { .. }
            | Strategy::Merge { .. }
            | Strategy::Scan { .. }
            | Strategy::Attention { .. } => false,
            Strategy::Cooperative { .. } | Strategy::Row { .. } => true,
        }
    }

    /// Workgroups a dispatch runs: one per group for strategies that give a workgroup a
    /// group, else enough to give every group an invocation.
    pub fn workgroups(&self) -> u64 {
        let groups = self.groups() as u64;
        if let Strategy::Row { rows, .. } = self.strategy {
            groups.div_ceil(u64::from(rows))
        } else if self.shares_groups() {
            groups
        } else {
            groups.div_ceil(u64::from(self.threads()) * self.vectors.max(1) as u64)
        }
    }

    /// Output groups: invocations (serial), workgroups (cooperative) or rows (row).
    pub fn groups(&self) -> usize {
        match self.strategy {
            Strategy::Row { row, .. } => self.numel / row,
            Strategy::Tile { rows, cols, .. } => self.numel / tile_outputs(rows, cols),
            Strategy::Merge { words, per } => (self.numel / words).div_ceil(per),
            Strategy::Sort { words, run } => {
                let len = self.params[0] as usize;
                self.numel / words / len * len.div_ceil(run)
            }
            Strategy::Scan { .. } => {
                let (len, run) = (self.params[0] as usize, self.params[1] as usize);
                self.numel / len * len.div_ceil(run)
            }
            // one invocation a block of `rows` rows of a head's output
            Strategy::Attention {
                pass, d, dv, rows, ..
            } => {
                let (lq, ls) = (self.params[0] as usize, self.params[1] as usize);
                let (width, length) = match pass {
                    AttentionPass::Forward => (dv + 1, lq),
                    AttentionPass::GradQ { .. } => (d + 1, lq),
                    AttentionPass::GradKV => (d + dv, ls),
                };
                self.numel / width / length * length.div_ceil(rows)
            }
            _ => self.numel.div_ceil(self.store_elements()),
        }
    }
}
