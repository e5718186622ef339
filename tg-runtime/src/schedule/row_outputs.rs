//! Row kernels that write the per-row values they compute: a layer norm's mean and
//! reciprocal deviation, which its backward reads, stored by the kernel that normalizes the
//! rows instead of computed by kernels of their own.
//!
//! A reduction read by two kernels gets a buffer (`grow` in `mod.rs`), so a training step's
//! layer norm was three kernels: the mean, the variance with `1 / sqrt(var + eps)`, and the
//! normalized rows reading both; its backward three more. Yet the row kernel that normalizes
//! computes those reductions once per row anyway, where their sources are at hand. Here, after
//! planning, a kernel of a shape `S` that a row plan can run takes in the kernels before it
//! whose values it reads, when each is of `S` too (elementwise or a row plan of its own) or
//! of one value per row of `S` (reductions over `S`'s trailing axes, and what is computed from
//! them at that level), and nothing between them and it needs them first. The merged kernel
//! runs as one row plan and stores every member's root ([`Kernel::also`]): those of `S` at the
//! row's outputs, those of a row once a row (`codegen::program::OutputAt::Row`).
//!
//! The members' regions join the kernel's, so the row plan must still hold over all of it
//! (`rows::row_split` from each root) and the kernel must stay within the device's bindings,
//! push constants, `cap.rs`'s size, the loop budget and the memory its members' held inputs
//! may take (`live.rs`), as a multi-output kernel must (`multi.rs`, which runs after).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::cap::MAX_OPS;
use super::live::Live;
use super::multi::{self, Access, MAX_BINDINGS, MAX_HELD_BYTES};
use super::rows::{self, RowPlan};
use super::{CostFn, Schedule, reductions_in, row_strategy, walk_region};
use crate::dtype::DType;
use crate::error::Result;
use crate::graph::node::{Node, Op};
use crate::kernel::{Kernel, Strategy, buffer_bytes};
use crate::target::Target;

/// Merges into each row kernel the kernels of its rows before it (see the module's doc);
/// `cost` counts a merged kernel's loops.
pub(super) fn join(sched: &mut Schedule, target: &Target, cost: CostFn) -> Result<()> {
    let limit = target.bindings.min(MAX_BINDINGS) as usize;
    if limit < 2 || sched.kernels.len() < 2 {
        return Ok(());
    }
    let owners = sched.owners();
    let kernels = &sched.kernels;
    let access: Vec<Access> = kernels.iter().map(|k| multi::access(k, &owners)).collect();
    let writer: HashMap<u64, usize> = kernels
        .iter()
        .enumerate()
        .flat_map(|(i, k)| k.roots().map(move |r| (r.id(), i)))
        .collect();
    let made: HashSet<u64> = writer.keys().copied().collect();
    let mut live = Live::new(&kernels.iter().collect::<Vec<_>>(), &owners, MAX_HELD_BYTES);
    let mut taken = vec![false; kernels.len()];
    let mut merged: Vec<Option<Kernel>> = vec![None; kernels.len()];
    // latest first, so that a kernel takes in the whole chain before it (a layer norm's
    // normalized rows take the deviations, which take the mean)
    for i in (0..kernels.len()).rev() {
        let k = &kernels[i];
        if taken[i] || !leads(k) {
            continue;
        }
        // the kernels of its rows that it reads, and those they read, in turn
        let writers_of = |k: &Kernel| -> Vec<usize> {
            k.inputs
                .iter()
                .filter_map(|n| writer.get(&owners.of(n).id()).copied())
                .collect()
        };
        let mut members: Vec<usize> = Vec::new();
        let mut stack = writers_of(k);
        while let Some(m) = stack.pop() {
            if m >= i || taken[m] || members.contains(&m) || !joins(&kernels[m], k) {
                continue;
            }
            members.push(m);
            stack.extend(writers_of(&kernels[m]));
        }
        // a member moves to the kernel's place: none may stay behind a kernel in between
        // that must follow it (one that reads it, or a member left out that does)
        loop {
            let before = members.len();
            let inside: HashSet<usize> = members.iter().copied().chain([i]).collect();
            members.retain(|&m| {
                (m + 1..i).all(|x| inside.contains(&x) || !access[x].follows(&access[m]))
            });
            if members.len() == before {
                break;
            }
        }
        if members.is_empty() {
            continue;
        }
        members.sort_unstable();
        let mut group: Vec<&Kernel> = vec![k];
        group.extend(members.iter().map(|&m| &kernels[m]));
        let Some(kernel) = merge(&group, target) else {
            continue;
        };
        // what the members read lives until the kernel's place
        let held: Vec<u64> = members
            .iter()
            .flat_map(|&m| kernels[m].inputs.iter().map(|n| owners.of(n).id()))
            .filter(|id| made.contains(id))
            .collect();
        if !live.fits(&mut held.iter().copied(), i) {
            continue;
        }
        if let Some(budget) = target.loop_budget
            && cost(&kernel)? > budget
        {
            continue;
        }
        live.hold(&mut held.into_iter(), i);
        for &m in &members {
            taken[m] = true;
        }
        merged[i] = Some(kernel);
    }
    let old = std::mem::take(&mut sched.kernels);
    sched.kernels = old
        .into_iter()
        .zip(merged)
        .zip(taken)
        .filter(|(_, taken)| !taken)
        .map(|((k, merged), _)| merged.unwrap_or(k))
        .collect();
    Ok(())
}

/// Whether `k` may be the kernel that the others join: one output, computed element for
/// element or as a row plan, over its own shape.
fn leads(k: &Kernel) -> bool {
    plain(k)
        && match k.strategy {
            Strategy::Serial => reductions_in(k).is_empty(),
            Strategy::Row { .. } => k.row_plan,
            _ => false,
        }
}

/// Whether `m` may join `k`'s kernel: of its dtype, and either of its shape (elementwise, or
/// a row plan of its own) or of one value a row of it, whose reductions (if any) are over the
/// row's trailing axes; whether the row plan holds over the merged region is [`merge`]'s to
/// find.
fn joins(m: &Kernel, k: &Kernel) -> bool {
    if !plain(m) || m.root.dtype() != k.root.dtype() {
        return false;
    }
    let reductions = reductions_in(m);
    let over_rows = reductions
        .iter()
        .all(|r| r.srcs()[0].shape() == k.root.shape());
    if m.root.shape() == k.root.shape() {
        return match m.strategy {
            Strategy::Serial => reductions.is_empty(),
            Strategy::Row { .. } => m.row_plan && over_rows,
            _ => false,
        };
    }
    let rows = k.root.numel() / m.root.numel();
    let realize: HashSet<u64> = m.inputs.iter().map(|n| n.id()).collect();
    rows > 1
        && rows * m.root.numel() == k.root.numel()
        && over_rows
        && (reductions.is_empty()
            || rows::row_split(&m.root, &realize, &reductions) == Some(RowPlan::Reduce))
}

/// What every kernel of a merge is: one root of 4-byte values (a row's are stored one at a
/// time), computed over its own shape, no template, no split, no in-place write.
fn plain(k: &Kernel) -> bool {
    k.also.is_empty()
        && k.split_of.is_none()
        && Arc::ptr_eq(&k.root, &k.body)
        && k.root.numel() > 0
        && matches!(k.root.dtype(), DType::F32 | DType::I32 | DType::U32)
        && !matches!(
            k.root.op(),
            Op::Assign | Op::SortRuns(_) | Op::MergeRuns(_) | Op::ScanRuns(..) | Op::Attention(..)
        )
}

/// `group`'s kernels (the first the one they join) as one row kernel, if a row plan holds
/// over every root and the kernel fits the device.
fn merge(group: &[&Kernel], target: &Target) -> Option<Kernel> {
    let k = group[0];
    let roots: HashSet<u64> = group.iter().map(|m| m.root.id()).collect();
    let mut inputs: Vec<Arc<Node>> = Vec::new();
    for m in group {
        for n in &m.inputs {
            if !roots.contains(&n.id()) && !inputs.iter().any(|x| x.id() == n.id()) {
                inputs.push(n.clone());
            }
        }
    }
    let realize: HashSet<u64> = inputs.iter().map(|n| n.id()).collect();
    // every reduction of the merged region, each of which the row plan must keep
    let mut reductions: Vec<Arc<Node>> = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    for m in group {
        let mut note = |n: &Arc<Node>| {
            if matches!(n.op(), Op::Reduce(..)) && seen.insert(n.id()) {
                reductions.push(n.clone());
            }
        };
        note(&m.root);
        walk_region(&m.root, &realize, &mut |n, _| note(n), &mut |_| {});
    }
    if reductions.is_empty() {
        return None;
    }
    let Some(RowPlan::Row(row)) = rows::row_split(&k.root, &realize, &reductions) else {
        return None;
    };
    let fits = group[1..].iter().all(|m| {
        let plan = rows::row_split(&m.root, &realize, &reductions);
        if m.root.numel() == k.root.numel() {
            plan == Some(RowPlan::Row(row))
        } else {
            plan == Some(RowPlan::Reduce) && m.root.numel() * row == k.root.numel()
        }
    });
    let bound = |n: &Arc<Node>| buffer_bytes(n) <= target.lowering.bind_limit;
    let limit = target.bindings.min(MAX_BINDINGS) as usize;
    if !fits
        || group.len() + inputs.len() > limit
        || !group.iter().map(|m| &m.root).chain(&inputs).all(bound)
    {
        return None;
    }
    let mut kernel = Kernel {
        root: k.root.clone(),
        body: k.body.clone(),
        inputs,
        strategy: k.strategy,
        split_of: None,
        row_plan: true,
        also: group[1..].iter().map(|m| m.root.clone()).collect(),
    };
    // (each member's region counted whole: an upper bound where they share nodes)
    let mut vars = HashSet::new();
    let mut nodes = 0;
    for m in group {
        let (v, n) = multi::region(m);
        vars.extend(v);
        nodes += n;
    }
    if 2 * vars.len() > target.lowering.param_words || nodes > MAX_OPS {
        return None;
    }
    kernel.strategy = row_strategy(&kernel, &RowPlan::Row(row), &realize, &target.defaults);
    Some(kernel)
}
