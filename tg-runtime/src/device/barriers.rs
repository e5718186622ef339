//! Which barriers a sequence of dispatches needs, decided from the buffers each one reads and
//! writes. Kept apart from recording so the rules can be tested without a device.
//!
//! A `vkCmdPipelineBarrier` (compute to compute) orders execution of everything before it
//! against everything after it, but makes only the listed buffers' writes visible. So:
//! - read-after-write and write-after-write need a memory barrier on that buffer;
//! - write-after-read needs only the execution dependency (a barrier, possibly listing nothing);
//! - a write stays pending until a barrier lists its buffer, however many barriers pass.

/// What one dispatch does to one byte range `start..end` of one buffer's memory (a buffer and
/// its windows share one memory id). A buffer may appear more than once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Access {
    pub(crate) buffer: u64,
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) writes: bool,
}

/// A written byte range of a buffer's memory: (memory id, start, end).
pub(crate) type Region = (u64, u64, u64);

fn overlaps(a: &Region, b: &Region) -> bool {
    a.0 == b.0 && a.1 < b.2 && b.1 < a.2
}

/// The barrier to record before each dispatch: `None` for no barrier, or the written regions
/// that must be made visible (empty: an execution dependency only). Windows of one buffer
/// conflict only where their ranges overlap.
pub(crate) fn plan(dispatches: &[Vec<Access>]) -> Vec<Option<Vec<Region>>> {
    let mut pending_writes: Vec<Region> = Vec::new();
    let mut reads_since_barrier: Vec<Region> = Vec::new();
    dispatches
        .iter()
        .map(|accesses| {
            let regions: Vec<(Region, bool)> = accesses
                .iter()
                .map(|a| ((a.buffer, a.start, a.end), a.writes))
                .collect();
            let mut visible: Vec<Region> = pending_writes
                .iter()
                .filter(|p| regions.iter().any(|(r, _)| overlaps(p, r)))
                .copied()
                .collect();
            visible.sort_unstable();
            visible.dedup();
            let war = regions
                .iter()
                .any(|(r, w)| *w && reads_since_barrier.iter().any(|q| overlaps(q, r)));
            let barrier = (!visible.is_empty() || war).then(|| {
                pending_writes.retain(|p| !visible.contains(p));
                reads_since_barrier.clear();
                visible
            });
            for (r, writes) in regions {
                let list = if writes {
                    &mut pending_writes
                } else {
                    &mut reads_since_barrier
                };
                if !list.contains(&r) {
                    list.push(r);
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
            start: 0,
            end: 64,
            writes: false,
        }
    }
    fn w(buffer: u64) -> Access {
        Access {
            buffer,
            start: 0,
            end: 64,
            writes: true,
        }
    }

    /// The plan with regions as buffer ids.
    fn plan(dispatches: &[Vec<Access>]) -> Vec<Option<Vec<u64>>> {
        super::plan(dispatches)
            .into_iter()
            .map(|b| b.map(|v| v.into_iter().map(|r| r.0).collect()))
            .collect()
    }

    fn window(buffer: u64, start: u64, end: u64, writes: bool) -> Access {
        Access {
            buffer,
            start,
            end,
            writes,
        }
    }

    #[test]
    fn windows_conflict_only_where_they_overlap() {
        // two kernels write disjoint halves of one buffer, a third reads the first half
        let p = super::plan(&[
            vec![window(1, 0, 32, true)],
            vec![window(1, 32, 64, true)],
            vec![window(1, 0, 16, false)],
        ]);
        assert_eq!(p, vec![None, None, Some(vec![(1, 0, 32)])]);
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
