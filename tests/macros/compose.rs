//! Kernels that compose: a body calling another `#[kernel]`, a plain function over typed
//! tensors, a layer's `forward`, and a whole training step over a model and an optimizer
//! taken by `&mut` — each against the same computation run eagerly.

use tg::nn::{Mlp, Module, TypedLinear};
use tg::optim::{Adam, AdamConfig, Optimizer};
use tg::prelude::*;
use tg::untyped::loss::Reduction;
use tg_test_support::assert_close;

/// A plain function over typed tensors (no macro): called from a kernel body as written.
fn gate<const B: usize>(x: &Tensor<shape![B, 3]>) -> Tensor<shape![B, 3]> {
    x.sigmoid() * x.clone()
}

/// A kernel that calls a layer: its return type types the layer's result.
#[kernel]
fn project<const B: usize>(
    fc: &TypedLinear<4, 3>,
    x: &Tensor<shape![B, 4]>,
) -> Tensor<shape![B, 3]> {
    fc.forward(x)
}

/// A kernel calling a kernel (which calls the layer) and a function: the shapes across each
/// call are rustc's to check, against the callee's signature.
#[kernel]
fn head<const B: usize>(fc: &TypedLinear<4, 3>, x: Tensor<shape![B, 4]>) -> Tensor<shape![B]> {
    let r = x.relu() * 2.0;
    let h: Tensor<shape![B, 3]> = project(fc, &r);
    let g: Tensor<shape![B, 3]> = gate(&h);
    (g + h).sum(1)
}

#[test]
fn a_kernel_calling_a_kernel_calling_a_layer_matches_eager() {
    let fc = {
        let _turn = crate::RANDOM_STREAM
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        TypedLinear::<4, 3>::new().unwrap()
    };
    for k in 0..3 {
        let xs: Vec<f32> = (0..20)
            .map(|i| ((i * 7 + k * 3) % 11) as f32 * 0.2 - 1.0)
            .collect();
        let x = Tensor::<Rank2<5, 4>>::from_slice(&xs).unwrap();
        let got = head(&fc, x.clone()).to_vec().unwrap();
        // the same, eagerly
        let h = fc.forward(&(x.relu() * 2.0));
        let want = (gate(&h) + h).sum_axis::<1>().to_vec().unwrap();
        assert_close(&got, &want, 1e-5);
    }
}

/// A model and an optimizer by `&mut`: the layers' forward, the loss, Adam's step, all in
/// one kernel recorded on its first call and replayed after (the optimizer advanced before
/// each call, its learning rate a runtime scalar).
#[kernel]
fn train_step(
    model: &mut Mlp,
    opt: &mut Adam,
    x: &Tensor<shape![8, 6]>,
    y: &Tensor<shape![8], i32>,
) -> Tensor<shape![]> {
    let logits = model.forward(x.as_dyn())?;
    let loss = logits.sparse_categorical_crossentropy(y.as_dyn(), None, 0.0, Reduction::Mean)?;
    opt.step(model, &loss)?;
    loss
}

fn batch(k: usize) -> (Tensor<Rank2<8, 6>>, Tensor<Rank1<8>, i32>) {
    let xs: Vec<f32> = (0..48)
        .map(|i| (((i + 5 * k) * 7) % 13) as f32 / 13.0 - 0.4)
        .collect();
    let ys: Vec<i32> = (0..8).map(|i| ((i * 2 + k) % 3) as i32).collect();
    (
        Tensor::from_slice(&xs).unwrap(),
        Tensor::from_slice(&ys).unwrap(),
    )
}

/// A model and its optimizer, and an eager twin of both (the same initial parameters).
struct Pair {
    model: Mlp,
    opt: Adam,
    eager: Mlp,
    eager_opt: Adam,
}

impl Pair {
    fn new(cfg: AdamConfig) -> Pair {
        let (mut model, mut eager) = {
            let _turn = crate::RANDOM_STREAM
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            (Mlp::new(6, 5, 3).unwrap(), Mlp::new(6, 5, 3).unwrap())
        };
        eager.load_state_dict(&model.state_dict().unwrap()).unwrap();
        let opt = Adam::with_config(&mut model, cfg).unwrap();
        let eager_opt = Adam::with_config(&mut eager, cfg).unwrap();
        Pair {
            model,
            opt,
            eager,
            eager_opt,
        }
    }

    /// Step `k` through the kernel and eagerly, compared; the schedules the kernel's call
    /// made.
    fn step(&mut self, k: usize, lr: f64) -> u64 {
        self.opt.set_lr(lr);
        self.eager_opt.set_lr(lr);
        let (x, y) = batch(k);
        x.realize().unwrap();
        y.realize().unwrap();
        let before = tg::runtime::thread_stats();
        let loss = train_step(&mut self.model, &mut self.opt, &x, &y);
        let schedules = tg::runtime::thread_stats().schedules - before.schedules;
        let loss = loss.to_vec().unwrap();

        let logits = self.eager.forward(x.as_dyn()).unwrap();
        let want = logits
            .sparse_categorical_crossentropy(y.as_dyn(), None, 0.0, Reduction::Mean)
            .unwrap();
        let mut written = self.eager_opt.step(&mut self.eager, &want).unwrap();
        written.push(want.clone());
        tg::runtime::realize(&written.iter().map(|t| t.lazy()).collect::<Vec<_>>()).unwrap();
        assert_close(&loss, &want.to_vec::<f32>().unwrap(), 1e-5);
        let eager = self.eager.parameters().unwrap();
        for ((n, a), (_, b)) in self.model.parameters().unwrap().iter().zip(&eager) {
            let (a, b) = (a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
            assert!(
                a.iter().zip(&b).all(|(p, q)| (p - q).abs() <= 1e-5),
                "step {k}, `{n}`: {a:?} vs {b:?}"
            );
        }
        schedules
    }
}

#[test]
fn a_training_step_over_a_model_and_an_optimizer_matches_eager() {
    let mut pair = Pair::new(AdamConfig::new(0.05, 0.0));
    let mut replay_schedules = 0;
    for k in 0..5 {
        let schedules = pair.step(k, 0.05 / (k + 1) as f64);
        if k > 0 {
            replay_schedules += schedules;
        }
    }
    assert_eq!(
        pair.opt.steps(),
        5,
        "advanced once per call, replays included"
    );
    assert_eq!(
        replay_schedules, 0,
        "the kernel's calls after the first are replays: they schedule nothing"
    );
}

#[test]
fn another_model_and_optimizer_replay_the_kernel_with_their_own_scalars_and_constants() {
    // two pairs of the same shapes: the second replays what the first recorded (binding its
    // own optimizer's learning rate and bias corrections), steps interleaved; a third pair
    // with another weight decay (a constant of the graph) records anew
    let mut a = Pair::new(AdamConfig::new(0.05, 0.0));
    let mut b = Pair::new(AdamConfig::new(0.05, 0.0));
    let mut c = Pair::new(AdamConfig::new(0.05, 0.3));
    let mut c_schedules = 0;
    for k in 0..3 {
        a.step(k, 0.05);
        b.step(k + 7, 0.02 / (k + 1) as f64);
        a.step(k + 3, 0.01);
        c_schedules += c.step(k, 0.04);
    }
    assert!(
        c_schedules > 0,
        "another weight decay is not replayed from the others' recording"
    );
}
