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
//! them at that level) ([`members_of`]), moving the kernels in between that need them first
//! after it where it may ([`moves`]). The merged kernel
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
    let writers_of = |k: &Kernel| -> Vec<usize> {
        k.inputs
            .iter()
            .filter_map(|n| writer.get(&owners.of(n).id()).copied())
            .collect()
    };
    let mut fate: Vec<Fate> = (0..kernels.len()).map(|_| Fate::Kept).collect();
    // latest first, so that a kernel takes in the whole chain before it (a layer norm's
    // normalized rows take the deviations, which take the mean)
    for i in (0..kernels.len()).rev() {
        let k = &kernels[i];
        if !matches!(fate[i], Fate::Kept) || !leads(k) {
            continue;
        }
        let kept = |m: usize| matches!(fate[m], Fate::Kept);
        let mut members = members_of(kernels, i, &writers_of, &kept);
        let deferred = moves(&access, &mut members, i, &kept);
        if members.is_empty() {
            continue;
        }
        members.sort_unstable();
        let mut group: Vec<&Kernel> = vec![k];
        group.extend(members.iter().map(|&m| &kernels[m]));
        let Some(kernel) = merge(&group, target) else {
            continue;
        };
        // what the members and the kernels moved after it read lives until its place
        let held: Vec<u64> = members
            .iter()
            .chain(&deferred)
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
            fate[m] = Fate::Member;
        }
        for &x in &deferred {
            fate[x] = Fate::Deferred;
        }
        fate[i] = Fate::Led(kernel, deferred);
    }
    let mut old: Vec<Option<Kernel>> = std::mem::take(&mut sched.kernels)
        .into_iter()
        .map(Some)
        .collect();
    for (i, f) in fate.into_iter().enumerate() {
        match f {
            Fate::Kept => sched.kernels.extend(old[i].take()),
            Fate::Led(kernel, after) => {
                sched.kernels.push(kernel);
                sched
                    .kernels
                    .extend(after.into_iter().filter_map(|x| old[x].take()));
            }
            Fate::Member | Fate::Deferred => {}
        }
    }
    Ok(())
}

/// The kernels that kernel `i` takes in (see [`joins`]): those of its rows that it reads, and
/// those they read, in turn; and the kernels in between of that kind that read one of them (a
/// loss's log of the row sums beside the sums), with what they read. `kept`: whether a kernel
/// is still where it was planned.
fn members_of(
    kernels: &[Kernel],
    i: usize,
    writers_of: &dyn Fn(&Kernel) -> Vec<usize>,
    kept: &dyn Fn(usize) -> bool,
) -> Vec<usize> {
    let k = &kernels[i];
    let mut members: Vec<usize> = Vec::new();
    let mut stack = writers_of(k);
    loop {
        while let Some(m) = stack.pop() {
            if m >= i || !kept(m) || members.contains(&m) || !joins(&kernels[m], k) {
                continue;
            }
            members.push(m);
            stack.extend(writers_of(&kernels[m]));
        }
        let first = members.iter().copied().min().unwrap_or(i);
        stack = (first + 1..i)
            .filter(|&x| {
                !members.contains(&x)
                    && writers_of(&kernels[x]).iter().any(|w| members.contains(w))
                    && kept(x)
                    && joins(&kernels[x], k)
            })
            .collect();
        if stack.is_empty() {
            return members;
        }
    }
}

/// Members move to kernel `i`'s place, so the kernels in between that must follow one (read
/// it, or read such a kernel) move after it, where nothing up to it must follow them (a loss
/// reading the rows' maxima and logsumexps, which the gradient's row kernel does not read):
/// those, in order. Else none moves, and each member with such a kernel after it stays where
/// it is (and then what it reads of the others, in turn), out of `members`.
fn moves(
    access: &[Access],
    members: &mut Vec<usize>,
    i: usize,
    kept: &dyn Fn(usize) -> bool,
) -> Vec<usize> {
    let follows = |x: usize, of: &[usize]| of.iter().any(|&m| access[x].follows(&access[m]));
    let first = members.iter().copied().min().unwrap_or(i);
    let mut deferred: Vec<usize> = Vec::new();
    for x in first + 1..i {
        if !members.contains(&x) && (follows(x, members) || follows(x, &deferred)) {
            deferred.push(x);
        }
    }
    let movable = deferred.iter().all(|&x| {
        kept(x)
            && (x + 1..=i)
                .filter(|y| !deferred.contains(y))
                .all(|y| !access[y].follows(&access[x]))
    });
    if movable {
        return deferred;
    }
    loop {
        let before = members.len();
        let inside: HashSet<usize> = members.iter().copied().chain([i]).collect();
        members
            .retain(|&m| (m + 1..i).all(|x| inside.contains(&x) || !access[x].follows(&access[m])));
        if members.len() == before {
            return Vec::new();
        }
    }
}

/// What becomes of a kernel of the schedule.
enum Fate {
    /// It stays as planned, where it was.
    Kept,
    /// The others join it: the merged kernel, then the kernels moved after it, in order.
    Led(Kernel, Vec<usize>),
    /// It is computed by a later kernel.
    Member,
    /// It moves after a later kernel that others join.
    Deferred,
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
            Op::Assign
                | Op::AssignWindow(_)
                | Op::SortRuns(_)
                | Op::MergeRuns(_)
                | Op::ScanRuns(..)
                | Op::Attention(..)
        )
}

/// `group`'s kernels (the first the one they join) as one row kernel, if a row plan holds
/// over every root and the kernel fits the device.
fn merge(group: &[&Kernel], target: &Target) -> Option<Kernel> {
    let k = group[0];
    let inputs = multi::inputs_of(group);
    let realize: HashSet<u64> = inputs.iter().map(|n| n.id()).collect();
    // every reduction of the merged region, each of which the row plan must keep: each
    // member's own region, bounded by the others' roots too, so every node is walked once (a
    // chain of 100 elementwise kernels, each a leader of all the kernels before it, walked the
    // rest of the chain from every member: 1 ms a kernel to plan)
    let members: HashSet<u64> = realize
        .iter()
        .copied()
        .chain(group.iter().map(|m| m.root.id()))
        .collect();
    let mut reductions: Vec<Arc<Node>> = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    for m in group {
        let mut note = |n: &Arc<Node>| {
            if matches!(n.op(), Op::Reduce(..)) && seen.insert(n.id()) {
                reductions.push(n.clone());
            }
        };
        note(&m.root);
        walk_region(&m.root, &members, &mut |n, _| note(n), &mut |_| {});
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
