//! `cargo run --release --bin tg-bench`: runtime figures for the selected device.
//!
//! Each figure is the median of several runs after warm-up (pipelines compiled and cached).
//! GPU times come from timestamp queries; wall times include scheduling, codegen, cache
//! lookups, recording, submit and wait. The add and the sum are compared with hand-written
//! GLSL run on the same device (`handwritten.rs`); the round trip with the 110 us a
//! pre-recorded hand-written dispatch took on lavapipe on a 2-core machine.

mod handwritten;

use std::time::Instant;

use tg::prelude::*;
use tg::runtime::device::Device;
use tg::runtime::{BinaryOp, DType, Lazy, ReduceOp, UnaryOp, realize_report};

const BIG: usize = 16 << 20;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// (wall seconds, gpu seconds) medians of `runs` realizes of the graph `build` makes. Wall
/// times come from runs without timestamp queries, which cost lavapipe about 30 us per
/// dispatch; GPU times from runs with them.
fn time(runs: usize, warmup: usize, build: impl Fn() -> Lazy) -> (f64, f64, usize) {
    let mut wall = Vec::new();
    let mut gpu = Vec::new();
    let mut kernels = 0;
    for timing in [false, true] {
        for i in 0..runs + warmup {
            let x = build();
            let r = realize_report(&[&x], timing).expect("realize");
            kernels = r.kernels.len();
            if i < warmup {
                continue;
            }
            match r.kernel_ns.filter(|_| timing) {
                Some(k) => gpu.push(k.iter().sum::<u64>() as f64 * 1e-9),
                None if timing => gpu.push(f64::NAN),
                None => wall.push(r.wall_ns as f64 * 1e-9),
            }
        }
    }
    (median(wall), median(gpu), kernels)
}

fn big_input(seed: u32) -> Lazy {
    let data: Vec<f32> = (0..BIG)
        .map(|i| ((i as u32).wrapping_mul(2654435761) ^ seed) as f32 * 2.3e-10)
        .collect();
    let x = Lazy::from_slice(&[BIG], &data).expect("input");
    x.realize().expect("upload");
    x
}

fn row(name: &str, value: String, reference: impl std::fmt::Display) {
    println!("| {name:<44} | {value:>24} | {reference:>18} |");
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
    row(
        "#[kernel] MLP 64x784x128: first call",
        format!("{:.2} ms", first * 1e3),
        "-",
    );
    row(
        "#[kernel] MLP 64x784x128: steady call",
        format!("{:.3} ms", median(steady) * 1e3),
        "-",
    );
    row(
        "same without #[kernel] (graph each call)",
        format!("{:.3} ms", median(plain) * 1e3),
        "-",
    );
    Ok(())
}

fn main() -> tg::Result<()> {
    let dev = Device::get()?;
    println!("device: {}", dev.info());
    println!("| {:<44} | {:>24} | {:>18} |", "measure", "tg", "reference");
    println!("|{}|{}|{}|", "-".repeat(46), "-".repeat(26), "-".repeat(20));

    // round trip of a 1-kernel realize, including reading the result back
    let mut rt = Vec::new();
    for i in 0..220 {
        let x = Lazy::from_slice(&[4], &[1.0f32, 2.0, 3.0, 4.0])?;
        x.realize()?;
        let t = Instant::now();
        let y = x.binary(
            BinaryOp::Add,
            &Lazy::constant(1.0f32, DType::F32, &[4]).unwrap(),
        )?;
        let v = y.to_vec::<f32>()?;
        if i >= 20 {
            rt.push(t.elapsed().as_secs_f64());
        }
        assert_eq!(v[3], 5.0);
    }
    row(
        "1-kernel realize round trip (wall)",
        format!("{:.1} us", median(rt) * 1e6),
        "110 us prerecorded",
    );

    // a 100-kernel chain that cannot fuse, one submit
    let (wall, gpu, k) = time(10, 3, || {
        let mut x = Lazy::from_slice(&[1024], &vec![1.0f32; 1024]).expect("input");
        for _ in 0..100 {
            x = x
                .binary(
                    BinaryOp::Mul,
                    &Lazy::constant(1.0001f32, DType::F32, &[1024]).unwrap(),
                )
                .and_then(|y| {
                    y.binary(
                        BinaryOp::Add,
                        &Lazy::constant(0.5f32, DType::F32, &[1024]).unwrap(),
                    )
                })
                .expect("op")
                .contiguous();
        }
        x
    });
    row(
        &format!("{k}-kernel chain: per kernel (wall / gpu*)"),
        format!(
            "{:.1} / {:.1} us",
            wall / k as f64 * 1e6,
            gpu / k as f64 * 1e6
        ),
        format!("{:.1} us hand-written", handwritten::dispatch_floor(k)?),
    );

    let (hand_add, hand_sum) = handwritten::baseline(BIG as u32)?;
    let a = big_input(1);
    let b = big_input(2);
    let mb = (BIG * 4) as f64;

    let (wall, gpu, k) = time(10, 2, || a.binary(BinaryOp::Add, &b).expect("add"));
    row(
        &format!("add 16M f32, {k} kernel (gpu / wall)"),
        format!(
            "{:.2} / {:.2} GB/s",
            3.0 * mb / gpu * 1e-9,
            3.0 * mb / wall * 1e-9
        ),
        format!("{hand_add:.2} GB/s here"),
    );

    let (wall, gpu, k) = time(10, 2, || a.reduce(ReduceOp::Add, &[0]).expect("sum"));
    row(
        &format!("sum 16M f32, {k} kernels (gpu / wall)"),
        format!("{:.2} / {:.2} GB/s", mb / gpu * 1e-9, mb / wall * 1e-9),
        hand_sum.map_or("-".into(), |g| format!("{g:.2} GB/s here")),
    );

    let (wall, gpu, k) = time(10, 2, || {
        let mut x = a.clone();
        for i in 0..20 {
            x = match i % 4 {
                0 => x.binary(BinaryOp::Add, &b),
                1 => x.binary(
                    BinaryOp::Mul,
                    &Lazy::constant(0.5f32, DType::F32, &[BIG]).unwrap(),
                ),
                2 => x.unary(UnaryOp::Neg),
                _ => x.binary(BinaryOp::Max, &a),
            }
            .expect("op");
        }
        x
    });
    row(
        &format!("20-op chain 16M f32, {k} kernel (gpu / wall)"),
        format!(
            "{:.2} / {:.2} GB/s",
            3.0 * mb / gpu * 1e-9,
            3.0 * mb / wall * 1e-9
        ),
        "-",
    );
    kernel_figures()?;
    println!(
        "* gpu: timestamp queries around each dispatch, which on lavapipe add tens of us per dispatch"
    );
    Ok(())
}
