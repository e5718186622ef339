//! Lowers the fused subgraph of one kernel to a [`Program`]: movement ops become index
//! arithmetic, reductions become loops, and equal instructions are emitted once.
//!
//! Lowering is a list of passes over one program under construction, run in order
//! ([`PASSES`]):
//! - [`Pass::Outputs`] expands the graph at every output lane of the strategy's layout
//!   (`output.rs`), node by node through an explicit stack (`expand.rs`), each op family by
//!   its own rules: movement ops as index arithmetic (`index.rs`), reductions as loops with
//!   accumulators (`reduce.rs`), gathers at positions read from data (`gather.rs`), a row
//!   kernel's kept rows (`rows.rs`), scalars as push constants (`params.rs`);
//! - [`Pass::UnreadStashes`] drops the kept values nothing reads back (`rows.rs`);
//! - [`Pass::VectorLoads`] makes four loads at consecutive aligned indices one vector load,
//!   and [`Pass::PairedLoads`] two vector loads one wide load (`vectorize.rs`).
//!
//! What a kernel leaves open (the output axis a tile's rows run along, whether stores pair,
//! output vectors an invocation) is decided in one place, `heuristic.rs`, as [`Choices`]:
//! the passes only apply them. Kernels from templates (sorts, merges, scans) have a program of
//! parameters alone (`template.rs`).

mod expand;
mod gather;
mod heuristic;
mod index;
mod output;
mod params;
mod reduce;
mod rows;
mod template;
mod vectorize;
mod window;

use std::collections::HashMap;
use std::sync::Arc;

use super::program::{Block, BlockId, ConstBits, Ins, Program, Val, VarKind};
use super::symbolic::{Cond, Expr};
use crate::dtype::DType;
use crate::graph::node::Node;
use crate::kernel::{self, Kernel, LANES, SERIAL_THREADS, Strategy, buffer_bytes};
use crate::target::{Lowering, balanced_threads};
pub use heuristic::Choices;
pub use index::strides;
pub use params::param_words;
use rows::Stashed;

/// One pass of lowering ([`PASSES`] lists them in order).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    /// Computes the kernel's value at every output lane: the graph expanded at each lane's
    /// index, instructions emitted once per block (CSE) and hoisted out of loops whose
    /// variables they do not use.
    Outputs,
    /// Takes out the values a row kernel keeps that no instruction reads back (a layernorm
    /// keeps its squared deviations, but its output reads the deviations).
    UnreadStashes,
    /// Replaces each run of `LANES` loads at consecutive, aligned indices by one vector load
    /// (where the output is whole vectors).
    VectorLoads,
    /// Replaces each pair of vector loads at indices `2m` and `2m + 1` by one wide load, where
    /// the target loads pairs ([`Lowering::wide_loads`]).
    PairedLoads,
}

/// The passes of lowering, in the order they run.
pub const PASSES: [Pass; 4] = [
    Pass::Outputs,
    Pass::UnreadStashes,
    Pass::VectorLoads,
    Pass::PairedLoads,
];

impl Pass {
    /// The pass's name, for people.
    pub fn name(self) -> &'static str {
        match self {
            Pass::Outputs => "outputs",
            Pass::UnreadStashes => "unread stashes",
            Pass::VectorLoads => "vector loads",
            Pass::PairedLoads => "paired loads",
        }
    }

    fn run(self, l: &mut Lowerer, k: &Kernel, choices: &Choices) {
        let whole_vectors = l.prog.numel.is_multiple_of(LANES);
        match self {
            Pass::Outputs => l.outputs(&k.body, &k.also, choices.tile_axis),
            Pass::UnreadStashes => l.drop_unread_stashes(),
            Pass::VectorLoads if whole_vectors => l.vector_loads(),
            Pass::PairedLoads if whole_vectors && l.prog.wide_loads => l.paired_loads(),
            Pass::VectorLoads | Pass::PairedLoads => {}
        }
    }
}

/// Lowers kernel `k` for a target that allows `lowering`, with the choices the heuristic
/// makes (`heuristic.rs`): the program the kernel runs.
pub fn lower(k: &Kernel, lowering: Lowering) -> Program {
    heuristic::choose(k, lowering)
}

/// Lowers `k` with `choices` made and only `passes` run (in the order given): the seam that
/// the heuristic, a search and the passes' tests go through. [`PASSES`] in full, with the
/// choices [`lower`] would make, is [`lower`].
pub fn lower_with(k: &Kernel, lowering: Lowering, choices: Choices, passes: &[Pass]) -> Program {
    let root = &k.body;
    if let Strategy::Sort { .. }
    | Strategy::Merge { .. }
    | Strategy::Scan { .. }
    | Strategy::Attention { .. } = choices.strategy
    {
        return template::program(root, &k.inputs, choices.strategy, lowering);
    }
    let mut l = Lowerer::new(
        root,
        &k.inputs,
        choices.strategy,
        k.row_plan,
        lowering,
        choices.out_vectors,
    );
    l.deep = choices.unroll.max(1);
    for also in &k.also {
        l.place_vars(also);
    }
    l.prog.in_place |= !k.also.is_empty();
    for pass in passes {
        pass.run(&mut l, k, &choices);
    }
    let mut p = l.prog;
    p.vectors = choices.vectors;
    p.texels = texels(&k.inputs, lowering, &p.addressed, p.in_place);
    // (a kernel without loops is too short to wake another core for)
    if p.strategy == Strategy::Serial && p.blocks.iter().any(|b| b.loop_var.is_some()) {
        let invocations = p.groups().div_ceil(p.vectors.max(1));
        p.serial_threads = balanced_threads(invocations, lowering.cores, SERIAL_THREADS);
    }
    p
}

/// Per buffer (the output, then the inputs): whether the kernel reaches it by device address,
/// being larger than one binding's range.
fn addressed(root: &Arc<Node>, inputs: &[Arc<Node>], options: Lowering) -> Vec<bool> {
    std::iter::once(root)
        .chain(inputs)
        .map(|n| options.addresses && buffer_bytes(n) > options.bind_limit)
        .collect()
}

/// Per input: whether a kernel may read it through a uniform texel buffer
/// ([`Program::texels`]). A kernel writing in place reads nothing so: it may write what it
/// reads, which a texel view's reads need not see.
fn texels(
    inputs: &[Arc<Node>],
    options: Lowering,
    addressed: &[bool],
    in_place: bool,
) -> Vec<bool> {
    inputs
        .iter()
        .zip(addressed.iter().skip(1))
        .map(|(n, &by_address)| {
            !in_place
                && !by_address
                && n.dtype().size() <= 4
                && buffer_bytes(n) <= options.texel_bytes
                && !n.buffer().is_some_and(|b| b.is_external())
        })
        .collect()
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

struct Lowerer {
    prog: Program,
    inputs: HashMap<u64, usize>,
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
    /// [`Choices::unroll`]: how many usual steps a serial reduction loop takes an iteration.
    deep: usize,
}

impl Lowerer {
    /// A lowerer of `root`, computed from `inputs` (read from buffers), with every var of the
    /// region given its push-constant word.
    fn new(
        root: &Arc<Node>,
        inputs: &[Arc<Node>],
        strategy: Strategy,
        row_plan: bool,
        options: Lowering,
        out_vectors: usize,
    ) -> Lowerer {
        let input_ids: HashMap<u64, usize> = inputs
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id(), i))
            .collect();
        let numel = kernel::domain_numel(root);
        let addressed = addressed(root, inputs, options);
        let address_words = 2 * addressed.iter().filter(|&&a| a).count();
        let mut l = Lowerer {
            prog: Program {
                ins: Vec::new(),
                blocks: vec![Block::default()],
                outputs: Vec::new(),
                more_outputs: Vec::new(),
                kept_where: Vec::new(),
                out_dtype: root.dtype(),
                numel,
                inputs: inputs.iter().map(|n| n.dtype()).collect(),
                vars: vec![VarKind::Group],
                strategy,
                out_block: Program::ROOT,
                out_index: Vec::new(),
                params: Vec::new(),
                addressed,
                texels: Vec::new(), // once `in_place` is known
                in_place: root.op().writes_in_place(),
                var_params: Vec::new(),
                stashes: Vec::new(),
                serial_threads: SERIAL_THREADS,
                vectors: 1,
                out_vectors,
                wide_loads: options.wide_loads,
            },
            inputs: input_ids,
            memo: HashMap::new(),
            cse: HashMap::new(),
            loops: HashMap::new(),
            markers: HashMap::new(),
            acc_loops: HashMap::new(),
            param_words: HashMap::new(),
            capacity: options.param_words.saturating_sub(address_words),
            generic_trips: options.generic_trips,
            deep: 1,
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
        l
    }

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
}
