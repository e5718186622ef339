//! The training steps the benchmarks time: the train_digits demo's CNN (batch 32, 8x8
//! images) and a 784-128-10 MLP (batch 64), each eagerly (the graph built, scheduled and
//! dispatched every step), replayed (`tg::replay::Replay`: recorded once, then the recorded
//! kernels with the learning rate and bias corrections rebound) and as one `#[kernel]`
//! function (for the CNN, the demo's own). `tg-bench-train` prints every mode; `tg-bench`
//! puts the `#[kernel]` steps in its table beside the eager ones.

use std::time::Instant;

use tg::nn::{DigitsCnn, Mlp, Module};
use tg::optim::{Adam, AdamConfig, AdamW, Optimizer, decay_matrices};
use tg::prelude::*;
use tg::replay::Replay;
use tg::untyped::loss::Reduction;

/// One mode's figures: median milliseconds per step, kernels per step, the last step's loss.
pub type Figures = (f64, u64, f32);

/// The CNN's eager and replayed figures.
pub fn cnn_eager_and_replayed(steps: usize) -> [Figures; 2] {
    eager_and_replayed(
        steps,
        || DigitsCnn::new().expect("cnn"),
        |m, x| m.forward(x),
        &[32, 1, 8, 8],
    )
}

/// The MLP's eager and replayed figures.
pub fn mlp_eager_and_replayed(steps: usize) -> [Figures; 2] {
    eager_and_replayed(
        steps,
        || Mlp::new(784, 128, 10).expect("mlp"),
        |m, x| m.forward(x),
        &[64, 784],
    )
}

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
fn measure(steps: usize, mut step: impl FnMut(u32) -> f32) -> Figures {
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
) -> [Figures; 2] {
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

/// The MLP's step as one `#[kernel]` ([`crate::mlp_step`]), from the same initial
/// parameters as the other modes.
pub fn kernel_mlp(steps: usize) -> Figures {
    DynTensor::manual_seed(1);
    let model = Mlp::new(784, 128, 10).expect("mlp");
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
        let (loss, ..) = crate::mlp_step::mlp_adam_step::<64, 784, 128, 10>(
            &x, &y, &w1, &b1, &w2, &b2, &mw1, &vw1, &mb1, &vb1, &mw2, &vw2, &mb2, &vb2, 1e-3, c1,
            c2,
        );
        loss.to_vec().expect("loss")[0]
    })
}

/// The demo's CNN step as one `#[kernel]` (the `train_digits` package's
/// [`train_digits::KernelStep`]), from the same initial parameters as the other modes.
pub fn kernel_cnn(steps: usize) -> Figures {
    DynTensor::manual_seed(1);
    let mut model = DigitsCnn::new().expect("cnn");
    let mut step = train_digits::KernelStep::new(&mut model).expect("step");
    measure(steps, |k| {
        let (x, y) = batch(&[train_digits::BATCH, 1, 8, 8], 10, k);
        let loss = step.step(&x, &y, 1e-3).expect("step");
        loss.to_vec::<f32>().expect("loss")[0]
    })
}

/// Pseudo-random ids and their next ids for step `k` of the GPT.
pub fn gpt_batch(k: u32, vocab: u32) -> (Tensor<Rank2<16, 64>, i32>, Tensor<Rank2<16, 64>, i32>) {
    let ids: Vec<i32> = (0..16 * 65u32)
        .map(|i| ((i.wrapping_mul(2_654_435_761) ^ k.wrapping_mul(40_503)) >> 8) % vocab)
        .map(|v| v as i32)
        .collect();
    let rows = |from: usize| -> Vec<i32> {
        ids.chunks(65)
            .flat_map(|r| r[from..from + 64].to_vec())
            .collect()
    };
    (
        Tensor::from_slice(&rows(0)).expect("ids"),
        Tensor::from_slice(&rows(1)).expect("targets"),
    )
}

/// The tinygpt step eagerly (graph built, scheduled and dispatched each step) and as the
/// example's one `#[kernel]` (replayed), from the same initial parameters and batches.
pub fn gpt_eager_and_kernel(steps: usize) -> [Figures; 2] {
    let config = tinygpt::Config {
        vocab: 76,
        context: 64,
        dim: 64,
        heads: 4,
        layers: 2,
    };
    let cfg = AdamConfig::new(3e-3, 0.1);
    DynTensor::manual_seed(1);
    let mut model = tinygpt::Gpt::new(&config).expect("gpt");
    let mut opt = AdamW::with_groups(&mut model, cfg, decay_matrices).expect("adamw");
    let eager = measure(steps, |k| {
        let (x, y) = gpt_batch(k, 76);
        opt.advance();
        let loss = model.loss(x.as_dyn(), y.as_dyn()).expect("loss");
        let mut outs = vec![loss.clone()];
        outs.extend(opt.descend(&mut model, &loss).expect("step"));
        realize_all(&outs);
        loss.to_vec::<f32>().expect("loss")[0]
    });
    DynTensor::manual_seed(1);
    let mut model = tinygpt::Gpt::new(&config).expect("gpt");
    let mut opt = AdamW::with_groups(&mut model, cfg, decay_matrices).expect("adamw");
    let kernel = measure(steps, |k| {
        let (x, y) = gpt_batch(k, 76);
        tinygpt::train_step(&mut model, &mut opt, &x, &y)
            .to_vec()
            .expect("loss")[0]
    });
    [eager, kernel]
}
