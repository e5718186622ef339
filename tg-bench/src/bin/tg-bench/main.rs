//! `cargo run --release --bin tg-bench`: one table of runtime figures on the selected device,
//! every tg row built through the public API a user calls (`DynTensor` ops, `realize`), each
//! with its ratio to a baseline measured in the same process: hand-written GLSL run through the
//! same device layer (`handwritten.rs`: a vec4 add, a two-pass subgroup sum, a register-blocked
//! matmul, a pre-recorded dispatch chain), the same computation with every step realized on
//! its own (the unfused schedule), the training step built eagerly, or the host.
//!
//! Figures are medians after a warm-up (pipelines compiled and cached). "gpu" figures come
//! from timestamp queries summed over the realize's kernels; "wall" figures time building the
//! graph, `realize` and `Device::synchronize`, so they include scheduling, codegen, cache lookups, recording,
//! submit and wait. `TG_BENCH_RUNS` sets the timed runs per row (default 3); `TG_BENCH_QUICK=1`
//! skips the 2048 matmuls and the 2^20 sort (minutes on lavapipe with a cold cache).

mod handwritten;

use std::time::Instant;

use tg::prelude::*;
use tg::runtime::device::Device;
use tg::runtime::realize_report;
use tg_bench::{input, median, runs};

const BIG: usize = 16 << 20;

/// Timings of one row: medians over the timed runs.
struct Timing {
    /// `realize` + `synchronize`, seconds.
    wall: f64,
    /// Sum of the kernels' timestamp intervals, seconds (NaN without timestamps).
    gpu: f64,
    /// Kernels of one realize.
    kernels: usize,
}

/// Realizes what `build` makes, once to warm up and `runs` times for each of the two clocks.
/// The wall clock includes `build` (graph building is part of a user's call, and the unfused
/// baselines realize their steps inside it); the gpu clock counts the final realize only.
fn time(runs: usize, build: impl Fn() -> DynTensor) -> Timing {
    time_all(runs, || vec![build()])
}

/// [`time`] for a build with several results, realized together.
fn time_all(runs: usize, build: impl Fn() -> Vec<DynTensor>) -> Timing {
    let dev = Device::get().expect("device");
    let (mut wall, mut gpu, mut kernels) = (Vec::new(), Vec::new(), 0);
    let lazies = |ys: &[DynTensor]| -> Vec<tg::runtime::Lazy> {
        ys.iter().map(|y| y.lazy().clone()).collect()
    };
    // Each result is dropped before the next is built: equal graphs are one hash-consed node,
    // so a live realized result would make the next build a no-op.
    for i in 0..=runs {
        {
            let t = Instant::now();
            let ys = lazies(&build());
            tg::runtime::realize(&ys.iter().collect::<Vec<_>>()).expect("realize");
            dev.synchronize().expect("synchronize");
            if i > 0 {
                wall.push(t.elapsed().as_secs_f64());
            }
        }
        let ys = lazies(&build());
        let r = realize_report(&ys.iter().collect::<Vec<_>>(), true).expect("realize");
        kernels = r.kernels.len();
        if i > 0 {
            gpu.push(
                r.kernel_ns
                    .map(|k| k.iter().sum::<u64>() as f64 * 1e-9)
                    .unwrap_or(f64::NAN),
            );
        }
    }
    Timing {
        wall: median(wall),
        gpu: median(gpu),
        kernels,
    }
}

/// One line of the table: what tg measured, the baseline and tg's ratio to it (higher is
/// better for tg whatever the unit).
fn row(name: &str, kernels: usize, tg: String, baseline: String, ratio: f64) {
    let ratio = if ratio.is_finite() {
        format!("{ratio:.2}x")
    } else {
        "-".into()
    };
    println!("| {name:<40} | {kernels:>7} | {tg:>22} | {baseline:>34} | {ratio:>7} |");
}

/// A row of two wall-clock timings of the same run: tg's and a baseline's (`what`), the
/// ratio the baseline's time over tg's.
fn against(name: &str, tg: &Timing, base: &Timing, what: &str) {
    row(
        name,
        tg.kernels,
        format!("{:.2} ms", tg.wall * 1e3),
        format!("{:.2} ms {what}", base.wall * 1e3),
        base.wall / tg.wall,
    );
}

/// A row whose measurement failed: the error is the figure.
fn failed(name: &str, e: impl std::fmt::Display) {
    println!(
        "| {name:<40} | {:>7} | {:>22} | {:>34} | {:>7} |",
        "-",
        format!("error: {e}"),
        "-",
        "-"
    );
}

#[kernel]
fn mlp_layer<const B: usize>(
    x: Tensor<shape![B, 784]>,
    w: Tensor<shape![784, 128]>,
    b: Tensor<shape![128]>,
) -> Tensor<shape![B, 128]> {
    (x.matmul(w) + b).relu()
}

fn mlp_plain<const B: usize>(
    x: &Tensor<Rank2<B, 784>>,
    w: &Tensor<Rank2<784, 128>>,
    b: &Tensor<Rank1<128>>,
) -> Tensor<Rank2<B, 128>> {
    (x.matmul(w) + b).relu()
}
/// Time per call of a 64x784 MLP layer with and without `#[kernel]`, inputs fresh each call.
fn kernel_figures() -> tg::Result<()> {
    let w = Tensor::<Rank2<784, 128>>::rand();
    let b = Tensor::<Rank1<128>>::rand();
    w.realize()?;
    b.realize()?;
    let input = |i: usize| -> tg::Result<Tensor<Rank2<64, 784>>> {
        let x = Tensor::<Rank2<64, 784>>::from_vec(
            (0..64 * 784)
                .map(|k| ((k + i) % 97) as f32 * 0.01)
                .collect(),
        )?;
        x.realize()?;
        Ok(x)
    };
    let first = {
        let x = input(0)?;
        let t = Instant::now();
        mlp_layer(x, w.clone(), b.clone()).realize()?;
        t.elapsed().as_secs_f64()
    };
    let mut steady = Vec::new();
    let mut plain = Vec::new();
    for i in 1..=60 {
        let x = input(i)?;
        let t = Instant::now();
        mlp_layer(x.clone(), w.clone(), b.clone()).realize()?;
        steady.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        mlp_plain(&x, &w, &b).realize()?;
        plain.push(t.elapsed().as_secs_f64());
    }
    let (steady, plain) = (median(steady), median(plain));
    row(
        "MLP layer 64x784x128, #[kernel] 1st call",
        1,
        format!("{:.2} ms", first * 1e3),
        "-".into(),
        f64::NAN,
    );
    row(
        "MLP layer 64x784x128, #[kernel] replay",
        1,
        format!("{:.3} ms", steady * 1e3),
        format!("{:.3} ms graph built each call", plain * 1e3),
        plain / steady,
    );
    Ok(())
}

fn main() -> tg::Result<()> {
    let runs = runs();
    let quick = std::env::var("TG_BENCH_QUICK").is_ok_and(|v| v == "1");
    let dev = Device::get()?;
    println!("device: {}", dev.info());
    println!(
        "| {:<40} | {:>7} | {:>22} | {:>34} | {:>7} |",
        "measure", "kernels", "tg", "baseline (same run)", "ratio"
    );
    println!(
        "|{}|{}|{}|{}|{}|",
        "-".repeat(42),
        "-".repeat(9),
        "-".repeat(24),
        "-".repeat(36),
        "-".repeat(9)
    );
    matmuls(runs, quick)?;
    memory_bound(runs)?;
    rows(runs)?;
    convolution(runs)?;
    if !quick {
        sort(runs)?;
    }
    gathers(runs)?;
    overhead()?;
    kernel_figures()?;
    training();
    println!(
        "gpu: timestamp queries around each dispatch (tens of us each on lavapipe); wall: build + realize + synchronize"
    );
    Ok(())
}

/// Square matmuls in f32 against the hand-written register-blocked kernel, and with f16
/// inputs against tg's own f32 figure of the same size.
fn matmuls(runs: usize, quick: bool) -> tg::Result<()> {
    for n in [256usize, 512, 1024, 2048] {
        if quick && n > 1024 {
            continue;
        }
        let flops = 2.0 * (n as f64).powi(3);
        let (a, b) = (input(&[n, n], 1), input(&[n, n], 2));
        let t = time(runs, || a.matmul(&b).expect("matmul"));
        let ours = flops / t.gpu * 1e-9;
        let hand = handwritten::matmul(n as u32, runs)?;
        row(
            &format!("matmul {n}^3 f32"),
            t.kernels,
            format!("{ours:.2} GFLOPS"),
            format!("{hand:.2} GFLOPS hand 4x4 blocked"),
            ours / hand,
        );
        let (a16, b16) = (a.cast(DType::F16), b.cast(DType::F16));
        match a16.realize().and_then(|_| b16.realize()) {
            Ok(_) => {
                let h = time(runs, || a16.matmul(&b16).expect("matmul"));
                let half = flops / h.gpu * 1e-9;
                row(
                    &format!("matmul {n}^3 f16"),
                    h.kernels,
                    format!("{half:.2} GFLOPS"),
                    format!("{ours:.2} GFLOPS tg f32"),
                    half / ours,
                );
            }
            Err(e) => failed(&format!("matmul {n}^3 f16"), e),
        }
    }
    Ok(())
}

/// The MLP and CNN training steps (forward, backward, Adam) as one `#[kernel]` each, against
/// the same step built eagerly every time (`tg_bench::train`; 10 timed steps, medians).
fn training() {
    use tg_bench::train::{
        Figures, cnn_eager_and_replayed, kernel_cnn, kernel_mlp, mlp_eager_and_replayed,
    };
    const STEPS: usize = 10;
    type Modes = (fn(usize) -> [Figures; 2], fn(usize) -> Figures);
    let models: [(&str, Modes); 2] = [
        (
            "MLP 784-128-10 b64 train step, #[kernel]",
            (mlp_eager_and_replayed, kernel_mlp),
        ),
        (
            "digits CNN b32 train step, #[kernel]",
            (cnn_eager_and_replayed, kernel_cnn),
        ),
    ];
    for (name, (eager, kernel)) in models {
        let [eager, _] = eager(STEPS);
        let (ms, kernels, _) = kernel(STEPS);
        row(
            name,
            kernels as usize,
            format!("{ms:.2} ms"),
            format!("{:.2} ms eager step", eager.0),
            eager.0 / ms,
        );
    }
}

/// add and whole-tensor sum of 16M f32, as a user writes them, against hand-written kernels;
/// a running sum of them against the add.
fn memory_bound(runs: usize) -> tg::Result<f64> {
    let (hand_add, hand_sum) = handwritten::baseline(BIG as u32)?;
    let (a, b) = (input(&[BIG], 1), input(&[BIG], 2));
    let mb = (BIG * 4) as f64;
    let t = time(runs, || a.add(&b).expect("add"));
    let add = 3.0 * mb / t.gpu * 1e-9;
    row(
        "add 16M f32 (a.add(&b))",
        t.kernels,
        format!("{add:.2} GB/s"),
        format!("{hand_add:.2} GB/s hand vec4 add"),
        add / hand_add,
    );
    let t = time(runs, || a.sum(None, false).expect("sum"));
    let sum = mb / t.gpu * 1e-9;
    match hand_sum {
        Some(hand) => row(
            "sum 16M f32 (a.sum(None, false))",
            t.kernels,
            format!("{sum:.2} GB/s"),
            format!("{hand:.2} GB/s hand subgroup 2-pass"),
            sum / hand,
        ),
        None => row(
            "sum 16M f32 (a.sum(None, false))",
            t.kernels,
            format!("{sum:.2} GB/s"),
            "no subgroup arithmetic".into(),
            f64::NAN,
        ),
    }
    // a running sum reads and writes each element once, in runs scanned in order
    let t = time(runs, || a.cumsum(0).expect("cumsum"));
    let scan = 2.0 * mb / t.gpu * 1e-9;
    row(
        "cumsum 16M f32 (a.cumsum(0))",
        t.kernels,
        format!("{scan:.2} GB/s, {:.1} ms", t.wall * 1e3),
        format!("{add:.2} GB/s tg add"),
        scan / add,
    );
    Ok(add)
}

/// One step of an unfused baseline: the op's result, realized on its own.
fn step(t: tg::Result<DynTensor>) -> DynTensor {
    let t = t.expect("unfused step");
    t.realize().expect("realize");
    t
}

/// softmax and layernorm over rows, fused, against the same ops realized one at a time;
/// GB/s counts the input read once and the output written once.
fn rows(runs: usize) -> tg::Result<()> {
    for shape in [[64usize, 1024], [4096, 1024]] {
        let x = input(&shape, 3);
        let bytes = 8.0 * x.numel() as f64;
        let name = |op: &str| format!("{op} ({}, {})", shape[0], shape[1]);
        let softmax = (
            "softmax",
            time(runs, || x.softmax(-1, None).expect("softmax")),
            time(runs, || {
                let m = step(x.max(Some(&[-1]), true));
                let e = step(x.sub(&m).and_then(|d| d.exp()));
                let s = step(e.sum(Some(&[-1]), true));
                e.div(&s).expect("div")
            }),
        );
        let layernorm = (
            "layernorm",
            time(runs, || x.layernorm(&[-1], 1e-5).expect("layernorm")),
            time(runs, || {
                let m = step(x.mean(Some(&[-1]), true));
                let d = step(x.sub(&m));
                let v = step(d.mul(&d).and_then(|q| q.mean(Some(&[-1]), true)));
                d.mul(v.add(1e-5f32).and_then(|q| q.rsqrt()).expect("rsqrt"))
                    .expect("scale")
            }),
        );
        for (op, fused, unfused) in [softmax, layernorm] {
            row(
                &name(op),
                fused.kernels,
                format!(
                    "{:.2} ms ({:.2} GB/s)",
                    fused.wall * 1e3,
                    bytes / fused.gpu * 1e-9
                ),
                format!("{:.2} ms unfused steps", unfused.wall * 1e3),
                unfused.wall / fused.wall,
            );
        }
    }
    Ok(())
}

/// conv2d (8,64,56,56) x 64 3x3 padding 1, direct and Winograd, against tg's own 1024 matmul
/// in the same run (the target: direct at least 0.7x).
fn convolution(runs: usize) -> tg::Result<()> {
    let n = 1024usize;
    let (a, b) = (input(&[n, n], 1), input(&[n, n], 2));
    let mm = 2.0 * (n as f64).powi(3) / time(runs, || a.matmul(&b).expect("matmul")).gpu * 1e-9;
    let x = input(&[8, 64, 56, 56], 4);
    let w = input(&[64, 64, 3, 3], 5);
    let flops = 2.0 * (8 * 64 * 64 * 9 * 56 * 56) as f64;
    let mut direct = 0.0;
    for (name, alg) in [
        ("direct", ConvAlgorithm::Direct),
        ("Winograd", ConvAlgorithm::Winograd),
    ] {
        let conv = Conv::new().padding(1).algorithm(alg);
        let t = time(runs, || x.conv2d(&w, None, &conv).expect("conv2d"));
        let ours = flops / t.gpu * 1e-9;
        if alg == ConvAlgorithm::Direct {
            direct = ours;
        }
        row(
            &format!("conv2d (8,64,56,56)x64 3x3, {name}"),
            t.kernels,
            format!("{ours:.2} GFLOPS"),
            format!("{mm:.2} GFLOPS tg matmul 1024"),
            ours / mm,
        );
    }
    // the backward pass a training step runs: the input's and the weight's gradients (twice
    // the forward's multiply-adds), given the output's gradient
    let g = input(&[8, 64, 56, 56], 6);
    let conv = Conv::new().padding(1);
    let t = time_all(runs, || {
        let y = x.conv2d(&w, None, &conv).expect("conv2d");
        y.gradient(&[&x, &w], Some(&g)).expect("gradient")
    });
    let back = 2.0 * flops / t.gpu * 1e-9;
    row(
        "conv2d 3x3 backward (input + weight)",
        t.kernels,
        format!("{back:.2} GFLOPS"),
        format!("{direct:.2} GFLOPS tg direct forward"),
        back / direct,
    );
    Ok(())
}

/// sort of 2^20 f32 (values and indices) against the host's stable sort of the same data, and
/// topk 16 of the same row against that sort.
fn sort(runs: usize) -> tg::Result<()> {
    let n = 1usize << 20;
    let x = input(&[n], 6);
    let t = time(runs, || x.sort(0, false).expect("sort").0);
    let host = x.to_vec::<f32>()?;
    let mut times = Vec::new();
    for _ in 0..runs {
        let mut v = host.clone();
        let s = Instant::now();
        v.sort_by(|a, b| a.total_cmp(b));
        times.push(s.elapsed().as_secs_f64());
    }
    let cpu = median(times);
    row(
        "sort 2^20 f32 (values)",
        t.kernels,
        format!("{:.1} ms", t.wall * 1e3),
        format!("{:.1} ms host sort_by, 1 core", cpu * 1e3),
        cpu / t.wall,
    );
    // topk's partial network against the whole sort it replaces (the first 16 of the sort)
    let top = time(runs, || x.topk(16, 0, true).expect("topk").0);
    against(
        "topk 2^20 f32, k = 16 (values)",
        &top,
        &t,
        "tg sort, whole row",
    );
    Ok(())
}

/// Reads at positions held in tensors, against the one-hot compositions they replaced, in the
/// same run: an embedding lookup (tg::nn::Embedding, a gather) and its table's gradient
/// against a one-hot matmul; masked_select (a binary search per output over the running
/// count, then a gather) against a pick of the element whose running count matches.
fn gathers(runs: usize) -> tg::Result<()> {
    let (vocab, dim, n) = (8192usize, 128usize, 1024usize);
    let mut table = tg::nn::Embedding::new(vocab, dim)?;
    table.weight = input(&[vocab, dim], 7);
    let ids: Vec<i32> = (0..n as u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 7) as i32 % vocab as i32)
        .collect();
    let ids = DynTensor::from_slice(&[n], &ids)?;
    ids.realize()?;
    let one_hot = |w: &DynTensor| {
        ids.one_hot(vocab)
            .and_then(|h| h.cast(DType::F32).matmul(w))
            .expect("one-hot matmul")
    };
    let fwd = time(runs, || table.forward(&ids).expect("embedding"));
    let base = time(runs, || one_hot(&table.weight));
    against(
        &format!("embedding {vocab}x{dim}, {n} ids"),
        &fwd,
        &base,
        "one-hot matmul",
    );
    let seed = input(&[n, dim], 8);
    let w = table.weight.clone();
    let grad = |y: DynTensor| y.gradient(&[&w], Some(&seed)).expect("gradient").remove(0);
    let bwd = time(runs, || grad(table.forward(&ids).expect("embedding")));
    let base = time(runs, || grad(one_hot(&w)));
    against("embedding table gradient", &bwd, &base, "one-hot matmul's");
    let (n, size) = (1usize << 16, 1usize << 15);
    let x = input(&[n], 5);
    let mask = x.gt(0.0)?;
    mask.realize()?;
    let packed = time(runs, || {
        x.masked_select_sized(&mask, size, 0.0)
            .expect("masked_select")
    });
    let picked = time(runs, || {
        let running = mask.cast(DType::I32).cumsum(0).expect("cumsum");
        let k = DynTensor::arange(1, size as i64 + 1, 1, Some(DType::I32)).expect("arange");
        let hit = running
            .reshape(&[1, n as isize])
            .and_then(|r| r.eq(&k.reshape(&[size as isize, 1])?))
            .and_then(|h| h.logical_and(&mask.reshape(&[1, n as isize])?))
            .expect("one-hot");
        hit.where_(x.reshape(&[1, n as isize]).expect("row"), 0.0)
            .and_then(|v| v.sum(Some(&[1]), false))
            .expect("pick")
    });
    against(
        "masked_select 2^16 -> 2^15 f32",
        &packed,
        &picked,
        "one-hot pick",
    );
    Ok(())
}

/// Per-kernel cost of a realize: a 1-kernel round trip, and a 100-kernel chain in one
/// submit against the same number of pre-recorded hand-written dispatches.
fn overhead() -> tg::Result<()> {
    let mut rt = Vec::new();
    let one = DynTensor::from_slice(&[4], &[1.0f32, 2.0, 3.0, 4.0])?;
    one.realize()?;
    for i in 0..220 {
        let t = Instant::now();
        let v = one.add(1.0f32)?.to_vec::<f32>()?;
        if i >= 20 {
            rt.push(t.elapsed().as_secs_f64());
        }
        assert_eq!(v[3], 5.0);
    }
    let floor = handwritten::dispatch_floor(1)?;
    let rt = median(rt) * 1e6;
    row(
        "1-kernel realize + read back (wall)",
        1,
        format!("{rt:.1} us"),
        format!("{floor:.1} us hand dispatch"),
        floor / rt,
    );
    let start = input(&[1024], 7);
    let t = time(3, || {
        let mut x = start.clone();
        for _ in 0..100 {
            x = x
                .mul(1.0001f32)
                .and_then(|y| y.add(0.5f32))
                .expect("op")
                .contiguous();
        }
        x
    });
    let per = t.wall / t.kernels as f64 * 1e6;
    let floor = handwritten::dispatch_floor(t.kernels)?;
    row(
        "dispatch overhead, 100-kernel chain",
        t.kernels,
        format!("{per:.1} us/kernel"),
        format!("{floor:.1} us/kernel hand, prerecorded"),
        floor / per,
    );
    Ok(())
}
