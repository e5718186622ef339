//! In-place writes (`Op::Assign`): when a kernel may write straight into its target's
//! buffer, and the order of a schedule's kernels around such writes.
//!
//! An assign's kernel writes its value into the target's buffer. That is safe in one kernel
//! only if the value reads the target element for element, at the index it writes (an
//! optimizer's `w - lr * g`); a value that reads the target elsewhere (a transpose, a
//! reduction) is computed into a buffer of its own first. Other kernels of the schedule that
//! read the target's old contents must run before the write, and those that read the new
//! contents after it.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::{Kernel, Schedule, is_boundary};
use crate::error::{Error, Result};
use crate::graph::node::{Node, Op};

/// The buffer node an assign chain writes into: the first target that is not an assign.
pub(super) fn base(n: &Arc<Node>) -> Arc<Node> {
    let mut n = n.clone();
    while n.op().writes_in_place() && !n.is_realized() {
        let Some(target) = n.srcs().into_iter().next() else {
            break;
        };
        n = target;
    }
    n
}

/// Identifies a buffer a node reads: a node's base, or for a realized node its buffer.
pub(super) fn buffer_key(n: &Arc<Node>) -> u64 {
    match n.buffer() {
        Some(b) => u64::MAX - b.id(),
        None => base(n).id(),
    }
}

/// Does the value of assign `a` read its target only at the index it writes?
pub(super) fn pointwise(a: &Arc<Node>, realize: &HashSet<u64>) -> bool {
    let srcs = a.srcs();
    let target = buffer_key(&srcs[0]);
    // (node, reached through elementwise ops only)
    let mut stack = vec![(srcs[1].clone(), true)];
    let mut seen: HashSet<(u64, bool)> = HashSet::new();
    while let Some((n, direct)) = stack.pop() {
        if !seen.insert((n.id(), direct)) {
            continue;
        }
        if is_boundary(&n, realize) || n.op().writes_in_place() {
            if buffer_key(&n) == target && !direct {
                return false;
            }
            continue;
        }
        let keeps = n.op().is_elementwise();
        for s in n.srcs() {
            stack.push((s, direct && keeps));
        }
    }
    true
}

/// Does window write `w`'s value need a buffer of its own before the write? Its kernel runs
/// over the window's rows (`kernel::window`) or over the whole target with the rows shifted
/// by the start, so the value is never read at the index written: one that reads the target
/// anywhere is computed first, and so is one that reduces (the window's kernel is a plain
/// one: no row plan, tile or split takes it, and a reduction inside would run once an
/// element at the copy's shape). Within the region `realize` bounds.
pub(super) fn window_value_apart(w: &Arc<Node>, realize: &HashSet<u64>) -> bool {
    let srcs = w.srcs();
    let (target, value) = (buffer_key(&srcs[0]), &srcs[1]);
    let mut stack = vec![value.clone()];
    let mut seen: HashSet<u64> = HashSet::new();
    while let Some(n) = stack.pop() {
        if !seen.insert(n.id()) {
            continue;
        }
        if is_boundary(&n, realize) || n.op().writes_in_place() {
            if buffer_key(&n) == target {
                return true;
            }
            continue;
        }
        match n.op() {
            Op::Reduce(..) => return true,
            // kernels of their own: read as buffers
            Op::SortRuns(_) | Op::MergeRuns(_) | Op::ScanRuns(..) | Op::Attention(..) => {}
            _ => stack.extend(n.srcs()),
        }
    }
    false
}

/// Orders the kernels so that each assign's write follows every kernel that reads its
/// target's old contents, and precedes those that read the new ones (they depend on it).
pub(super) fn order_writes(sched: &mut Schedule) -> Result<()> {
    let writes: Vec<usize> = (0..sched.kernels.len())
        .filter(|&i| sched.kernels[i].root.op().writes_in_place())
        .collect();
    if writes.is_empty() {
        return Ok(());
    }
    let kernels = &sched.kernels;
    let producer: HashMap<u64, usize> = kernels
        .iter()
        .enumerate()
        .map(|(i, k)| (k.root.id(), i))
        .collect();
    let owners = sched.owners();
    let source = |n: &Arc<Node>| -> Option<usize> { producer.get(&owners.of(n).id()).copied() };
    // edges: producer -> consumer, and reader of the old contents -> write
    let mut before: Vec<Vec<usize>> = vec![Vec::new(); kernels.len()];
    for (i, k) in kernels.iter().enumerate() {
        for input in &k.inputs {
            if let Some(p) = source(input).filter(|&p| p != i) {
                before[i].push(p);
            }
        }
    }
    for &w in &writes {
        let target = kernels[w].root.srcs()[0].clone();
        let key = buffer_key(&target);
        for (i, k) in kernels.iter().enumerate() {
            let reads_old = k.inputs.iter().any(|n| {
                n.id() != kernels[w].root.id()
                    && buffer_key(n) == key
                    && !depends_on(kernels, &before, i, w)
            });
            if i != w && reads_old {
                before[w].push(i);
            }
        }
    }
    let order = toposort(&before).ok_or_else(|| Error::Argument {
        op: "assign",
        message: "a kernel reads a target both before and after its in-place write; \
                  realize the old value first"
            .into(),
    })?;
    let mut old: Vec<Option<Kernel>> = sched.kernels.drain(..).map(Some).collect();
    sched.kernels = order.into_iter().filter_map(|i| old[i].take()).collect();
    Ok(())
}

/// Does kernel `i` (transitively) read what kernel `w` computes?
fn depends_on(kernels: &[Kernel], before: &[Vec<usize>], i: usize, w: usize) -> bool {
    let mut stack = vec![i];
    let mut seen = vec![false; kernels.len()];
    while let Some(k) = stack.pop() {
        if k == w {
            return true;
        }
        if std::mem::replace(&mut seen[k], true) {
            continue;
        }
        stack.extend(before[k].iter().copied());
    }
    false
}

/// A topological order of `0..before.len()` where each index follows those listed for it,
/// keeping the given order where it is free; `None` on a cycle.
fn toposort(before: &[Vec<usize>]) -> Option<Vec<usize>> {
    let n = before.len();
    let mut state = vec![0u8; n]; // 0 new, 1 on the stack, 2 placed
    let mut out = Vec::with_capacity(n);
    for start in 0..n {
        let mut stack = vec![(start, 0usize)];
        while let Some(&mut (k, ref mut next)) = stack.last_mut() {
            if state[k] == 2 {
                stack.pop();
                continue;
            }
            state[k] = 1;
            if let Some(&d) = before[k].get(*next) {
                *next += 1;
                match state[d] {
                    0 => stack.push((d, 0)),
                    1 => return None,
                    _ => {}
                }
            } else {
                state[k] = 2;
                out.push(k);
                stack.pop();
            }
        }
    }
    Some(out)
}
