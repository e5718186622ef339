//! The scheduler: decides which nodes of a graph get buffers of their own and groups the rest
//! into kernels.
//!
//! Everything fuses by default: elementwise ops into their consumers, producers into the
//! reductions that consume them, and reductions into the elementwise ops after them. A node
//! gets its own buffer only when it is a target, marked `contiguous`, or a reduction whose
//! fusion would compute it more than once per element (consumed through a broadcast, inside
//! another reduction, or by two kernels).

mod fanout;
mod rows;
mod split;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::codegen::program::{LANES, Strategy};
use crate::graph::node::{Node, Op};

/// One kernel: computes `body` into the buffer of `root`, reading `inputs`.
#[derive(Clone, Debug)]
pub struct Kernel {
    pub root: Arc<Node>,
    /// What the kernel evaluates; `root` itself unless the scheduler rewrote it (split
    /// reductions). Same shape and dtype as `root`.
    pub body: Arc<Node>,
    pub inputs: Vec<Arc<Node>>,
    pub strategy: Strategy,
}

/// Everything one realize does, in order.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    /// Buffer nodes whose host data must be uploaded first.
    pub uploads: Vec<Arc<Node>>,
    /// Nodes that take the buffer of another node without computing (node, buffer owner).
    pub aliases: Vec<(Arc<Node>, Arc<Node>)>,
    /// Nodes with no elements: they get an empty buffer and no kernel.
    pub empty: Vec<Arc<Node>>,
    pub kernels: Vec<Kernel>,
}

/// Threads of a cooperative workgroup.
pub const COOP_THREADS: u32 = 64;

/// Nodes reachable from `targets` that still need computing, sources before users.
fn toposort(targets: &[Arc<Node>]) -> Vec<Arc<Node>> {
    let mut order = Vec::new();
    let mut seen = HashSet::new();
    let mut stack: Vec<(Arc<Node>, bool)> =
        targets.iter().rev().map(|t| (t.clone(), false)).collect();
    while let Some((n, expanded)) = stack.pop() {
        if expanded {
            order.push(n);
            continue;
        }
        if !seen.insert(n.id()) {
            continue;
        }
        let srcs = if n.is_realized() {
            Vec::new()
        } else {
            n.srcs_pinned()
        };
        stack.push((n, true));
        for s in srcs.into_iter().rev() {
            if !seen.contains(&s.id()) {
                stack.push((s, false));
            }
        }
    }
    order
}

fn is_boundary(n: &Node, realize: &HashSet<u64>) -> bool {
    n.is_realized() || matches!(n.op(), Op::Buffer) || realize.contains(&n.id())
}

/// Walks the fused region of `root`, calling `visit(node, evaluations)` on each node inside it
/// and `input(node)` on each boundary node it reads. `evaluations` counts how often the node
/// is evaluated per kernel run.
fn walk_region(
    root: &Arc<Node>,
    realize: &HashSet<u64>,
    visit: &mut dyn FnMut(&Arc<Node>, u128),
    input: &mut dyn FnMut(&Arc<Node>),
) {
    let mut seen: HashMap<u64, u128> = HashMap::new();
    let mut stack = vec![(root.clone(), root.numel().max(1) as u128, true)];
    while let Some((n, evals, is_root)) = stack.pop() {
        if !is_root && is_boundary(&n, realize) {
            input(&n);
            continue;
        }
        // revisit only if reached with more evaluations than before
        if seen.get(&n.id()).is_some_and(|&e| e >= evals) {
            continue;
        }
        seen.insert(n.id(), evals);
        if !is_root {
            visit(&n, evals);
        }
        let inner = match n.op() {
            Op::Reduce(_, axes) => {
                let src = &n.srcs()[0];
                evals
                    * axes
                        .iter()
                        .map(|&a| src.shape()[a] as u128)
                        .product::<u128>()
                        .max(1)
            }
            _ => evals,
        };
        for s in n.srcs() {
            stack.push((s, inner, false));
        }
    }
}

/// Plans the kernels that realize `targets`.
pub fn schedule(targets: &[Arc<Node>]) -> Schedule {
    let order = toposort(targets);
    let mut sched = Schedule::default();
    let mut realize: HashSet<u64> = HashSet::new();
    for n in &order {
        if n.is_realized() {
            continue;
        }
        match n.op() {
            Op::Buffer if n.pending_host().is_some() => sched.uploads.push(n.clone()),
            Op::Contiguous => {
                realize.insert(n.id());
            }
            _ => {}
        }
    }
    for t in targets {
        if !t.is_realized() && !matches!(t.op(), Op::Buffer) {
            realize.insert(t.id());
        }
    }

    // Grow the set until no reduction would be computed more than once per element (except
    // reductions that a row kernel computes once per row) and no value along too many paths.
    let mut rows: HashMap<u64, rows::RowPlan> = HashMap::new();
    loop {
        let mut add = Vec::new();
        let mut owner: HashMap<u64, u64> = HashMap::new();
        rows.clear();
        for root in order.iter().filter(|n| realize.contains(&n.id())) {
            let mut broadcast: Vec<Arc<Node>> = Vec::new();
            walk_region(
                root,
                &realize,
                &mut |n, evals| {
                    if matches!(n.op(), Op::Reduce(..)) {
                        let twice = *owner.entry(n.id()).or_insert(root.id()) != root.id();
                        if twice {
                            add.push(n.id());
                        } else if evals > n.numel() as u128
                            && !broadcast.iter().any(|b| b.id() == n.id())
                        {
                            broadcast.push(n.clone());
                        }
                    }
                },
                &mut |_| {},
            );
            match rows::row_split(root, &realize, &broadcast) {
                Some(row) => {
                    rows.insert(root.id(), row);
                }
                None => add.extend(broadcast.iter().map(|n| n.id())),
            }
        }
        // values read through too many views: outputs first, each seeing the cuts above it
        let roots: Vec<Arc<Node>> = order
            .iter()
            .rev()
            .filter(|n| realize.contains(&n.id()))
            .cloned()
            .collect();
        let cut = fanout::cut_all(roots, &mut realize);
        if add.is_empty() && !cut {
            break;
        }
        realize.extend(add);
    }

    let to_compute: Vec<Arc<Node>> = order
        .iter()
        .filter(|n| realize.contains(&n.id()))
        .cloned()
        .collect();
    for n in &to_compute {
        if n.numel() == 0 {
            sched.empty.push(n.clone());
            continue;
        }
        if let Op::Contiguous = n.op() {
            let src = &n.srcs()[0];
            if src.is_realized() || matches!(src.op(), Op::Buffer) {
                sched.aliases.push((n.clone(), src.clone()));
                continue;
            }
        }
        // a row plan keeps its reductions inside one kernel; splitting would scatter them
        let parts = if rows.contains_key(&n.id()) {
            vec![(n.clone(), n.clone())]
        } else {
            split::split_reduce(n)
        };
        realize.extend(parts.iter().map(|(root, _)| root.id()));
        for (root, body) in parts {
            let mut k = plan_kernel(root, body, &realize);
            match rows.get(&k.root.id()) {
                Some(rows::RowPlan::Row(row)) => {
                    k.strategy = Strategy::Row {
                        threads: COOP_THREADS,
                        row: *row,
                    };
                }
                Some(rows::RowPlan::Reduce) => {
                    k.strategy = Strategy::Cooperative {
                        threads: COOP_THREADS,
                    }
                }
                None => {}
            }
            sched.kernels.push(k);
        }
    }
    sched
}

/// Gathers the inputs of one kernel and picks how it maps onto the device.
fn plan_kernel(root: Arc<Node>, body: Arc<Node>, realize: &HashSet<u64>) -> Kernel {
    let mut realize = realize.clone();
    realize.remove(&root.id());
    let mut inputs: Vec<Arc<Node>> = Vec::new();
    let mut max_trip = 0usize;
    walk_region(
        &body,
        &realize,
        &mut |n, _| {
            if let Op::Reduce(_, axes) = n.op() {
                let src = &n.srcs()[0];
                max_trip = max_trip.max(axes.iter().map(|&a| src.shape()[a]).product());
            }
        },
        &mut |n| {
            if !inputs.iter().any(|i| i.id() == n.id()) {
                inputs.push(n.clone());
            }
        },
    );
    if let Op::Reduce(_, axes) = body.op() {
        let src = &body.srcs()[0];
        max_trip = max_trip.max(axes.iter().map(|&a| src.shape()[a]).product());
    }
    Kernel {
        strategy: strategy(root.numel(), max_trip),
        root,
        body,
        inputs,
    }
}

/// Long reductions over few outputs split across a workgroup; the rest run one invocation
/// per `LANES` outputs.
fn strategy(numel: usize, trip: usize) -> Strategy {
    let groups = numel.div_ceil(LANES);
    if trip >= 256 && groups <= 16384 || trip >= 64 && groups <= 256 {
        Strategy::Cooperative {
            threads: COOP_THREADS,
        }
    } else {
        Strategy::Serial
    }
}
