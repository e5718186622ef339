//! `cargo run --release --bin tg-bench-train`: milliseconds per training step (forward,
//! backward, Adam) of the train_digits demo's CNN (batch 32, 8x8 images) and of a
//! 784-128-10 MLP (batch 64), run eagerly, replayed and as one `#[kernel]` function, and of
//! examples/tinygpt's GPT (width 64, context 64, batch 16; AdamW) eagerly and as the
//! example's `#[kernel]` step (`tg_bench::train`); with kernels per step, each figure's ratio to the eager step, and the
//! last step's loss (equal in every mode: the same initial parameters and batches), all in
//! one process on the selected device. `TG_BENCH_STEPS` sets the timed steps (default 20).

use tg::prelude::*;
use tg::runtime::device::Device;
use tg_bench::train::{
    Figures, cnn_eager_and_replayed, gpt_eager_and_kernel, kernel_cnn, kernel_mlp,
    mlp_eager_and_replayed,
};

fn row(model: &str, mode: &str, (ms, kernels, loss): Figures, eager: f64) {
    println!(
        "{model:<22} {mode:<10} {ms:>9.2} ms/step {kernels:>5} kernels/step {:>6.2}x eager   last loss {loss:.5}",
        eager / ms
    );
}

fn main() {
    let steps = std::env::var("TG_BENCH_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let device = Device::get().expect("device");
    println!(
        "tg-bench-train on {} ({steps} timed steps, medians)",
        device.info()
    );
    DynTensor::manual_seed(1);
    let [e, r] = cnn_eager_and_replayed(steps);
    row("digits CNN, batch 32", "eager", e, e.0);
    row("digits CNN, batch 32", "replayed", r, e.0);
    row("digits CNN, batch 32", "#[kernel]", kernel_cnn(steps), e.0);
    let [e, r] = mlp_eager_and_replayed(steps);
    row("MLP 784-128-10, b 64", "eager", e, e.0);
    row("MLP 784-128-10, b 64", "replayed", r, e.0);
    row("MLP 784-128-10, b 64", "#[kernel]", kernel_mlp(steps), e.0);
    let [e, k] = gpt_eager_and_kernel(steps);
    row("tinygpt d64 T64 b16", "eager", e, e.0);
    row("tinygpt d64 T64 b16", "#[kernel]", k, e.0);
}
