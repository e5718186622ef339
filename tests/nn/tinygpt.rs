//! examples/tinygpt's GPT (its `model.rs`, included) at a small size: against numpy
//! (fixtures/tinygpt.json, scripts/gen_tinygpt.py: logits, loss and every gradient, then two
//! AdamW steps with parameter groups taken by the kernel step); its training step as one
//! `#[kernel]` taking the model and AdamW by `&mut` computes what the eager step computes on
//! a copy of the model, step after step (loss and every parameter), and replays after the
//! first call; its sampling kernel at a temperature near 0 picks each
//! row's most likely next id.

use tg::nn::Module;
use tg::optim::{AdamConfig, AdamW, Optimizer, decay_matrices};
use tg::prelude::*;
use tg::state::StateDict;
use tg_test_support::fixture::{self, arg};

#[path = "../../examples/tinygpt/model.rs"]
mod model;

use model::{Config, Gpt};

#[kernel]
fn train_step<const B: usize, const T: usize>(
    model: &mut Gpt,
    opt: &mut AdamW,
    x: &Tensor<shape![B, T], i32>,
    y: &Tensor<shape![B, T], i32>,
) -> Tensor<shape![]> {
    let loss = model.loss(x.as_dyn(), y.as_dyn())?;
    opt.step(model, &loss)?;
    loss
}

const CONFIG: Config = Config {
    vocab: 11,
    context: 8,
    dim: 16,
    heads: 2,
    layers: 2,
};

fn the_gpt_step_as_a_kernel_matches_the_eager_step() {
    let mut model = Gpt::new(&CONFIG).unwrap();
    let mut eager = Gpt::new(&CONFIG).unwrap();
    eager.load_state_dict(&model.state_dict().unwrap()).unwrap();
    let cfg = AdamConfig::new(0.01, 0.1);
    let mut opt = AdamW::with_groups(&mut model, cfg, decay_matrices).unwrap();
    let mut eager_opt = AdamW::with_groups(&mut eager, cfg, decay_matrices).unwrap();
    let mut replay_schedules = 0;
    for k in 0..3 {
        let ids: Vec<i32> = (0..2 * 9).map(|i| (i * 7 + k * 3) % 11).collect();
        let (xs, ys): (Vec<i32>, Vec<i32>) = (
            ids.chunks(9).flat_map(|r| r[..8].to_vec()).collect(),
            ids.chunks(9).flat_map(|r| r[1..].to_vec()).collect(),
        );
        let x = Tensor::<Rank2<2, 8>, i32>::from_slice(&xs).unwrap();
        let y = Tensor::<Rank2<2, 8>, i32>::from_slice(&ys).unwrap();
        x.realize().unwrap();
        y.realize().unwrap();
        let before = tg::runtime::thread_stats();
        let loss = train_step(&mut model, &mut opt, &x, &y);
        if k > 0 {
            replay_schedules += tg::runtime::thread_stats().schedules - before.schedules;
        }
        let loss = loss.to_vec().unwrap()[0];

        let want = eager.loss(x.as_dyn(), y.as_dyn()).unwrap();
        let mut written = eager_opt.step(&mut eager, &want).unwrap();
        written.push(want.clone());
        tg::runtime::realize(&written.iter().map(|t| t.lazy()).collect::<Vec<_>>()).unwrap();
        let want = want.to_vec::<f32>().unwrap()[0];
        assert!(
            (loss - want).abs() <= 1e-5 * want.abs(),
            "step {k}: {loss} vs {want}"
        );
        for ((n, a), (_, b)) in model
            .parameters()
            .unwrap()
            .iter()
            .zip(&eager.parameters().unwrap())
        {
            let (a, b) = (a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
            let worst = a
                .iter()
                .zip(&b)
                .map(|(p, q)| (p - q).abs())
                .fold(0.0, f32::max);
            assert!(worst <= 1e-5, "step {k}, `{n}`: off by {worst}");
        }
    }
    assert_eq!(replay_schedules, 0, "the calls after the first are replays");
    assert_eq!(opt.steps(), 3);
}

#[kernel]
fn next_id<const B: usize, const T: usize>(
    model: &Gpt,
    ids: &Tensor<shape![B, T], i32>,
    temperature: f64,
) -> Tensor<shape![B, 1], i32> {
    model.sample(ids.as_dyn(), temperature)?
}

fn sampling_near_zero_temperature_picks_the_most_likely_id() {
    let model = Gpt::new(&CONFIG).unwrap();
    let xs: Vec<i32> = (0..16).map(|i| i * 5 % 11).collect();
    let x = Tensor::<Rank2<2, 8>, i32>::from_slice(&xs).unwrap();
    let got = next_id(&model, &x, 1e-4).to_vec().unwrap();
    let logits = model.forward(x.as_dyn()).unwrap().to_vec::<f32>().unwrap();
    for (row, &id) in got.iter().enumerate() {
        let last = &logits[(row * 8 + 7) * 11..(row * 8 + 8) * 11];
        let mut order: Vec<usize> = (0..11).collect();
        order.sort_by(|&a, &b| last[b].total_cmp(&last[a]));
        // a gap of 0.01 at temperature 1e-4 leaves the runner-up e^-100 of the mass
        if last[order[0]] - last[order[1]] > 0.01 {
            assert_eq!(id as usize, order[0], "row {row}: {last:?}");
        }
        assert!((0..11).contains(&id), "row {row}: {id}");
    }
}

fn the_gpt_matches_numpy_logits_gradients_and_two_adamw_steps() {
    let cases = fixture::load("tinygpt.json");
    let c = &cases[0];
    let t: Vec<DynTensor> = c
        .inputs
        .iter()
        .map(|s| DynTensor::from_lazy(fixture::lazy(s)))
        .collect();
    let names: Vec<&str> = arg(c, "params")
        .as_array()
        .expect("params")
        .iter()
        .map(|v| v.as_str().expect("a name"))
        .collect();
    let n = names.len();
    let mut model = Gpt::new(&CONFIG).unwrap();
    let mut dict = StateDict::new();
    for (k, name) in names.iter().enumerate() {
        dict.insert(*name, t[4 + k].clone());
    }
    model.load_state_dict(&dict).unwrap();
    let check = |what: &str, got: &DynTensor, want: usize, rtol: f64, atol: f64| {
        if let Err(e) = fixture::compare(got.lazy(), &c.outs[want], rtol, atol) {
            panic!("{what}: {e}");
        }
    };
    // eagerly: the logits, the loss and every gradient
    check("logits", &model.forward(&t[0]).unwrap(), 0, c.rtol, c.atol);
    let loss = model.loss(&t[0], &t[1]).unwrap();
    check("loss", &loss, 1, c.rtol, c.atol);
    let params = model.parameters().unwrap();
    let refs: Vec<&DynTensor> = params.iter().map(|(_, p)| p).collect();
    for (k, g) in loss.gradient(&refs, None).unwrap().iter().enumerate() {
        check(
            &format!("the gradient of `{}`", names[k]),
            g,
            2 + k,
            1e-3,
            1e-6,
        );
    }
    // two steps of the kernel: AdamW with no decay for biases and norms
    let lrs = arg(c, "lrs").as_array().expect("lrs");
    let wd = arg(c, "weight_decay").as_f64().expect("weight_decay");
    let mut opt = AdamW::with_groups(&mut model, AdamConfig::new(0.0, wd), decay_matrices).unwrap();
    for step in 0..2 {
        opt.set_lr(lrs[step].as_f64().expect("lr"));
        let x = Tensor::<Rank2<2, 8>, i32>::from_dyn(t[2 * step].clone());
        let y = Tensor::<Rank2<2, 8>, i32>::from_dyn(t[2 * step + 1].clone());
        let loss = train_step(&mut model, &mut opt, &x, &y);
        let want = if step == 0 { 1 } else { 2 + n };
        check(
            &format!("step {step}'s loss"),
            loss.as_dyn(),
            want,
            c.rtol,
            c.atol,
        );
    }
    for (k, (name, p)) in model.parameters().unwrap().iter().enumerate() {
        check(
            &format!("`{name}` after two steps"),
            p,
            3 + n + k,
            c.rtol,
            c.atol,
        );
    }
}

/// The three checks in one test, in turn: run concurrently, two of them recording and
/// replaying this kernel on two threads at once have shown a wrong first replay on lavapipe
/// (reported as a known bug; every check passes run alone or in turn).
#[test]
fn the_tiny_gpt() {
    the_gpt_matches_numpy_logits_gradients_and_two_adamw_steps();
    the_gpt_step_as_a_kernel_matches_the_eager_step();
    sampling_near_zero_temperature_picks_the_most_likely_id();
}
