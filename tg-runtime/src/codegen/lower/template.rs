//! Kernels from templates (a sort, a merge or a scan of runs, an attention's pass): no
//! instructions, only what the template reads from the push constants.

use std::sync::Arc;

use super::super::program::{Block, Program, VarKind};
use super::{addressed, texels};
use crate::graph::node::{Node, Op};
use crate::kernel::{SERIAL_THREADS, Strategy};
use crate::target::{Lowering, balanced_threads};

/// The program of a kernel from a template (a sort, a merge or a scan of runs, an
/// attention's pass): no instructions (the template is the whole body, `glsl::sort`,
/// `glsl::merge`, `glsl::scan`, `glsl::attention`), the row length (records or elements) and
/// the run length (an attention: its queries and keys) as push constants, so every level of a
/// merge sort, every scan stage and every row length is one shader (a sort's network is its
/// run's: its strategy holds the run; an attention's row widths are its strategy's).
pub(super) fn program(
    root: &Arc<Node>,
    inputs: &[Arc<Node>],
    strategy: Strategy,
    options: Lowering,
) -> Program {
    let shape = root.shape();
    let (len, run) = match root.op() {
        Op::MergeRuns(run) | Op::SortRuns(run) => (shape[shape.len() - 2], *run),
        Op::ScanRuns(_, run) => (shape[shape.len() - 1], *run),
        // the queries and the keys
        Op::Attention(..) => {
            let srcs = root.srcs();
            let rows = |n: &Arc<Node>| n.shape()[n.shape().len() - 2];
            (rows(&srcs[0]), rows(&srcs[1]))
        }
        _ => unreachable!("{root:?} has no template"),
    };
    let mut p = Program {
        ins: Vec::new(),
        blocks: vec![Block::default()],
        outputs: Vec::new(),
        more_outputs: Vec::new(),
        kept_where: Vec::new(),
        out_dtype: root.dtype(),
        numel: root.numel(),
        inputs: inputs.iter().map(|n| n.dtype()).collect(),
        vars: vec![VarKind::Group],
        strategy,
        out_block: Program::ROOT,
        out_index: Vec::new(),
        params: vec![len as u32, run as u32],
        addressed: addressed(root, inputs, options),
        texels: Vec::new(),
        in_place: false,
        var_params: Vec::new(),
        stashes: Vec::new(),
        serial_threads: SERIAL_THREADS,
        vectors: 1,
        out_vectors: 1,
        wide_loads: options.wide_loads,
    };
    p.texels = texels(inputs, options, &p.addressed, p.in_place);
    // an attention's invocations each loop over a row's keys (or queries): where they are few
    // (a decode step's query heads), workgroups small enough for every core to take one
    if let Strategy::Attention { .. } = strategy {
        p.serial_threads = balanced_threads(p.groups(), options.cores, SERIAL_THREADS);
    }
    p
}
