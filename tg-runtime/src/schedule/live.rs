//! The bytes of a schedule's intermediates live at each kernel, for grouping (`multi.rs`).
//!
//! A group is dispatched where its last member was, so what its earlier members read lives
//! until then. In a training step that is the activations a weight's gradient reads, held
//! from the gradient's place in the backward to its update's at the end: they were all live
//! at the backward's start anyway, so holding them costs no memory at the schedule's peak. In
//! a prompt's prefill it is each layer's key and value products, held by the cache writes
//! packed across layers where each could go right after its own layer: that raises the peak
//! by a layer's products a layer. So a join may hold values past their last reader only
//! while the live bytes stay within the peak the schedule has without it, plus a slack.

use std::collections::HashMap;

use super::Owners;
use crate::kernel::{Kernel, buffer_bytes};

/// Live bytes along a kernel order, and when each intermediate is last read.
pub(super) struct Live {
    /// Bytes of intermediates live while each kernel runs.
    bytes: Vec<u64>,
    /// Each intermediate (by the id of the root that writes it): its bytes and the last
    /// position that reads it (the end, where none does: an output of the schedule).
    last: HashMap<u64, (u64, usize)>,
    /// The most bytes any position may have live.
    cap: u64,
}

impl Live {
    /// The live bytes of `kernels` in their order (each reading its inputs' owners), with a
    /// cap of their peak plus `slack`. An assign writes its target's buffer, no fresh one.
    pub(super) fn new(kernels: &[&Kernel], owners: &Owners, slack: u64) -> Live {
        let end = kernels.len().saturating_sub(1);
        // each intermediate's bytes, where it is written and its last reader so far (a
        // kernel comes after those it reads)
        let mut spans: HashMap<u64, (u64, usize, Option<usize>)> = HashMap::new();
        for (i, k) in kernels.iter().enumerate() {
            for input in &k.inputs {
                if let Some(span) = spans.get_mut(&owners.of(input).id()) {
                    span.2 = Some(i);
                }
            }
            for r in k.roots().filter(|r| !r.op().writes_in_place()) {
                spans.insert(r.id(), (buffer_bytes(r), i, None));
            }
        }
        // a difference array: +bytes where a value is written, -bytes after its last read
        let mut delta = vec![0i64; kernels.len() + 1];
        for &(bytes, born, read) in spans.values() {
            delta[born] += bytes as i64;
            delta[read.unwrap_or(end) + 1] -= bytes as i64;
        }
        let mut bytes = Vec::with_capacity(kernels.len());
        let mut running = 0i64;
        for d in &delta[..kernels.len()] {
            running += d;
            bytes.push(running.max(0) as u64);
        }
        let cap = bytes
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
            .saturating_add(slack);
        let last = spans
            .into_iter()
            .map(|(id, (bytes, _, read))| (id, (bytes, read.unwrap_or(end))))
            .collect();
        Live { bytes, last, cap }
    }

    /// The stretches that holding the intermediates `ids` (others are ignored) until
    /// position `at` adds to their lives: (first position, bytes) for each.
    fn extensions(&self, ids: &mut dyn Iterator<Item = u64>, at: usize) -> Vec<(usize, u64)> {
        ids.filter_map(|id| self.last.get(&id))
            .filter(|&&(_, until)| until < at)
            .map(|&(bytes, until)| (until + 1, bytes))
            .collect()
    }

    /// Whether holding `ids` until position `at` keeps every position within the cap.
    pub(super) fn fits(&self, ids: &mut dyn Iterator<Item = u64>, at: usize) -> bool {
        let mut ext = self.extensions(ids, at);
        ext.sort_unstable();
        let Some(&(first, _)) = ext.first() else {
            return true;
        };
        let mut added = 0;
        let mut next = ext.iter().peekable();
        (first..=at).all(|t| {
            while let Some(&&(from, b)) = next.peek() {
                if from > t {
                    break;
                }
                added += b;
                next.next();
            }
            self.bytes[t] + added <= self.cap
        })
    }

    /// Holds `ids` until position `at`.
    pub(super) fn hold(&mut self, ids: &mut dyn Iterator<Item = u64>, at: usize) {
        for id in ids {
            if let Some((bytes, until)) = self.last.get_mut(&id)
                && *until < at
            {
                for t in *until + 1..=at {
                    self.bytes[t] += *bytes;
                }
                *until = at;
            }
        }
    }
}
