//! `cargo run --release --bin tg-bench-gpt`: examples/tinygpt's figures (`tg_bench::gpt`), all
//! in one process on the selected device:
//! - generation from a one-id prompt with the window padded to a few sizes and the length a
//!   var (`generate.rs`), cold then again (replays only), against the eager sample over the
//!   window of each exact length (new shapes, so new kernels, every token; fewer tokens:
//!   `TG_BENCH_EXACT_TOKENS`, default 12): shaders compiled, graphs built (recorded kernel
//!   sets, or eager graphs; the windows' uploads apart), tokens/s.
//!   Shaders found in the disk cache are not compiled: run with `TG_CACHE_DIR=off` for the
//!   cold counts;
//! - the training step (width 64, context 64, batch 16, AdamW) as the example's `#[kernel]`,
//!   CPU time per step (every thread of the process, lavapipe's included) against numpy's
//!   forward, backward and AdamW of the same model in float32 on one BLAS thread
//!   (`scripts/bench_tinygpt_numpy.py`, run as a child process; skipped, and said so, without
//!   python3 and numpy); `TG_BENCH_STEPS` timed steps (default 10); and its kernels against
//!   those tinygrad's scheduler makes of the same step (`scripts/tinygrad_gpt_kernels.py` on
//!   tinygrad's NULL device; skipped, and said so, without tinygrad);
//! - `scaled_dot_product_attention` (B 16, H 4, D 16; T 64 to `TG_BENCH_ATTN_T`, default
//!   256), causal, with a key-padding mask (bools, a row of keys a batch entry) and causal
//!   with dropout 0.1, forward, and forward with the gradients of q, k and v, against
//!   dropout(softmax(q k^T / sqrt(d) + mask)) v composed of ops; `TG_BENCH_RUNS` runs each
//!   (medians).
//!
//! `TG_BENCH_PARTS` picks parts by name (`generation`, `step`, `attention`, comma-separated;
//! all by default).

use tg::runtime::device::Device;
use tg_bench::gpt;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Whether `TG_BENCH_PARTS` (all parts when unset) names `part`.
fn part(part: &str) -> bool {
    std::env::var("TG_BENCH_PARTS").map_or(true, |p| p.split(',').any(|n| n.trim() == part))
}

fn generation(what: &str, g: gpt::Generation) {
    println!(
        "generation, {what:<34} {:>4} tokens {:>8.2} s {:>7.2} tokens/s {:>5} shaders compiled {:>4} graphs built {:>6} kernels",
        g.tokens,
        g.seconds,
        g.tokens as f64 / g.seconds,
        g.compiles,
        g.graphs,
        g.kernels
    );
}

fn main() {
    let device = Device::get().expect("device");
    println!("tg-bench-gpt on {}", device.info());

    if part("generation") {
        generations();
    }
    if part("step") {
        step();
    }
    if part("attention") {
        attention();
    }
}

fn generations() {
    let exact_tokens = env("TG_BENCH_EXACT_TOKENS", 12);
    let model = gpt::gpt(3);
    let cold = gpt::bucketed(&model, 200);
    generation("bucketed 8/16/32/64, cold", cold);
    let warm = gpt::bucketed(&model, 200);
    generation("bucketed, again (replays)", warm);
    let exact = gpt::exact(&model, exact_tokens);
    generation("exact length per token (eager)", exact);
    println!(
        "  per token: bucketed cold {:.1} ms, replayed {:.1} ms; exact length {:.1} ms ({:.2}x the replayed), {:.1} shaders compiled a token",
        cold.seconds * 1e3 / cold.tokens as f64,
        warm.seconds * 1e3 / warm.tokens as f64,
        exact.seconds * 1e3 / exact.tokens as f64,
        (exact.seconds / exact.tokens as f64) / (warm.seconds / warm.tokens as f64),
        exact.compiles as f64 / exact.tokens as f64
    );
}

fn step() {
    let steps = env("TG_BENCH_STEPS", 10).max(1);
    let (wall, cpu, kernels, loss) = gpt::step(steps);
    let cpu_text = cpu.map_or("no /proc: CPU time unknown".into(), |c| {
        format!("{c:.1} ms CPU")
    });
    println!(
        "tinygpt step d64 T64 b16, #[kernel]    {wall:>8.1} ms wall {cpu_text} a step, {kernels} kernels a step, last loss {loss:.4}"
    );
    match gpt::numpy_step(steps) {
        Ok((nwall, ncpu, nloss, version)) => {
            println!(
                "tinygpt step, numpy {version} f32 1 thread {nwall:>8.1} ms wall {ncpu:.1} ms CPU a step, last loss {nloss:.4}"
            );
            if let Some(c) = cpu {
                println!(
                    "  CPU time a step, tg / numpy: {:.2}x (wall {:.2}x)",
                    c / ncpu,
                    wall / nwall
                );
            }
        }
        Err(why) => println!("tinygpt step, numpy baseline skipped: {why}"),
    }
    match gpt::tinygrad_step_kernels() {
        Ok((count, version)) => println!(
            "tinygpt step, tinygrad {version} (NULL device) {count} kernels a step; tg / tinygrad: {:.2}x",
            kernels as f64 / count as f64
        ),
        Err(why) => println!("tinygpt step, tinygrad's kernel count skipped: {why}"),
    }
}

fn attention() {
    let max_t = env("TG_BENCH_ATTN_T", 256);
    let mut t = 64;
    while t <= max_t {
        for (padded, dropout) in [(false, 0.0), (true, 0.0), (false, 0.1)] {
            for backward in [false, true] {
                let (fused, composed) = gpt::attention(16, 4, t, 16, backward, padded, dropout);
                let masking = match (padded, dropout > 0.0) {
                    (true, _) => "padding",
                    (false, false) => "causal",
                    (false, true) => "causal, dropout 0.1",
                };
                println!(
                    "attention B16 H4 T{t:<4} D16 {masking:<19} {:<8} sdpa {fused:>9.2} ms   composed {composed:>9.2} ms   {:.2}x",
                    if backward { "fwd+bwd" } else { "forward" },
                    composed / fused
                );
            }
        }
        t *= 2;
    }
}
