//! Which kernels of a realize write into an intermediate buffer that an earlier kernel wrote
//! and every reader is done with, so that a long schedule fits the device's memory.
//!
//! Each kernel writes a buffer of its own, and all of them live until the one submit
//! completes, so a schedule of many large intermediates needs their sum at once: a sort's
//! network of 2^21 pairs is over 100 kernels of 16 MiB, more than lavapipe's 2 GiB heap. Past
//! the room the device has, a kernel instead takes a buffer of its size whose last reader
//! comes before it (the barrier plan orders the write after those reads). The kernel that
//! wrote such a buffer first is then not published: its node stays lazy, sources kept, so a
//! later use recomputes it rather than reading what the later kernel wrote. Below the room
//! nothing changes, and every intermediate is published as before.
//!
//! Pure planning over sizes and indices, testable without a device.

/// One kernel of the schedule, in order.
#[derive(Clone, Debug)]
pub(crate) struct Step {
    /// Bytes of its output buffer.
    pub(crate) bytes: u64,
    /// The earlier kernels it reads (by index).
    pub(crate) reads: Vec<usize>,
    /// Whether its buffer may go on to a later kernel once read: an intermediate nothing
    /// outside the schedule reads (not a target, an in-place write or an alias's owner; in a
    /// recording's arena, not an output the call returns).
    pub(crate) recyclable: bool,
    /// Whether it may take over a free buffer (a recording's output returned to the caller
    /// needs one of its own each call).
    pub(crate) takes_over: bool,
}

/// Which free buffers a kernel may take over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fit {
    /// Only one of its own size: realize's buffers exist already, and a published buffer's
    /// size is its node's.
    Exact,
    /// The smallest that holds its bytes without being twice as large, else the largest
    /// smaller one, grown; a value never takes a much larger buffer, which a long-lived small
    /// value would then keep from the large ones. A recording's arena is allocated after it
    /// is planned, each buffer at the largest size it holds.
    Grow,
}

/// Where a kernel writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Out {
    /// A buffer allocated for it.
    Fresh,
    /// The buffer kernel `k` wrote (every reader of it comes earlier).
    Reuse(usize),
}

/// The plan of a schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// Where each kernel writes.
    pub(crate) outs: Vec<Out>,
    /// Kernels whose buffer a later kernel takes over: not published.
    pub(crate) handed_on: Vec<bool>,
}

impl Plan {
    /// Every kernel writes a fresh buffer, and every one is published.
    pub(crate) fn all_fresh(kernels: usize) -> Plan {
        Plan {
            outs: vec![Out::Fresh; kernels],
            handed_on: vec![false; kernels],
        }
    }
}

/// Plans `steps` with `room` bytes for fresh buffers: fresh ones while they fit, then a free
/// buffer that `fit` allows where there is one (else fresh: the allocation then reports what
/// does not fit).
pub(crate) fn plan(steps: &[Step], room: u64, fit: Fit) -> Plan {
    let n = steps.len();
    let mut last_read: Vec<Option<usize>> = vec![None; n];
    for (j, s) in steps.iter().enumerate() {
        for &i in &s.reads {
            last_read[i] = Some(j);
        }
    }
    // buffers that become free once kernel j is recorded
    let mut frees_after: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, s) in steps.iter().enumerate() {
        if let (true, Some(r)) = (s.recyclable, last_read[i]) {
            frees_after[r].push(i);
        }
    }
    let mut free: Vec<usize> = Vec::new();
    // the size of the buffer each kernel writes: its own bytes, or under `Fit::Grow` the
    // largest the buffer held so far
    let mut size: Vec<u64> = steps.iter().map(|s| s.bytes).collect();
    let mut fresh = 0u64;
    let mut plan = Plan::all_fresh(n);
    for (j, s) in steps.iter().enumerate() {
        let reuse = if s.takes_over && fresh.saturating_add(s.bytes) > room {
            match fit {
                Fit::Exact => free.iter().position(|&k| size[k] == s.bytes),
                Fit::Grow => {
                    let at = |p: &usize| size[free[*p]];
                    let holds = (0..free.len())
                        .filter(|p| (s.bytes..=s.bytes.saturating_mul(2)).contains(&at(p)))
                        .min_by_key(at);
                    let grows = || (0..free.len()).filter(|p| at(p) < s.bytes).max_by_key(at);
                    holds.or_else(grows)
                }
            }
        } else {
            None
        };
        match reuse {
            Some(p) => {
                let k = free.swap_remove(p);
                plan.handed_on[k] = true;
                plan.outs[j] = Out::Reuse(k);
                fresh = fresh.saturating_add(s.bytes.saturating_sub(size[k]));
                size[j] = size[k].max(s.bytes);
            }
            None => fresh = fresh.saturating_add(s.bytes),
        }
        free.extend(&frees_after[j]);
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain: kernel i reads kernel i - 1.
    fn chain(n: usize, bytes: u64) -> Vec<Step> {
        (0..n)
            .map(|i| Step {
                bytes,
                reads: if i == 0 { vec![] } else { vec![i - 1] },
                recyclable: i + 1 < n,
                takes_over: true,
            })
            .collect()
    }

    #[test]
    fn within_the_room_every_kernel_writes_a_fresh_buffer() {
        let p = plan(&chain(5, 100), 500, Fit::Exact);
        assert!(p.outs.iter().all(|o| *o == Out::Fresh));
        assert!(p.handed_on.iter().all(|h| !h));
    }

    #[test]
    fn past_the_room_a_chain_alternates_between_buffers_its_readers_are_done_with() {
        let p = plan(&chain(6, 100), 250, Fit::Exact);
        // 0 and 1 fresh; 2 may not reuse 1 (it reads it) but takes 0, whose reader (1) is
        // recorded; then 3 takes 1's, 4 takes 2's (the buffer that was 0's) ...
        assert_eq!(
            p.outs,
            vec![
                Out::Fresh,
                Out::Fresh,
                Out::Reuse(0),
                Out::Reuse(1),
                Out::Reuse(2),
                Out::Reuse(3)
            ]
        );
        assert_eq!(p.handed_on, vec![true, true, true, true, false, false]);
    }

    #[test]
    fn buffers_go_on_only_at_their_own_size_and_once_every_reader_is_recorded() {
        let steps = vec![
            Step {
                bytes: 100,
                reads: vec![],
                recyclable: true,
                takes_over: true,
            },
            Step {
                bytes: 60,
                reads: vec![0],
                recyclable: true,
                takes_over: true,
            },
            // reads 0 again: 0 is not free before this kernel is recorded
            Step {
                bytes: 100,
                reads: vec![0, 1],
                recyclable: false,
                takes_over: true,
            },
            // 1 is free but smaller; 0 is free and fits
            Step {
                bytes: 100,
                reads: vec![2],
                recyclable: false,
                takes_over: true,
            },
        ];
        let p = plan(&steps, 0, Fit::Exact);
        assert_eq!(
            p.outs,
            vec![Out::Fresh, Out::Fresh, Out::Fresh, Out::Reuse(0)]
        );
        assert_eq!(p.handed_on, vec![true, false, false, false]);
    }

    #[test]
    fn targets_and_buffers_nothing_reads_are_kept() {
        let mut steps = chain(4, 100);
        steps[1].recyclable = false; // a target the chain passes through
        let p = plan(&steps, 0, Fit::Exact);
        assert_eq!(
            p.outs,
            vec![Out::Fresh, Out::Fresh, Out::Reuse(0), Out::Fresh]
        );
        assert_eq!(p.handed_on, vec![true, false, false, false]);
    }
}
