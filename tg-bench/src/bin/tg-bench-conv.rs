//! `cargo run --release --bin tg-bench-conv`: convolution, pooling and normalization figures
//! for the selected device.
//!
//! Each figure is the median of a few realizes after one warm-up (pipelines compiled and
//! cached). GPU times come from timestamp queries (the sum over the op's kernels); wall times
//! include scheduling, codegen, cache lookups, recording, submit and wait. `TG_BENCH_RUNS`
//! sets the number of timed runs (default 3).

use tg::prelude::*;
use tg::runtime::device::Device;
use tg::runtime::realize_report;
use tg_bench::{input, median, runs};

/// (wall seconds, gpu seconds, kernels): medians over `runs` realizes of what `build` makes.
fn time(runs: usize, build: impl Fn() -> DynTensor) -> (f64, f64, usize) {
    let (mut wall, mut gpu, mut kernels) = (Vec::new(), Vec::new(), 0);
    for i in 0..runs + 1 {
        let y = build();
        let r = realize_report(&[y.lazy()], true).expect("realize");
        kernels = r.kernels.len();
        if i > 0 {
            wall.push(r.wall_ns as f64 * 1e-9);
            gpu.push(
                r.kernel_ns
                    .map(|k| k.iter().sum::<u64>() as f64 * 1e-9)
                    .unwrap_or(f64::NAN),
            );
        }
    }
    (median(wall), median(gpu), kernels)
}

fn row(name: &str, kernels: usize, value: String, wall: f64, gpu: f64) {
    println!(
        "| {name:<52} | {kernels:>7} | {value:>22} | {:>10.2} | {:>10.2} |",
        gpu * 1e3,
        wall * 1e3
    );
}

fn main() -> tg::Result<()> {
    let runs = runs();
    let dev = Device::get()?;
    println!("device: {}", dev.info());
    println!(
        "| {:<52} | {:>7} | {:>22} | {:>10} | {:>10} |",
        "measure", "kernels", "rate (gpu)", "gpu ms", "wall ms"
    );
    println!(
        "|{}|{}|{}|{}|{}|",
        "-".repeat(54),
        "-".repeat(9),
        "-".repeat(24),
        "-".repeat(12),
        "-".repeat(12)
    );

    // conv2d: (8, 64, 56, 56) * 64 filters of 3x3, padding 1 (a ResNet-18 stage-1 layer)
    let (n, c, h, w, cout, k) = (8usize, 64usize, 56usize, 56usize, 64usize, 3usize);
    let x = input(&[n, c, h, w], 1);
    let wt = input(&[cout, c, k, k], 2);
    let flops = 2.0 * (n * cout * c * k * k * h * w) as f64;
    for (name, alg) in [
        ("direct", ConvAlgorithm::Direct),
        ("Winograd", ConvAlgorithm::Winograd),
    ] {
        let conv = Conv::new().padding(1).algorithm(alg);
        let (wall, gpu, kernels) = time(runs, || x.conv2d(&wt, None, &conv).expect("conv2d"));
        row(
            &format!("conv2d (8,64,56,56) * (64,64,3,3) p1, {name}"),
            kernels,
            format!("{:.2} GFLOPS", flops / gpu * 1e-9),
            wall,
            gpu,
        );
    }

    // max_pool2d 3x3 stride 2 padding 1 on the same input: reads it once, writes a quarter
    let pool = Pool::new([3, 3]).stride(2).padding(1);
    let out = x.max_pool2d(&pool)?.numel();
    let bytes = 4.0 * (x.numel() + out) as f64;
    let (wall, gpu, kernels) = time(runs, || x.max_pool2d(&pool).expect("max_pool2d"));
    row(
        "max_pool2d (8,64,56,56) k3 s2 p1",
        kernels,
        format!("{:.2} GB/s", bytes / gpu * 1e-9),
        wall,
        gpu,
    );

    // layernorm over the last axis of (64, 1024): one read, one write
    let ln = input(&[64, 1024], 3);
    let bytes = 4.0 * 2.0 * ln.numel() as f64;
    let (wall, gpu, kernels) = time(runs, || ln.layernorm(&[-1], 1e-5).expect("layernorm"));
    row(
        "layernorm (64, 1024) over the last axis",
        kernels,
        format!("{:.2} GB/s", bytes / gpu * 1e-9),
        wall,
        gpu,
    );
    Ok(())
}
