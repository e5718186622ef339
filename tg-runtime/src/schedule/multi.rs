//! Multi-output kernels: elementwise kernels of one shape and dtype packed into one dispatch
//! that writes each of their roots (`Kernel::also`).
//!
//! An optimizer step over many small parameters is dozens of tiny kernels (Adam: m, v and the
//! parameter, a kernel each per parameter), each costing a dispatch's setup, a barrier and its
//! descriptor writes, for a few hundred bytes of work. Kernels that compute their outputs
//! element for element at the same index (no reduction, serial) share that index: one kernel
//! computes all of them, each root stored into its own buffer. A root another member reads
//! element for element is computed in registers instead of loaded (Adam's parameter update
//! reads the new m and v), so the update of a parameter is one pass over its data.
//!
//! A small reduction kernel may lead a group too (any strategy but a row plan or a template):
//! elementwise kernels of its shape join it, and reductions of its shape and strategy, each
//! computed at its output index as its own output is (a reduction's loop of its own). A
//! reduction read by more than one kernel gets a buffer, and the cheap elementwise kernel
//! that reads it next (a layer norm's `1 / sqrt(var + eps)` beside the variance its backward
//! reads) was a dispatch of its own; attention's query, key and value projections are three
//! products of one input.
//!
//! Grouping walks the kernels in order, after the kernels that may join a group have been
//! moved as late as the others allow ([`defer`]). A group is dispatched where its last member
//! was, so its earlier members move later: a kernel in between that reads what the group
//! writes, or writes what it reads or writes, closes the group (it is dispatched before that
//! kernel). A kernel joins a group of its shape and dtype (a member's shape may differ in axes
//! of length 1, or, where no reduction leads, be any of the same size: [`same_kind`]) when it
//! reads no member's output other than a member's root itself, element for element, and the
//! group stays within the device's bindings ([`Target::bindings`], at most [`MAX_BINDINGS`]),
//! push constants, the size a kernel is capped at (`cap.rs`: a long chain cut into kernels
//! stays cut) and the memory the values it holds until its dispatch may take (`live.rs`).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use super::assign::{base, buffer_key};
use super::cap::MAX_OPS;
use super::epilogue;
use super::live::Live;
use super::{CostFn, Owners, Schedule, is_boundary, reductions_in, walk_region};
use crate::dtype::DType;
use crate::error::Result;
use crate::graph::node::{Node, Op};
use crate::kernel::{self, Kernel, Strategy, Window, buffer_bytes, unit_free};
use crate::target::Target;

/// Bindings a multi-output kernel takes at most, whatever the device allows: a dispatch
/// writes a descriptor per binding, and a shader's size grows with them.
pub const MAX_BINDINGS: u32 = 64;

/// Elements of the largest kernel packed (1 MiB of f32). Packing saves a dispatch's fixed
/// cost (on lavapipe 40-130 us for the 64-element kernels of a small model's optimizer,
/// 10-20x their work), which larger kernels amortize themselves; and a packed kernel's
/// fresh outputs all live at once, so a chain of large intermediates packed would outgrow the
/// memory that recycling their buffers keeps it in (`realize/recycle.rs`).
pub const MAX_PACKED_ELEMENTS: usize = 1 << 18;

/// Bytes (1 MiB) by which the values a group holds until its dispatch may raise the live
/// bytes of the schedule's intermediates past their peak without grouping (`live.rs`: a
/// prefill's cache writes, packed across layers, would hold every layer's key and value
/// product to the step's end, 12 of 2.6 MB for a 512-token prompt of a small model, where
/// each could go right after its own layer); and the bytes of intermediates the kernels that
/// [`defer`] moves may read in all.
pub const MAX_HELD_BYTES: u64 = 4 * MAX_PACKED_ELEMENTS as u64;

/// A kernel's place in grouping: what it reads and writes, by node and by buffer.
#[derive(Clone)]
pub(super) struct Access {
    /// Nodes and buffers it writes: its roots, and an assign's target buffer.
    writes: HashSet<u64>,
    /// Nodes and buffers it reads (aliases resolved to their owners).
    reads: HashSet<u64>,
}

/// What `k` reads and writes, by node and by buffer (`owners` resolving aliases).
pub(super) fn access(k: &Kernel, owners: &Owners) -> Access {
    Access {
        writes: k
            .roots()
            .flat_map(|r| {
                let b = base(r);
                [keys(r), keys(&b)].into_iter().flatten()
            })
            .collect(),
        reads: k.inputs.iter().flat_map(|i| keys(&owners.of(i))).collect(),
    }
}

impl Access {
    /// Whether a kernel of this access must run after one of `earlier`'s: it reads what that
    /// one writes, or writes what that one reads or writes.
    pub(super) fn follows(&self, earlier: &Access) -> bool {
        self.reads.iter().any(|r| earlier.writes.contains(r))
            || self
                .writes
                .iter()
                .any(|w| earlier.reads.contains(w) || earlier.writes.contains(w))
    }
}

/// What a kernel may be in a group ([`role`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Role {
    /// A serial elementwise kernel: it joins any group of its shape.
    Member,
    /// A reduction: it leads a group, or joins one led by a reduction of its strategy.
    Leader,
}

/// A kernel in grouping's order, with what it reads and writes and its role.
type Planned = (Kernel, Access, Option<Role>);

/// Both keys of a node: its id and the buffer it lives in (an assign's target).
fn keys(n: &Arc<Node>) -> [u64; 2] {
    [n.id(), buffer_key(n)]
}

struct Group {
    /// Whether a reduction kernel leads it (its first member).
    led: bool,
    /// The leader's strategy.
    strategy: Strategy,
    shape: Vec<usize>,
    dtype: DType,
    members: Vec<usize>,
    /// The member roots, by id.
    roots: HashSet<u64>,
    /// Distinct inputs other than member roots, by id.
    inputs: HashSet<u64>,
    /// The vars the members read, by id and dtype (push-constant words a replay rebinds).
    vars: HashSet<(u64, DType)>,
    /// Nodes the members' regions hold (at most [`MAX_OPS`], as one kernel's: `cap.rs`).
    nodes: usize,
    /// Ops a tiled leader emits for the members' epilogues, once a tile output (at most
    /// [`MAX_OPS`], as one kernel's: `epilogue.rs`).
    emitted: usize,
    /// The schedule's intermediates the members read (by their writer's root id), which the
    /// group holds until it is dispatched (`live.rs`).
    held: HashSet<u64>,
    access: Access,
    /// The window its members write and their start's node, where they are window writes
    /// (`window_of`).
    window: Option<(Window, u64)>,
}

/// The window a window write's kernel covers and its start's node: window writes pack with
/// those of the same window and start alone (a layer's key and value cache writes), their
/// rows stored at one index.
fn window_of(k: &Kernel) -> Option<(Window, u64)> {
    kernel::window(&k.root).map(|w| (w, k.root.srcs()[2].id()))
}

/// Packs the elementwise kernels of `sched` into multi-output kernels, alone or behind a
/// reduction, where the target allows (see the module's doc); `cost` counts a led kernel's
/// loops.
pub(super) fn group(sched: &mut Schedule, target: &Target, cost: CostFn) -> Result<()> {
    let limit = target.bindings.min(MAX_BINDINGS) as usize;
    if limit < 2 || sched.kernels.len() < 2 {
        return Ok(());
    }
    let owners = sched.owners();
    // the bytes of each value a kernel of this schedule writes, by id
    let made: HashMap<u64, u64> = sched
        .kernels
        .iter()
        .flat_map(|k| k.roots())
        .map(|r| (r.id(), buffer_bytes(r)))
        .collect();
    // the bytes of the schedule's intermediates `k` reads, but for `roots` (a group's own)
    let held = |k: &Kernel, roots: &HashSet<u64>| -> u64 {
        k.inputs
            .iter()
            .filter(|n| !roots.contains(&n.id()))
            .filter_map(|n| made.get(&n.id()))
            .sum()
    };
    let planned: Vec<Planned> = std::mem::take(&mut sched.kernels)
        .into_iter()
        .map(|k| {
            let (a, r) = (access(&k, &owners), role(&k, target));
            (k, a, r)
        })
        .collect();
    let planned = defer(planned, &held);
    let mut live = Live::new(
        &planned.iter().map(|(k, _, _)| k).collect::<Vec<_>>(),
        &owners,
        MAX_HELD_BYTES,
    );
    // the intermediates `k` reads but the roots of group `g`
    let reads = |k: &Kernel, roots: &HashSet<u64>| -> Vec<u64> {
        k.inputs
            .iter()
            .map(|n| owners.of(n).id())
            .filter(|id| made.contains_key(id) && !roots.contains(id))
            .collect()
    };
    let mut groups: Vec<Group> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut member_of: Vec<Option<usize>> = vec![None; planned.len()];
    for (i, (k, a, role)) in planned.iter().enumerate() {
        // whether `k` conflicts with group `g` where it joins it: as `Access::follows`, but
        // for `direct` member roots, computed in the same dispatch
        let conflicts = |g: &Group, direct: &HashSet<u64>| {
            k.inputs.iter().any(|input| {
                let r = owners.of(input);
                keys(&r).iter().any(|key| g.access.writes.contains(key))
                    && !(r.id() == input.id() && direct.contains(&input.id()))
            }) || a
                .writes
                .iter()
                .any(|w| g.access.reads.contains(w) || g.access.writes.contains(w))
        };
        let (vars, nodes) = match role {
            Some(_) => region(k),
            None => (HashSet::new(), 0),
        };
        // the first open group `k` may join, preferring one whose roots it reads in
        // registers (a weight's update, its gradient's group): `accepts` says whether it
        // reads none of them so
        let join = if let Some(role) = *role {
            let accepts = |g: usize| {
                let g = &groups[g];
                // a reduction joins only a group led by one of its strategy; a tiled one
                // only where it shares an operand with the group (`shares_loads`)
                if role == Role::Leader
                    && !(g.led && g.strategy == k.strategy && shares_loads(g, k))
                {
                    return None;
                }
                let direct = direct_reads(k, &g.roots);
                let inputs: HashSet<u64> = k
                    .inputs
                    .iter()
                    .map(|n| n.id())
                    .filter(|id| !g.roots.contains(id))
                    .chain(g.inputs.iter().copied())
                    .collect();
                (same_kind(g, k, role)
                    && g.roots.len() + 1 + inputs.len() <= limit
                    // two words a var at most; members share vars of one id
                    && 2 * g.vars.union(&vars).count() <= target.lowering.param_words
                    && g.nodes + nodes <= MAX_OPS
                    && g.emitted + epilogue::emitted(k, g.strategy) <= MAX_OPS
                    && live.fits(&mut g.held.iter().copied().chain(reads(k, &g.roots)), i)
                    && !conflicts(g, &direct))
                .then_some(direct.is_empty())
            };
            open.iter()
                .copied()
                .filter_map(|g| accepts(g).map(|indirect| (indirect, g)))
                .min_by_key(|&(indirect, _)| indirect)
                .map(|(_, g)| g)
        } else {
            None
        };
        // every other open group moves past `k` only where `k` need not follow it
        open.retain(|&g| Some(g) == join || !a.follows(&groups[g].access));
        match join {
            Some(g) => {
                let g = &mut groups[g];
                g.members.push(i);
                g.roots.insert(k.root.id());
                g.inputs.extend(k.inputs.iter().map(|n| n.id()));
                let roots = &g.roots;
                g.inputs.retain(|id| !roots.contains(id));
                g.vars.extend(vars);
                g.nodes += nodes;
                g.emitted += epilogue::emitted(k, g.strategy);
                let more = reads(k, &g.roots);
                g.held.extend(more);
                live.hold(&mut g.held.iter().copied(), i);
                g.access.reads.extend(a.reads.iter().copied());
                g.access.writes.extend(a.writes.iter().copied());
            }
            None if role.is_some() => {
                open.push(groups.len());
                groups.push(Group {
                    led: *role == Some(Role::Leader),
                    strategy: k.strategy,
                    shape: k.root.shape().to_vec(),
                    dtype: k.root.dtype(),
                    members: vec![i],
                    roots: HashSet::from([k.root.id()]),
                    inputs: k.inputs.iter().map(|n| n.id()).collect(),
                    vars,
                    nodes,
                    emitted: epilogue::emitted(k, k.strategy),
                    held: reads(k, &HashSet::new()).into_iter().collect(),
                    access: a.clone(),
                    window: window_of(k),
                });
            }
            None => continue,
        }
        member_of[i] = Some(join.unwrap_or(groups.len() - 1));
    }
    let mut old: Vec<Option<Kernel>> = planned.into_iter().map(|(k, _, _)| Some(k)).collect();
    let last: HashMap<usize, usize> = groups
        .iter()
        .enumerate()
        .map(|(g, grp)| (*grp.members.last().expect("a member"), g))
        .collect();
    for i in 0..old.len() {
        match member_of[i] {
            None => sched.kernels.extend(old[i].take()),
            Some(_) => {
                if let Some(&g) = last.get(&i) {
                    let members: Vec<Kernel> = groups[g]
                        .members
                        .iter()
                        .filter_map(|&m| old[m].take())
                        .collect();
                    // a led kernel's loops must still fit the budget (the members'
                    // values are computed in its invocations)
                    match target.loop_budget {
                        Some(budget) if groups[g].led && members.len() > 1 => {
                            let merged = merge(members.clone());
                            if cost(&merged)? <= budget {
                                sched.kernels.push(merged);
                            } else {
                                sched.kernels.extend(members);
                            }
                        }
                        // a group of one keeps its kernel as planned
                        _ if members.len() == 1 => sched.kernels.extend(members),
                        _ => sched.kernels.push(merge(members)),
                    }
                }
            }
        }
    }
    Ok(())
}

/// Moves each kernel that may join a group as a member ([`Role::Member`]) as late as the
/// kernels after it allow: just before the first that must follow it
/// ([`Access::follows`]), or to the end, in order, while the intermediates the moved kernels
/// read stay within [`MAX_HELD_BYTES`]. A training step computes each gradient just before
/// its parameter's update reads it, so the update closed every group the gradient's
/// reduction led (a layer's bias gradients, each a sum of one gradient's rows, were a kernel
/// each); moved after the backward, the updates pack by shape and the gradients by strategy.
fn defer(planned: Vec<Planned>, held: &dyn Fn(&Kernel, &HashSet<u64>) -> u64) -> Vec<Planned> {
    let none = HashSet::new();
    let mut out = Vec::with_capacity(planned.len());
    // the waiting kernels with the bytes each holds, and their sum
    let mut waiting: VecDeque<(Planned, u64)> = VecDeque::new();
    let mut waiting_bytes = 0;
    for entry in planned {
        if entry.2 == Some(Role::Member) {
            // it waits behind every waiting kernel, so none need go first
            let bytes = held(&entry.0, &none);
            while waiting_bytes + bytes > MAX_HELD_BYTES {
                let Some((w, b)) = waiting.pop_front() else {
                    break;
                };
                waiting_bytes -= b;
                out.push(w);
            }
            waiting_bytes += bytes;
            waiting.push_back((entry, bytes));
            continue;
        }
        // the waiting kernels up to the last that this one must follow go first
        if let Some(l) = waiting
            .iter()
            .rposition(|((_, w, _), _)| entry.1.follows(w))
        {
            for (w, b) in waiting.drain(..=l) {
                waiting_bytes -= b;
                out.push(w);
            }
        }
        out.push(entry);
    }
    out.extend(waiting.into_iter().map(|(w, _)| w));
    out
}

/// What `k` may be in a group, if anything: a member if serial and elementwise, a leader if
/// a reduction, serial, cooperative or tiled; either way [`packable`].
fn role(k: &Kernel, target: &Target) -> Option<Role> {
    if !packable(k, target) {
        return None;
    }
    match (k.strategy, reductions_in(k).is_empty()) {
        (Strategy::Serial, true) => Some(Role::Member),
        (Strategy::Serial | Strategy::Cooperative { .. } | Strategy::Tile { .. }, false) => {
            Some(Role::Leader)
        }
        _ => None,
    }
}

/// What every packed kernel is: not a row plan, not split, not a template, not a window
/// write over its whole target, at most [`MAX_PACKED_ELEMENTS`] outputs, every buffer bound
/// by descriptor.
fn packable(k: &Kernel, target: &Target) -> bool {
    let outputs = kernel::domain_numel(&k.root);
    !k.row_plan
        && k.split_of.is_none()
        && k.also.is_empty()
        && Arc::ptr_eq(&k.root, &k.body)
        && !matches!(
            k.root.op(),
            Op::SortRuns(_) | Op::MergeRuns(_) | Op::ScanRuns(..) | Op::Attention(..)
        )
        && (!matches!(k.root.op(), Op::AssignWindow(_)) || window_of(k).is_some())
        && outputs > 0
        && outputs <= MAX_PACKED_ELEMENTS
        && k.roots()
            .chain(&k.inputs)
            .all(|n| buffer_bytes(n) <= target.lowering.bind_limit)
}

/// Whether `k`, of role `role`, is of `g`'s kind: its dtype, and its shape, where a member's
/// may differ in axes of length 1 (a weight's update is `[64, 64]`, the gradient it reads
/// `[1, 1, 64, 64]`, the sum over a broadcast's axes kept: the same elements in the same
/// order, so an output index is both's). In a group no reduction leads, each output is
/// stored at its element's row-major place, so a member's shape need only be of the same
/// size (the updates of a `[256, 64]` and a `[64, 256]` weight): it is computed at the place
/// unflattened into its own shape. A reduction leads with its own shape, which its strategy
/// was planned for, and its members share its index.
fn same_kind(g: &Group, k: &Kernel, role: Role) -> bool {
    let shape = k.root.shape();
    if g.window.is_some() || window_of(k).is_some() {
        return g.dtype == k.root.dtype() && g.window == window_of(k);
    }
    g.dtype == k.root.dtype()
        && match role {
            Role::Leader => g.shape == shape,
            Role::Member => {
                unit_free(&g.shape).eq(unit_free(shape))
                    || (!g.led && g.shape.iter().product::<usize>() == k.root.numel())
            }
        }
}

/// Whether reduction `k` gains from `g`'s kernel besides a dispatch: any but a tile does; a
/// tile only where it reads an input of the group's, whose loads the tiles then share
/// (attention's query, key and value projections, or their weights' gradients, all of one
/// input). Tiles of unrelated products in one invocation only add to its registers: on
/// lavapipe, tinygpt's eight `[64, 64]` weight gradients packed took 11.9-14.6 ms against
/// 1.3-1.8 ms each as kernels of their own, its two `[64, 256]` ones 5.1-8.2 ms against
/// 2.0-2.2 each (two runs).
fn shares_loads(g: &Group, k: &Kernel) -> bool {
    !matches!(k.strategy, Strategy::Tile { .. })
        || k.inputs.iter().any(|i| g.inputs.contains(&i.id()))
}

/// The member roots (`roots`, by id) that kernel `k` reads only element for element: every
/// path from its root to them runs through elementwise ops (and assigns' values, and
/// reshapes that add or drop axes of length 1), so the value at an output index needs theirs
/// at the same index.
fn direct_reads(k: &Kernel, roots: &HashSet<u64>) -> HashSet<u64> {
    let realize: HashSet<u64> = k.inputs.iter().map(|n| n.id()).collect();
    let mut direct: HashSet<u64> = HashSet::new();
    let mut indirect: HashSet<u64> = HashSet::new();
    let mut stack = vec![(k.root.clone(), true)];
    let mut seen: HashSet<(u64, bool)> = HashSet::new();
    while let Some((n, straight)) = stack.pop() {
        if !seen.insert((n.id(), straight)) {
            continue;
        }
        let is_root = n.id() == k.root.id();
        if !is_root && is_boundary(&n, &realize) {
            if roots.contains(&n.id()) {
                if straight {
                    direct.insert(n.id());
                } else {
                    indirect.insert(n.id());
                }
            }
            continue;
        }
        // (a reshape that only drops or adds axes of length 1 keeps the index, as a member
        // of such a shape does: `same_kind`)
        let keeps = straight
            && (n.op().is_elementwise()
                || matches!(n.op(), Op::Assign | Op::Contiguous)
                || matches!(n.op(), Op::Reshape)
                    && unit_free(n.shape()).eq(unit_free(n.srcs()[0].shape())));
        let srcs = n.srcs();
        match n.op() {
            // an assign reads its target as a buffer to write, not as a value
            Op::Assign => stack.push((srcs[1].clone(), keeps)),
            // a window's rows move: its value is not read at the index it writes
            Op::AssignWindow(_) => stack.extend(srcs.into_iter().skip(1).map(|s| (s, false))),
            _ => stack.extend(srcs.into_iter().map(|s| (s, keeps))),
        }
    }
    direct.retain(|id| !indirect.contains(id));
    direct
}

/// The vars `k`'s region reads (by id and dtype) and the nodes it holds.
pub(super) fn region(k: &Kernel) -> (HashSet<(u64, DType)>, usize) {
    let realize: HashSet<u64> = k.inputs.iter().map(|n| n.id()).collect();
    let mut vars: HashSet<(u64, DType)> = HashSet::new();
    let mut nodes = 1;
    let mut note = |n: &Arc<Node>| {
        if let Op::Var(id, _) = n.op() {
            vars.insert((*id, n.dtype()));
        }
    };
    note(&k.root);
    walk_region(
        &k.root,
        &realize,
        &mut |n, _| {
            nodes += 1;
            note(n)
        },
        &mut |_| {},
    );
    (vars, nodes)
}

/// One kernel computing every member's root: the first member's root is the kernel's, the
/// others its `also`; the inputs are the members' inputs but their roots.
fn merge(members: Vec<Kernel>) -> Kernel {
    let inputs = inputs_of(&members.iter().collect::<Vec<_>>());
    let mut members = members.into_iter();
    let mut first = members.next().expect("a member");
    first.also = members.map(|k| k.root).collect();
    first.inputs = inputs;
    first
}

/// The buffers one kernel computing all of `kernels` reads: theirs, each once, in order, but
/// their roots (computed in the same dispatch).
pub(super) fn inputs_of(kernels: &[&Kernel]) -> Vec<Arc<Node>> {
    let roots: HashSet<u64> = kernels.iter().map(|k| k.root.id()).collect();
    let mut inputs: Vec<Arc<Node>> = Vec::new();
    for k in kernels {
        for i in &k.inputs {
            if !roots.contains(&i.id()) && !inputs.iter().any(|x| x.id() == i.id()) {
                inputs.push(i.clone());
            }
        }
    }
    inputs
}
