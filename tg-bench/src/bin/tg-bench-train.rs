//! `cargo run --release --bin tg-bench-train`: milliseconds per training step (forward,
//! backward, Adam) of the train_digits demo's CNN (batch 32, 8x8 images) and of a
//! 784-128-10 MLP (batch 64), run eagerly (the graph built, scheduled and dispatched every
//! step), replayed (`tg::replay::Replay`: recorded once, then the recorded kernels with the
//! learning rate and bias corrections rebound), and as one `#[kernel]` function (for the
//! CNN, the demo's own, `examples/train_digits/step.rs`); with kernels per step, each
//! figure's ratio to the eager step, and the last step's loss (equal in every mode: the same
//! initial parameters and batches), all in one process on the selected device. `TG_BENCH_STEPS` sets the timed steps (default 20).

// the demo's #[kernel] step itself, so that this times exactly what the demo runs
#[path = "../../../examples/train_digits/step.rs"]
mod step;

use std::time::Instant;

use tg::nn::{DigitsCnn, Mlp, Module};
use tg::optim::{Adam, Optimizer};
use tg::prelude::*;
use tg::replay::Replay;
use tg::runtime::device::Device;
use tg::untyped::loss::Reduction;

/// Pseudo-random inputs and labels for step `k`.
fn batch(shape: &[usize], classes: i32, k: u32) -> (DynTensor, DynTensor) {
    let n: usize = shape.iter().product();
    let xs: Vec<f32> = (0..n as u32)
        .map(|i| {
            ((i.wrapping_mul(2_654_435_761) ^ k.wrapping_mul(40_503)) >> 8) as f32 / 16_777_216.0
        })
        .collect();
    let ys: Vec<i32> = (0..shape[0] as i32)
        .map(|i| (i * 7 + k as i32) % classes)
        .collect();
    (
        DynTensor::from_slice(shape, &xs).expect("inputs"),
        DynTensor::from_slice(&[shape[0]], &ys).expect("labels"),
    )
}

/// Median milliseconds per step, kernels per step, and the last step's loss over `steps`
/// timed steps after two warm-up steps (the first of which records or compiles).
fn measure(steps: usize, mut step: impl FnMut(u32) -> f32) -> (f64, u64, f32) {
    let mut times = Vec::new();
    let mut kernels = 0;
    let mut last = f32::NAN;
    for k in 0..steps as u32 + 2 {
        let before = tg::runtime::thread_stats().kernels;
        let t = Instant::now();
        let loss = step(k);
        last = loss;
        assert!(loss.is_finite(), "step {k}: loss {loss}");
        if k >= 2 {
            times.push(t.elapsed().as_secs_f64() * 1e3);
            kernels = tg::runtime::thread_stats().kernels - before;
        }
    }
    times.sort_by(|a, b| a.total_cmp(b));
    (times[times.len() / 2], kernels, last)
}

fn realize_all(ts: &[DynTensor]) {
    tg::runtime::realize(&ts.iter().map(|t| t.lazy()).collect::<Vec<_>>()).expect("realize");
}

/// One training step of `model` on `(x, y)`: the loss, then every written tensor.
fn train_step<M: Module>(
    model: &mut M,
    opt: &mut Adam,
    forward: fn(&mut M, &DynTensor) -> tg::Result<DynTensor>,
    x: &DynTensor,
    y: &DynTensor,
) -> tg::Result<Vec<DynTensor>> {
    let loss = forward(model, x)?.sparse_categorical_crossentropy(y, None, 0.0, Reduction::Mean)?;
    let mut outs = vec![loss.clone()];
    outs.extend(opt.descend(model, &loss)?);
    outs.extend(model.tensors()?.into_iter().map(|(_, t)| t));
    Ok(outs)
}

/// (eager ms, eager kernels, replayed ms, replayed kernels) for a fresh `model`.
fn eager_and_replayed<M: Module>(
    steps: usize,
    make: impl Fn() -> M,
    forward: fn(&mut M, &DynTensor) -> tg::Result<DynTensor>,
    shape: &[usize],
) -> [(f64, u64, f32); 2] {
    DynTensor::manual_seed(1);
    let mut model = make();
    let mut opt = Adam::new(&mut model, 1e-3).expect("adam");
    let eager = measure(steps, |k| {
        let (x, y) = batch(shape, 10, k);
        opt.advance();
        let outs = train_step(&mut model, &mut opt, forward, &x, &y).expect("step");
        realize_all(&outs);
        outs[0].to_vec::<f32>().expect("loss")[0]
    });
    DynTensor::manual_seed(1);
    let mut model = make();
    let mut opt = Adam::new(&mut model, 1e-3).expect("adam");
    let mut replay = Replay::new();
    let replayed = measure(steps, |k| {
        let (x, y) = batch(shape, 10, k);
        let binds = opt.advance();
        let outs = replay
            .run(&[&x, &y], &binds, || {
                train_step(&mut model, &mut opt, forward, &x, &y)
            })
            .expect("step");
        outs[0].to_vec::<f32>().expect("loss")[0]
    });
    [eager, replayed]
}

/// A realized buffer of its own holding `d`'s values, typed.
fn own<S: tg::Shape>(d: &DynTensor) -> Tensor<S> {
    let t = DynTensor::state(d).expect("state");
    t.realize().expect("realize");
    Tensor::from_dyn(t)
}

fn kernel_mlp(steps: usize) -> (f64, u64, f32) {
    DynTensor::manual_seed(1);
    let mut model = Mlp::new(784, 128, 10).expect("mlp");
    let t = model.parameters().expect("parameters");
    let zeros = |i: usize| DynTensor::zeros(t[i].1.shape(), DType::F32).expect("zeros");
    let (w1, b1, w2, b2) = (own(&t[0].1), own(&t[1].1), own(&t[2].1), own(&t[3].1));
    let (mw1, vw1, mb1, vb1) = (
        own(&zeros(0)),
        own(&zeros(0)),
        own(&zeros(1)),
        own(&zeros(1)),
    );
    let (mw2, vw2, mb2, vb2) = (
        own(&zeros(2)),
        own(&zeros(2)),
        own(&zeros(3)),
        own(&zeros(3)),
    );
    measure(steps, |k| {
        let (x, y) = batch(&[64, 784], 10, k);
        let (x, y) = (Tensor::from_dyn(x), Tensor::from_dyn(y));
        let t = k as i32 + 1;
        let (c1, c2) = (1.0 / (1.0 - 0.9f32.powi(t)), 1.0 / (1.0 - 0.999f32.powi(t)));
        let (loss, ..) = tg_bench::mlp_step::mlp_adam_step::<64, 784, 128, 10>(
            &x, &y, &w1, &b1, &w2, &b2, &mw1, &vw1, &mb1, &vb1, &mw2, &vw2, &mb2, &vb2, 1e-3, c1,
            c2,
        );
        loss.to_vec().expect("loss")[0]
    })
}

/// The demo's CNN step as one `#[kernel]` (`examples/train_digits/step.rs`), from the same
/// initial parameters as the other modes.
fn kernel_cnn(steps: usize) -> (f64, u64, f32) {
    DynTensor::manual_seed(1);
    let mut model = DigitsCnn::new().expect("cnn");
    let mut step = step::KernelStep::new(&mut model).expect("step");
    measure(steps, |k| {
        let (x, y) = batch(&[step::BATCH, 1, 8, 8], 10, k);
        let loss = step.step(&x, &y, 1e-3).expect("step");
        loss.to_vec::<f32>().expect("loss")[0]
    })
}

fn row(model: &str, mode: &str, (ms, kernels, loss): (f64, u64, f32), eager: f64) {
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
    let [e, r] = eager_and_replayed(
        steps,
        || DigitsCnn::new().expect("cnn"),
        |m, x| m.forward(x),
        &[32, 1, 8, 8],
    );
    row("digits CNN, batch 32", "eager", e, e.0);
    row("digits CNN, batch 32", "replayed", r, e.0);
    row("digits CNN, batch 32", "#[kernel]", kernel_cnn(steps), e.0);
    let [e, r] = eager_and_replayed(
        steps,
        || Mlp::new(784, 128, 10).expect("mlp"),
        |m, x| m.forward(x),
        &[64, 784],
    );
    row("MLP 784-128-10, b 64", "eager", e, e.0);
    row("MLP 784-128-10, b 64", "replayed", r, e.0);
    row("MLP 784-128-10, b 64", "#[kernel]", kernel_mlp(steps), e.0);
}
