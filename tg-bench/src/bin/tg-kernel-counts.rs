//! `cargo run --release --bin tg-kernel-counts`: how many kernels tg's scheduler makes of the
//! statistics, scan and sort ops, next to a naive schedule and tinygrad's.
//!
//! - tg: kernels dispatched by one realize of the op's outputs (inputs already on the
//!   device), and their summed GPU time on the selected device (median of 5 after warm-up).
//! - naive: one kernel per primitive reduction in the op's graph (elementwise producers fused
//!   into it), plus one per output that ends in elementwise work after its last reduction, plus,
//!   for sorting networks, one per compare-exchange step (tinygrad realizes each step with
//!   `contiguous()`). This is what a schedule does that never fuses across a reduction or a
//!   network step, and never fuses reductions into each other.
//! - tinygrad: `GlobalCounters.kernel_count` after realizing the same expression in tinygrad
//!   0.14.0 on its NULL device (the real scheduler, no compute), inputs realized first:
//!
//! ```text
//! from tinygrad import Tensor; from tinygrad.helpers import GlobalCounters
//! a, v, s = Tensor.empty(64, 1024).realize(), Tensor.empty(4096).realize(), Tensor.empty(1024).realize()
//! GlobalCounters.reset(); a.softmax(-1).realize(); print(GlobalCounters.kernel_count)   # DEV=NULL
//! ```

use tg::prelude::*;
use tg::runtime::graph::node::Op;
use tg::runtime::{Lazy, realize_report};

/// One measured op: its outputs, the extra network steps a naive schedule realizes, and
/// tinygrad's count.
struct Row {
    name: &'static str,
    outputs: Vec<DynTensor>,
    network_steps: usize,
    tinygrad: &'static str,
}

/// Reductions reachable from `outputs` that still need computing.
fn reductions(outputs: &[&Lazy]) -> usize {
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<Lazy> = outputs.iter().map(|l| (*l).clone()).collect();
    let mut count = 0;
    while let Some(n) = stack.pop() {
        if !seen.insert(n.id()) || n.is_realized() {
            continue;
        }
        if matches!(n.op(), Op::Reduce(..)) {
            count += 1;
        }
        stack.extend(n.srcs());
    }
    count
}

/// Whether an output has elementwise work after its last reduction (then it needs a kernel
/// of its own in a schedule that does not fuse a reduction into its consumers).
fn has_tail(out: &Lazy) -> bool {
    let mut n = out.clone();
    loop {
        match n.op() {
            Op::Reduce(..) => return false,
            op if op.is_movement() => n = n.srcs()[0].clone(),
            _ => return true,
        }
    }
}

fn naive(row: &Row) -> usize {
    let lazies: Vec<&Lazy> = row.outputs.iter().map(|t| t.lazy()).collect();
    reductions(&lazies) + lazies.iter().filter(|l| has_tail(l)).count() + row.network_steps
}

/// Kernels and GPU milliseconds of realizing `build()`'s outputs, after `warm` warm-up runs.
fn measure(build: &dyn Fn() -> Row) -> tg::Result<(usize, f64)> {
    let mut kernels = 0;
    let mut times = Vec::new();
    for i in 0..7 {
        let row = build();
        let lazies: Vec<&Lazy> = row.outputs.iter().map(|t| t.lazy()).collect();
        let report = realize_report(&lazies, true)?;
        kernels = report.kernels.len();
        if i >= 2 {
            let ns = report.kernel_ns.map(|k| k.iter().sum::<u64>()).unwrap_or(0);
            times.push(ns as f64 * 1e-6);
        }
    }
    times.sort_by(|a, b| a.total_cmp(b));
    Ok((kernels, times[times.len() / 2]))
}

fn input(shape: &[usize], seed: u32) -> tg::Result<DynTensor> {
    let n: usize = shape.iter().product();
    let data: Vec<f32> = (0..n)
        .map(|i| (((i as u32).wrapping_mul(2654435761) ^ seed) % 20011) as f32 * 1e-3 - 10.0)
        .collect();
    let t = DynTensor::from_slice(shape, &data)?;
    t.realize()?;
    Ok(t)
}

/// Compare-exchange steps of a bitonic network over `n` elements.
fn bitonic_steps(n: usize) -> usize {
    let s = (usize::BITS - (n - 1).leading_zeros()) as usize;
    s * (s + 1) / 2
}

fn main() -> tg::Result<()> {
    let dev = tg::runtime::device::Device::get()?;
    println!("device: {}", dev.info());
    let (rows, vec, line) = (
        input(&[64, 1024], 1)?,
        input(&[4096], 2)?,
        input(&[1024], 3)?,
    );
    let builds: Vec<Box<dyn Fn() -> Row>> = vec![
        Box::new(|| Row {
            name: "argmax [64,1024] axis -1",
            outputs: vec![ok(rows.argmax(Some(-1), false))],
            network_steps: 0,
            tinygrad: "2",
        }),
        Box::new(|| Row {
            name: "argmax [64,1024] whole",
            outputs: vec![ok(rows.argmax(None, false))],
            network_steps: 0,
            tinygrad: "3",
        }),
        Box::new(|| Row {
            name: "softmax [64,1024] axis -1",
            outputs: vec![ok(rows.softmax(-1, None))],
            network_steps: 0,
            tinygrad: "3",
        }),
        Box::new(|| Row {
            name: "log_softmax [64,1024] axis -1",
            outputs: vec![ok(rows.log_softmax(-1, None))],
            network_steps: 0,
            tinygrad: "3",
        }),
        Box::new(|| Row {
            name: "logsumexp [64,1024] axis -1",
            outputs: vec![ok(rows.logsumexp(Some(&[-1]), false))],
            network_steps: 0,
            tinygrad: "2",
        }),
        Box::new(|| Row {
            name: "var [64,1024] axis -1",
            outputs: vec![ok(rows.var(Some(&[-1]), false, 1.0))],
            network_steps: 0,
            tinygrad: "2",
        }),
        Box::new(|| Row {
            name: "cumsum [4096]",
            outputs: vec![ok(vec.cumsum(0))],
            network_steps: 0,
            tinygrad: "3",
        }),
        Box::new(|| {
            let (v, _) = ok(line.sort(0, false));
            Row {
                name: "sort [1024] values",
                outputs: vec![v],
                network_steps: bitonic_steps(1024),
                tinygrad: "64",
            }
        }),
        Box::new(|| {
            let (v, i) = ok(line.sort(0, false));
            Row {
                name: "sort [1024] values + indices",
                outputs: vec![v, i],
                network_steps: bitonic_steps(1024),
                tinygrad: "67",
            }
        }),
        Box::new(|| {
            let (v, i) = ok(line.topk(10, 0, true));
            Row {
                name: "topk [1024] k=10 values + indices",
                outputs: vec![v, i],
                network_steps: bitonic_steps(1024),
                tinygrad: "67",
            }
        }),
    ];
    println!("naive: one kernel per reduction, per output with elementwise work after its last");
    println!("reduction, and per sorting-network step; tinygrad: 0.14.0, NULL device scheduler.");
    println!(
        "| {:<34} | {:>10} | {:>7} | {:>8} | {:>12} |",
        "op", "tg kernels", "naive", "tinygrad", "tg GPU ms"
    );
    println!(
        "|{}|{}|{}|{}|{}|",
        "-".repeat(36),
        "-".repeat(12),
        "-".repeat(9),
        "-".repeat(10),
        "-".repeat(14)
    );
    for build in &builds {
        let row = build();
        let naive = naive(&row);
        let (kernels, ms) = measure(build.as_ref())?;
        println!(
            "| {:<34} | {:>10} | {:>7} | {:>8} | {:>12.3} |",
            row.name, kernels, naive, row.tinygrad, ms
        );
    }
    Ok(())
}

/// Unwraps an op result inside the row builders (their arguments are fixed and valid).
fn ok<T>(r: tg::Result<T>) -> T {
    r.unwrap_or_else(|e| panic!("{e}"))
}
