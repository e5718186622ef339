//! Which barriers a sequence of dispatches needs, decided from the buffers each one reads and
//! writes. Kept apart from recording so the rules can be tested without a device.
//!
//! A `vkCmdPipelineBarrier` (compute to compute) orders execution of everything before it
//! against everything after it, but makes only the listed buffers' writes visible. So:
//! - read-after-write and write-after-write need a memory barrier on that buffer;
//! - write-after-read needs only the execution dependency (a barrier, possibly listing nothing);
//! - a write stays pending until a barrier lists its buffer, however many barriers pass.

use std::collections::HashSet;

/// What one dispatch does to one buffer. A buffer may appear more than once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Access {
    pub(crate) buffer: u64,
    pub(crate) writes: bool,
}

/// The barrier to record before each dispatch: `None` for no barrier, or the buffers whose
/// writes must be made visible (empty: an execution dependency only).
pub(crate) fn plan(dispatches: &[Vec<Access>]) -> Vec<Option<Vec<u64>>> {
    let mut pending_writes: HashSet<u64> = HashSet::new();
    let mut reads_since_barrier: HashSet<u64> = HashSet::new();
    dispatches
        .iter()
        .map(|accesses| {
            let mut touched: Vec<u64> = accesses.iter().map(|a| a.buffer).collect();
            touched.sort_unstable();
            touched.dedup();
            let writes = |b: u64| accesses.iter().any(|a| a.buffer == b && a.writes);
            let visible: Vec<u64> = touched
                .iter()
                .copied()
                .filter(|b| pending_writes.contains(b))
                .collect();
            let war = touched
                .iter()
                .any(|&b| writes(b) && reads_since_barrier.contains(&b));
            let barrier = (!visible.is_empty() || war).then(|| {
                visible.iter().for_each(|b| {
                    pending_writes.remove(b);
                });
                reads_since_barrier.clear();
                visible
            });
            for b in touched {
                if writes(b) {
                    pending_writes.insert(b);
                } else {
                    reads_since_barrier.insert(b);
                }
            }
            barrier
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(buffer: u64) -> Access {
        Access {
            buffer,
            writes: false,
        }
    }
    fn w(buffer: u64) -> Access {
        Access {
            buffer,
            writes: true,
        }
    }

    #[test]
    fn chain_needs_memory_barriers() {
        let p = plan(&[vec![r(1), w(2)], vec![r(2), w(3)], vec![r(3), w(4)]]);
        assert_eq!(p, vec![None, Some(vec![2]), Some(vec![3])]);
    }

    #[test]
    fn independent_dispatches_need_none() {
        let p = plan(&[vec![r(1), w(2)], vec![r(1), w(3)], vec![r(2 + 8), w(4)]]);
        assert_eq!(p, vec![None, None, None]);
    }

    #[test]
    fn write_after_read_is_execution_only() {
        let p = plan(&[vec![r(1), w(2)], vec![w(1)]]);
        assert_eq!(p, vec![None, Some(vec![])]);
    }

    #[test]
    fn write_after_write_is_a_memory_barrier() {
        let p = plan(&[vec![w(5)], vec![w(5)]]);
        assert_eq!(p, vec![None, Some(vec![5])]);
    }

    #[test]
    fn pending_write_survives_unrelated_barriers() {
        // 0 writes 1 and 2; 1 reads 2 (barrier lists 2 only); 2 reads 1: still needs 1.
        let p = plan(&[vec![w(1), w(2)], vec![r(2), w(3)], vec![r(1), w(4)]]);
        assert_eq!(p, vec![None, Some(vec![2]), Some(vec![1])]);
    }

    #[test]
    fn same_buffer_twice_in_one_dispatch() {
        // Bound as input and output at once: one access that writes.
        let p = plan(&[vec![r(7), w(7)], vec![r(7)]]);
        assert_eq!(p, vec![None, Some(vec![7])]);
    }

    #[test]
    fn reads_clear_after_any_barrier() {
        // 1 reads 9, 2 waits on 1's write of 2 (barrier), 3 writes 9: already ordered.
        let p = plan(&[vec![r(9), w(2)], vec![r(2)], vec![w(9)]]);
        assert_eq!(p, vec![None, Some(vec![2]), None]);
    }
}
