//! Which buffers a recording's replays write their intermediates into: values whose
//! lifetimes within one call do not overlap share a buffer of the recording's arena.
//!
//! A replay allocates nothing for what no one outside the call sees: its kernels write into
//! the arena, allocated by the first replay and kept. With a buffer per kernel, the arena
//! holds every intermediate of the step at once. A language model's prefill dequantizes each
//! layer's weights to f32 before its products (from 64 rows on, `schedule/reuse.rs`), so it
//! held every layer's (4.2x the file's tensor bytes for a 4-bit model). Planned as realize
//! recycles buffers past the device's room (`recycle::plan`, here with no room and buffers
//! sized after planning), it holds about one layer's.
//!
//! Pure planning over the recorded slots, testable without a device.

use std::collections::HashMap;

use super::record::{Out, Slot};
use super::recycle;
use crate::error::{Error, Result};

/// The fresh output a slot's buffer was allocated as: an output written in place into an
/// earlier kernel's is that one's buffer. `None` for a call input or a captured buffer.
fn root(outs: &[Vec<Out>], slot: &Slot) -> Option<(usize, usize)> {
    let mut at = match slot {
        Slot::Kernel(k, j) => (*k, *j),
        Slot::Input(_) | Slot::Fixed(_) => return None,
    };
    loop {
        match &outs[at.0][at.1] {
            Out::Into(Slot::Kernel(k, j)) => at = (*k, *j),
            Out::Into(Slot::Input(_) | Slot::Fixed(_)) => return None,
            Out::Fresh(_) | Out::Returned(_) | Out::Arena(_) => return Some(at),
        }
    }
}

/// Turns each kernel's fresh outputs (`outs`, by kernel; `inputs`, the slots each reads) into
/// buffers returned to the caller (those the call's `outputs` resolve to, allocated anew
/// each call) or arena buffers, and returns the arena's sizes.
///
/// Each fresh output is a step of `recycle::plan`: it may take over a buffer whose every use
/// (a read, or a write in place into it) came before. A kernel's outputs are steps that all
/// use what the kernel uses (so none takes over its inputs or a sibling), and a kernel that
/// writes only in place is a step of no bytes, so that its uses count too.
pub(super) fn plan(
    outs: &mut [Vec<Out>],
    inputs: &[&[Slot]],
    outputs: &[Slot],
) -> Result<Vec<u64>> {
    let returned: Vec<(usize, usize)> = outputs.iter().filter_map(|s| root(outs, s)).collect();
    let mut steps: Vec<recycle::Step> = Vec::new();
    // the step of each fresh output, and the fresh output of each step
    let mut step_of: HashMap<(usize, usize), usize> = HashMap::new();
    let mut fresh: Vec<Option<(usize, usize)>> = Vec::new();
    for (k, (written, read)) in outs.iter().zip(inputs).enumerate() {
        let into = written.iter().filter_map(|o| match o {
            Out::Into(s) => Some(s),
            _ => None,
        });
        let mut uses: Vec<usize> = read
            .iter()
            .chain(into)
            .filter_map(|s| root(outs, s))
            .filter_map(|r| step_of.get(&r).copied())
            .collect();
        uses.sort_unstable();
        uses.dedup();
        let before = steps.len();
        for (j, out) in written.iter().enumerate() {
            if let Out::Fresh(bytes) = out {
                let kept = returned.contains(&(k, j));
                step_of.insert((k, j), steps.len());
                fresh.push(Some((k, j)));
                steps.push(recycle::Step {
                    bytes: *bytes,
                    reads: uses.clone(),
                    recyclable: !kept,
                    takes_over: !kept,
                });
            }
        }
        if steps.len() == before {
            fresh.push(None);
            steps.push(recycle::Step {
                bytes: 0,
                reads: uses,
                recyclable: false,
                takes_over: false,
            });
        }
    }
    let plan = recycle::plan(&steps, 0, recycle::Fit::Grow);
    let mut buffer_of_step: Vec<Option<usize>> = vec![None; steps.len()];
    let mut arena_bytes: Vec<u64> = Vec::new();
    for (i, planned) in plan.outs.iter().enumerate() {
        let Some((k, j)) = fresh[i] else { continue };
        let bytes = steps[i].bytes;
        // a fresh output that may not take a buffer over is one the call returns
        outs[k][j] = if !steps[i].takes_over {
            Out::Returned(bytes)
        } else {
            let b = match *planned {
                recycle::Out::Reuse(earlier) => buffer_of_step[earlier].ok_or_else(|| {
                    // returned outputs and kernels that write only in place are not
                    // recyclable, so the plan hands on only arena buffers
                    Error::internal("record", format!("step {earlier} has no arena buffer"))
                })?,
                recycle::Out::Fresh => {
                    arena_bytes.push(0);
                    arena_bytes.len() - 1
                }
            };
            arena_bytes[b] = arena_bytes[b].max(bytes);
            buffer_of_step[i] = Some(b);
            Out::Arena(b)
        };
    }
    Ok(arena_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where each kernel's outputs went: `Some(i)` for arena buffer `i`, `None` for returned
    /// or written in place.
    fn placed(outs: &[Vec<Out>]) -> Vec<Vec<Option<usize>>> {
        outs.iter()
            .map(|o| {
                o.iter()
                    .map(|o| match o {
                        Out::Arena(i) => Some(*i),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    }

    fn run(outs: &mut [Vec<Out>], inputs: &[Vec<Slot>], outputs: &[Slot]) -> Vec<u64> {
        let inputs: Vec<&[Slot]> = inputs.iter().map(|i| i.as_slice()).collect();
        plan(outs, &inputs, outputs).unwrap()
    }

    #[test]
    fn layers_that_each_make_a_large_value_share_its_buffer() {
        // per layer: a weight dequantized (1000 bytes, reads nothing of the call), its
        // product with the stream (10 bytes), which the next layer reads
        let layers = 6;
        let mut outs = Vec::new();
        let mut inputs = Vec::new();
        for l in 0..layers {
            outs.push(vec![Out::Fresh(1000)]);
            inputs.push(vec![]);
            outs.push(vec![Out::Fresh(10)]);
            let stream = if l == 0 {
                Slot::Input(0)
            } else {
                Slot::Kernel(2 * l - 1, 0)
            };
            inputs.push(vec![stream, Slot::Kernel(2 * l, 0)]);
        }
        let last = Slot::Kernel(2 * layers - 1, 0);
        let bytes = run(&mut outs, &inputs, &[last]);
        // one weight buffer, two for the stream (a product reads the one before it)
        assert_eq!(bytes.iter().sum::<u64>(), 1000 + 2 * 10);
        assert!(matches!(outs[2 * layers - 1][0], Out::Returned(10)));
    }

    #[test]
    fn a_value_grows_a_smaller_free_buffer_but_takes_no_much_larger_one() {
        let mut outs = vec![
            vec![Out::Fresh(100)],
            vec![Out::Fresh(4)],
            vec![Out::Fresh(300)],
            vec![Out::Fresh(8)],
            vec![Out::Fresh(4)],
        ];
        // 1 reads 0; 2 reads 1 (0 is free: grown to 300); 3 reads 2 (1 is free, at 4 it is
        // grown to 8); 4 reads 3, and only 2's 300 bytes are free: too large, so it is fresh
        let inputs = vec![
            vec![],
            vec![Slot::Kernel(0, 0)],
            vec![Slot::Kernel(1, 0)],
            vec![Slot::Kernel(2, 0)],
            vec![Slot::Kernel(3, 0)],
        ];
        let bytes = run(&mut outs, &inputs, &[Slot::Input(0)]);
        assert_eq!(
            placed(&outs),
            vec![
                vec![Some(0)],
                vec![Some(1)],
                vec![Some(0)],
                vec![Some(1)],
                vec![Some(2)]
            ]
        );
        assert_eq!(bytes, vec![300, 8, 4]);
    }

    #[test]
    fn a_kernel_that_writes_only_in_place_keeps_what_it_reads() {
        // 0 makes a value; 1 makes another; 2 writes a captured buffer in place from 0's
        let mut outs = vec![
            vec![Out::Fresh(64)],
            vec![Out::Fresh(64)],
            vec![Out::Into(Slot::Input(0))],
            vec![Out::Fresh(64)],
        ];
        let inputs = vec![
            vec![],
            vec![],
            vec![Slot::Kernel(0, 0)],
            vec![Slot::Kernel(1, 0)],
        ];
        run(&mut outs, &inputs, &[Slot::Input(0)]);
        let p = placed(&outs);
        assert_ne!(p[0], p[1], "0's value is read after 1 is written");
        assert_eq!(p[3], p[0], "after the in-place write, 0's buffer is free");
    }

    #[test]
    fn a_kernels_outputs_take_neither_each_other_nor_what_it_reads() {
        let mut outs = vec![
            vec![Out::Fresh(32)],
            vec![Out::Fresh(32), Out::Fresh(32)],
            vec![Out::Fresh(32)],
        ];
        let inputs = vec![
            vec![],
            vec![Slot::Kernel(0, 0)],
            vec![Slot::Kernel(1, 0), Slot::Kernel(1, 1)],
        ];
        run(&mut outs, &inputs, &[Slot::Input(0)]);
        let p = placed(&outs);
        assert_eq!(p[1], vec![Some(1), Some(2)]);
        assert_eq!(p[2], vec![Some(0)]);
    }

    #[test]
    fn an_output_returned_through_an_in_place_write_is_the_callers_own() {
        // 1 writes into 0's buffer and the call returns 1's output: 0's buffer is returned,
        // so a later call must not find the caller's tensor in the arena
        let mut outs = vec![
            vec![Out::Fresh(16)],
            vec![Out::Into(Slot::Kernel(0, 0))],
            vec![Out::Fresh(16)],
        ];
        let inputs = vec![vec![], vec![Slot::Kernel(0, 0)], vec![Slot::Kernel(1, 0)]];
        let bytes = run(&mut outs, &inputs, &[Slot::Kernel(1, 0)]);
        assert!(matches!(outs[0][0], Out::Returned(16)));
        assert!(matches!(outs[2][0], Out::Arena(0)));
        assert_eq!(bytes, vec![16]);
    }
}
