//! What tg's benchmark binaries share: inputs, medians, the run count, the MLP training
//! step that `tg-bench-train` times (and `tests/mlp_step.rs` checks), and the training
//! steps `tg-bench` and `tg-bench-train` time (`train`), and examples/tinygpt's generation,
//! step and attention figures `tg-bench-gpt` prints (`gpt`).

pub mod gpt;
pub mod mlp_step;
pub mod train;

use tg::prelude::*;

/// The median of `v` (the upper one of an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// A realized f32 input with values in [-1, 1), the same for the same `seed`.
pub fn input(shape: &[usize], seed: u32) -> DynTensor {
    let n: usize = shape.iter().product();
    let data: Vec<f32> = (0..n as u32)
        .map(|i| {
            ((i.wrapping_mul(2654435761) ^ seed.wrapping_mul(40503)) >> 8) as f32 / 8388608.0 - 1.0
        })
        .collect();
    let t = DynTensor::from_slice(shape, &data).expect("input");
    t.realize().expect("upload");
    t
}

/// Timed runs per figure: `TG_BENCH_RUNS`, default 5, at least 1.
pub fn runs() -> usize {
    std::env::var("TG_BENCH_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5)
        .max(1)
}
