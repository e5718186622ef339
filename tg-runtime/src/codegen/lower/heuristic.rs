//! The choices lowering leaves open, made in one place: which output axis a tile's rows run
//! along, whether a kernel stores pairs of vectors, how many output vectors an invocation
//! computes, and how deeply a serial reduction loop unrolls. The passes apply [`Choices`];
//! this decides them from the kernel and what the target allows ([`Lowering`]), lowering
//! candidates where the answer depends on the program (the fewest loads). A tile's shape is
//! the device class's (`target::ClassDefaults`) or the tile search's (`tune`); both reach
//! lowering as the kernel's strategy, as these choices do through [`lower_with`].

use super::{PASSES, lower_with};
use crate::codegen::program::{Ins, Program};
use crate::codegen::symbolic::Atom;
use crate::kernel::{Kernel, LANES, SERIAL_THREADS, Strategy, tile_axes};
use crate::target::Lowering;

/// What lowering a kernel decides beyond its strategy.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Choices {
    /// The strategy lowered (the kernel's, or [`Strategy::Serial`] for a tile no output axis
    /// takes).
    pub strategy: Strategy,
    /// The output axis a [`Strategy::Tile`]'s rows run along (a [`tile_axes`] of the output).
    pub tile_axis: usize,
    /// Adjacent output vectors a store writes ([`Program::out_vectors`]): 1, or 2 where stores
    /// pair.
    pub out_vectors: usize,
    /// Output groups an invocation computes one after another ([`Program::vectors`]).
    pub vectors: usize,
    /// How many of its usual steps a serial kernel's reduction loop takes an iteration: 1, or
    /// 4 where an operand read in blocks (a quantized weight's scales) then loads less.
    pub unroll: usize,
}

impl Choices {
    /// `strategy` lowered plainly: the first tile axis, one vector a store and an invocation.
    pub fn plain(strategy: Strategy) -> Choices {
        Choices {
            strategy,
            tile_axis: 0,
            out_vectors: 1,
            vectors: 1,
            unroll: 1,
        }
    }
}

/// The deeper unrolling a serial kernel's reduction loop may take ([`Choices::unroll`]): four
/// of its steps an iteration (32 elements where loads pair, a block of Q8_0 or Q4_0).
const DEEP_UNROLL: usize = 4;

/// `k` lowered with the choices that suit it on a target allowing `lowering`.
///
/// A [`Strategy::Tile`] kernel may take its rows along any output axis before the last one
/// longer than 1 whose length the rows divide. Which one pays depends on which inputs vary
/// along it (a matmul's A varies along its row axis and not its columns; a convolution's
/// input does not vary along the output channels), so each candidate is lowered and the one
/// with the fewest loads kept: a value the rows share is one load, found by
/// common-subexpression elimination. Ties keep the axis nearest the columns.
///
/// Where loads pair ([`Lowering::wide_loads`]), a row kernel whose row is whole pairs takes
/// two vectors a step, and a kernel without loops is lowered again with two vectors a store
/// (kept if it still has no loops): its contiguous operands then read in pairs, and it stores
/// them as one.
///
/// A serial kernel whose loop loads a value at an index that steps once per several
/// iterations (a quantized weight's per-block scale) is lowered again with four steps an
/// iteration, and kept if an invocation then executes a quarter fewer loads or more: the
/// block's values are loaded once for its steps, and its packed words read as a run of
/// (wide) vectors.
pub(super) fn choose(k: &Kernel, lowering: Lowering) -> Program {
    let (root, strategy) = (&k.body, k.strategy);
    if let Strategy::Sort { .. }
    | Strategy::Merge { .. }
    | Strategy::Scan { .. }
    | Strategy::Attention { .. } = strategy
    {
        return lower_with(k, lowering, Choices::plain(strategy), &PASSES);
    }
    let at = |strategy, tile_axis, out_vectors| {
        let choices = Choices {
            strategy,
            tile_axis,
            out_vectors,
            vectors: 1,
            unroll: 1,
        };
        lower_with(k, lowering, choices, &PASSES)
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
            if lowering.wide_loads && root.dtype().size() <= 4 && row.is_multiple_of(2 * LANES) =>
        {
            at(strategy, 0, 2)
        }
        _ => at(strategy, 0, 1),
    };
    // a serial reduction whose operand is read in blocks (a quantized weight's scale, one per
    // block of 32, indexed by the loop counter divided by 4): unrolled deeper, the steps of
    // one block read the block's values once (common subexpressions of one iteration), and a
    // block's packed words as a run of vectors
    if strategy == Strategy::Serial && reads_blocks(&p) {
        let deep = lower_with(
            k,
            lowering,
            Choices {
                unroll: DEEP_UNROLL,
                ..Choices::plain(strategy)
            },
            &PASSES,
        );
        // (by a quarter at least: blocks of bytes, whose every weight is a load of its own,
        // save only their scales, and the four times longer body ran slower on lavapipe:
        // Q8_0's bytes 2.0-2.8 -> 3.7 ms)
        if 4 * executed_loads(&deep) <= 3 * executed_loads(&p) {
            p = deep;
        }
    }
    // a kernel without loops, lowered again with two vectors a group: its contiguous
    // operands then read in pairs, and it stores them as one (not a window's: its rows
    // may start at any vector)
    if lowering.wide_loads
        && crate::kernel::window(root).is_none()
        && loop_free(&p)
        && p.numel.is_multiple_of(2 * LANES)
        && p.out_dtype.size() <= 4
    {
        let paired = at(Strategy::Serial, 0, 2);
        if loop_free(&paired) {
            p = paired;
        }
    }
    p.vectors = vectors_per_invocation(&p, lowering.vectors);
    p
}

/// Whether a loop of `p` loads at an index that steps once per several of its iterations (a
/// block's scale: the loop counter divided by a constant), which a deeper unrolling loads
/// once for several steps. Only such kernels are lowered a second time to find out.
fn reads_blocks(p: &Program) -> bool {
    p.blocks.iter().any(|block| {
        let Some((var, _)) = block.loop_var else {
            return false;
        };
        block.ins.iter().any(|&v| {
            let index = match &p.ins[v] {
                Ins::Load { index, .. } => index,
                Ins::VecLoad { vindex, .. } => vindex,
                _ => return false,
            };
            index
                .terms()
                .iter()
                .any(|(atom, _)| matches!(atom, Atom::Div(e, _) if e.uses_var(var)))
        })
    })
}

/// The loads one invocation of `p` executes: each block's, times the trips of the loops
/// around it. A deeper unrolling that saves none (a plain reduction's run of vectors) is
/// not taken.
fn executed_loads(p: &Program) -> usize {
    p.blocks
        .iter()
        .enumerate()
        .map(|(b, block)| {
            let loads = block
                .ins
                .iter()
                .filter(|&&v| matches!(p.ins[v], Ins::Load { .. } | Ins::VecLoad { .. }))
                .count();
            let mut runs = 1usize;
            let mut at = Some(b);
            while let Some(x) = at {
                if let Some((_, trip)) = p.blocks[x].loop_var {
                    runs = runs.saturating_mul(trip.max(0) as usize);
                }
                at = p.blocks[x].parent;
            }
            loads.saturating_mul(runs)
        })
        .sum()
}

/// A [`Strategy::Serial`] program without loops or kept arrays: elementwise work, which
/// several groups an invocation and paired vectors speed up on CPU drivers.
fn loop_free(p: &Program) -> bool {
    p.strategy == Strategy::Serial
        && p.blocks.iter().all(|b| b.loop_var.is_none())
        && p.stashes.is_empty()
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
