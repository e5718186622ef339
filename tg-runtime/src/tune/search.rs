//! Timing a tiled kernel's candidate shapes on the device.
//!
//! Candidates run on scratch buffers of the kernel's sizes, filled with small integers: tg's
//! kernels have no data-dependent control flow, so what they read does not change how long
//! they take, and the realize that asked need not have computed its inputs yet. The default
//! runs first; the others follow, nearest the default's shape first, while the slowest
//! candidate so far would still finish within [`BUDGET`]. Every candidate computes each output with the same loop in the same order, so its
//! output must equal the default's bit for bit; one that differs is a codegen bug, reported
//! as [`Error::Internal`] rather than chosen.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::device::{Buffer, Device};
use crate::dtype::Scalar;
use crate::error::{Error, Result};
use crate::kernel::{Kernel, Strategy, buffer_bytes, tile_axes, tile_outputs};
use crate::prepare;
use crate::target::Target;

/// Time one kernel class's search may take, compiles included.
pub const BUDGET: Duration = Duration::from_secs(10);

/// Timed runs of a candidate (after a warm-up run); the median counts.
const RUNS: usize = 3;

/// A candidate whose warm-up run takes longer is timed once.
const LONG_RUN: Duration = Duration::from_millis(250);

/// Scratch bytes a search may allocate; a bigger kernel keeps its default.
const SCRATCH_LIMIT: u64 = 1 << 30;

/// A candidate replaces the default only when faster by more than this fraction: timings of
/// one kernel differ by a few percent from run to run.
const MARGIN: f64 = 0.05;

/// Rows per invocation a search tries.
const ROWS: [usize; 5] = [2, 4, 8, 16, 32];

/// Vectors of columns per row a search tries.
const COLS: [usize; 3] = [1, 2, 4];

/// Invocations per workgroup a search tries (at most the device's limit).
const THREADS: [u32; 3] = [64, 128, 256];

/// One candidate of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// The candidate.
    pub strategy: Strategy,
    /// Its median time in nanoseconds; `None` when it was not timed (the budget ran out, it
    /// would take more loop back-edges than the default, or no installed bundle holds it
    /// where nothing may compile).
    pub ns: Option<u64>,
}

/// What one search tried and chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// The kernel's name (with its default strategy).
    pub kernel: String,
    /// Every candidate, the default first.
    pub trials: Vec<Trial>,
    /// The one kept.
    pub chosen: Strategy,
    /// How long the search took.
    pub elapsed: Duration,
}

/// The tiles a kernel with output `shape` and default tile `default` may take, the default
/// first, then by distance from it (in rows and vectors a row, which matter most, then in
/// workgroup size): every power-of-two row count in `ROWS` (2 to 32) and vector count in
/// `COLS` (1 to 4) that an output axis takes and that leave at least one invocation, with
/// every workgroup size in `THREADS` (64, 128, 256) the device allows.
pub fn candidates(shape: &[usize], default: Strategy, max_threads: u32) -> Vec<Strategy> {
    let Strategy::Tile {
        rows,
        cols,
        threads,
    } = default
    else {
        return vec![default];
    };
    let numel: usize = shape.iter().product();
    let distance = |s: &Strategy| {
        let Strategy::Tile {
            rows: r,
            cols: c,
            threads: t,
        } = *s
        else {
            unreachable!("candidates are tiles")
        };
        let d = |a: usize, b: usize| a.ilog2().abs_diff(b.max(1).ilog2());
        (
            d(r, rows) + d(c, cols),
            d(t as usize, threads as usize),
            std::cmp::Reverse(r * c),
            std::cmp::Reverse(r),
            std::cmp::Reverse(t),
        )
    };
    let mut all: Vec<Strategy> = ROWS
        .iter()
        .flat_map(|&r| COLS.iter().map(move |&c| (r, c)))
        .filter(|&(r, c)| !tile_axes(shape, r, c).is_empty() && numel >= tile_outputs(r, c))
        .flat_map(|(rows, cols)| {
            THREADS
                .iter()
                .filter(|&&t| t <= max_threads)
                .map(move |&threads| Strategy::Tile {
                    rows,
                    cols,
                    threads,
                })
        })
        .filter(|&s| s != default)
        .collect();
    all.sort_by_key(distance);
    std::iter::once(default).chain(all).collect()
}

/// Times `k`'s candidates on `dev` and picks the fastest (the default unless another beats
/// it by more than [`MARGIN`]).
pub(super) fn search(dev: &Device, k: &Kernel) -> Result<Search> {
    let start = Instant::now();
    let target = &Target::of(dev.info());
    let default = prepare::lowered(k, target)?;
    let mut trials: Vec<Trial> = Vec::new();
    let candidates = candidates(
        k.body.shape(),
        k.strategy,
        dev.info().max_workgroup_invocations,
    );
    let bytes = |n: &crate::graph::node::Node| buffer_bytes(n);
    let scratch: u64 = bytes(&k.root) + k.inputs.iter().map(|i| bytes(i)).sum::<u64>();
    if scratch > SCRATCH_LIMIT {
        return Ok(Search {
            kernel: default.name.clone(),
            trials: candidates
                .into_iter()
                .map(|strategy| Trial { strategy, ns: None })
                .collect(),
            chosen: k.strategy,
            elapsed: start.elapsed(),
        });
    }
    let out = dev.alloc(bytes(&k.root))?;
    let inputs = k
        .inputs
        .iter()
        .map(|i| pattern(dev, i))
        .collect::<Result<Vec<_>>>()?;
    let out_bytes = k.root.numel() * k.root.dtype().size();
    let mut expected: Option<Vec<u8>> = None;
    let mut best: Option<(u64, Strategy)> = None;
    let mut default_ns = None;
    // the longest a candidate took (compile and runs): the next may take as long
    let mut slowest = std::time::Duration::ZERO;
    for strategy in candidates {
        if !trials.is_empty() && start.elapsed() + slowest > BUDGET {
            trials.push(Trial { strategy, ns: None });
            continue;
        }
        let began = Instant::now();
        let candidate = Kernel {
            strategy,
            ..k.clone()
        };
        if prepare::lowered(&candidate, target)?.shader.loops > default.shader.loops {
            trials.push(Trial { strategy, ns: None });
            continue;
        }
        let p = match prepare::prepare(dev, &candidate) {
            Ok((p, _)) => p,
            // without the compiler (or with TG_BUNDLE_ONLY) only the kernels the bundles
            // hold can run: the others are not candidates
            Err(e) if !trials.is_empty() && matches!(e.root(), Error::KernelNotInBundle { .. }) => {
                trials.push(Trial { strategy, ns: None });
                continue;
            }
            Err(e) => return Err(e),
        };
        let dispatch = prepare::dispatch(dev, &p, std::slice::from_ref(&out), &inputs)?;
        // the warm-up run writes over a sentinel, and its output is checked
        dev.write(&out, 0, &vec![0xa5u8; out_bytes])?;
        let run = || -> Result<u64> {
            let t = Instant::now();
            let report = dev.execute(std::slice::from_ref(&dispatch), true)?;
            Ok(match report.kernel_ns {
                Some(ns) => ns.iter().sum(),
                None => t.elapsed().as_nanos() as u64,
            })
        };
        let warm = Instant::now();
        run()?;
        // a long kernel's time varies little from run to run: one timed run will do
        let runs = if warm.elapsed() > LONG_RUN { 1 } else { RUNS };
        let mut got = vec![0u8; out_bytes];
        dev.read(&out, 0, &mut got)?;
        match &expected {
            None => expected = Some(got),
            Some(e) if *e != got => {
                return Err(Error::internal(
                    "tune",
                    format!(
                        "kernel {} with tile {strategy:?} computes other values than with {:?}",
                        default.name, k.strategy
                    ),
                ));
            }
            Some(_) => {}
        }
        let mut times = Vec::new();
        for _ in 0..runs {
            times.push(run()?);
            // far behind the best: its other runs would not change the choice
            if best.is_some_and(|(b, _)| 2 * times[0] > 3 * b) {
                break;
            }
        }
        times.sort_unstable();
        let ns = times[times.len() / 2];
        default_ns.get_or_insert(ns);
        if best.is_none_or(|(b, _)| ns < b) {
            best = Some((ns, strategy));
        }
        trials.push(Trial {
            strategy,
            ns: Some(ns),
        });
        slowest = slowest.max(began.elapsed());
    }
    let chosen = match (best, default_ns) {
        (Some((ns, s)), Some(d)) if (ns as f64) < (1.0 - MARGIN) * d as f64 => s,
        _ => k.strategy,
    };
    Ok(Search {
        kernel: default.name.clone(),
        trials,
        chosen,
        elapsed: start.elapsed(),
    })
}

/// A device buffer for input `n` holding small integers (-3 to 3) in its dtype: sums of
/// them are exact, and no float is a NaN or subnormal that would time a slow path.
fn pattern(dev: &Device, n: &crate::graph::node::Node) -> Result<Arc<Buffer>> {
    let bytes = buffer_bytes(n);
    let buf = dev.alloc(bytes)?;
    let dtype = n.dtype();
    let mut data: Vec<u8> = (0..n.numel() as i64)
        .flat_map(|i| {
            Scalar::from((i * 5 + 3) % 7 - 3)
                .cast(dtype)
                .to_le_bytes(dtype)
        })
        .collect();
    data.resize(bytes as usize, 0);
    if bytes > 0 {
        dev.write(&buf, 0, &data)?;
    }
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_start_with_the_default_and_fit_the_shape() {
        let tile = |rows, cols, threads| Strategy::Tile {
            rows,
            cols,
            threads,
        };
        let default = tile(4, 1, 256);
        let c = candidates(&[1024, 1024], default, 1024);
        assert_eq!(c[0], default);
        assert_eq!(c.len(), ROWS.len() * COLS.len() * THREADS.len());
        // nearest first: the same tile with a smaller workgroup, then the bigger neighbours
        // (8 rows, 2 vectors a row), then 2 rows
        assert_eq!(
            c[1..6],
            [
                tile(4, 1, 128),
                tile(4, 1, 64),
                tile(8, 1, 256),
                tile(4, 2, 256),
                tile(2, 1, 256)
            ]
        );
        // an output of 12 rows takes tiles of 2 and 4 rows only, a row of 24 columns runs of
        // 1 or 2 vectors; a device of 128 invocations
        let c = candidates(&[12, 24], default, 128);
        assert!(c[1..].iter().all(|s| matches!(
            s,
            Strategy::Tile {
                rows: 2 | 4,
                cols: 1 | 2,
                threads: 64 | 128
            }
        )));
        assert_eq!(c.len(), 1 + 2 * 2 * 2);
        // not a tile: nothing to search
        assert_eq!(
            candidates(&[8], Strategy::Serial, 256),
            vec![Strategy::Serial]
        );
    }
}
