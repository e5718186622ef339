//! examples/tinygpt's GPT (the `tinygpt` package's library) against numpy at a small size
//! (fixtures/tinygpt.json) and at its own (made by the test command under target/), both from
//! scripts/gen_tinygpt.py: logits, loss and every gradient, then two AdamW steps with
//! parameter groups taken by the kernel step; its training step as one
//! `#[kernel]` taking the model and AdamW by `&mut` computes what the eager step computes on
//! a copy of the model, step after step (loss and every parameter), and replays after the
//! first call, also while another thread trains a model of the same sizes; its sampling
//! kernel at a temperature near 0 picks each row's most likely next id.

use tg::nn::Module;
use tg::optim::{AdamConfig, AdamW, Optimizer, decay_matrices};
use tg::prelude::*;
use tg::state::StateDict;
use tg_test_support::fixture::{self, arg};
use tinygpt::{Config, Gpt, train_step};

use crate::eager;

const CONFIG: Config = Config {
    vocab: 11,
    context: 8,
    dim: 16,
    heads: 2,
    layers: 2,
};

#[test]
fn the_gpt_step_as_a_kernel_matches_the_eager_step() {
    let mut model = Gpt::new(&CONFIG).unwrap();
    let mut eager = Gpt::new(&CONFIG).unwrap();
    eager.load_state_dict(&model.state_dict().unwrap()).unwrap();
    let cfg = AdamConfig::new(0.01, 0.1);
    let mut opt = AdamW::with_groups(&mut model, cfg, decay_matrices).unwrap();
    let mut eager_opt = AdamW::with_groups(&mut eager, cfg, decay_matrices).unwrap();
    let mut replay_schedules = 0;
    for k in 0..3 {
        let (x, y) = batch(k);
        x.realize().unwrap();
        y.realize().unwrap();
        let before = tg::runtime::thread_stats();
        let loss = train_step(&mut model, &mut opt, &x, &y);
        if k > 0 {
            replay_schedules += tg::runtime::thread_stats().schedules - before.schedules;
        }
        let loss = loss.to_vec().unwrap()[0];

        let want = eager.loss(x.as_dyn(), y.as_dyn()).unwrap();
        let want = eager::step(&mut eager_opt, &mut eager, &want)[0];
        assert!(
            (loss - want).abs() <= 1e-5 * want.abs(),
            "step {k}: {loss} vs {want}"
        );
        eager::assert_same_parameters(&model, &eager, k);
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

#[test]
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

#[test]
fn the_gpt_matches_numpy_logits_gradients_and_two_adamw_steps() {
    matches_numpy::<2, 8>(&fixture::load("tinygpt.json")[0], &CONFIG);
}

/// examples/tinygpt's size (vocab 76, context 64, width 64, 4 heads, 2 blocks) and
/// tg-bench-gpt's batch of 16: the reference is too big to commit, so the test command makes
/// it under target/ (`scripts/gen_tinygpt.py full`), where this reads it.
#[test]
fn the_gpt_at_full_size_matches_numpy() {
    let path = fixture::fixtures_dir().join("../target/fixtures/tinygpt-full.json");
    let cases = fixture::load_path(&path).unwrap_or_else(|e| {
        panic!("{e}; make it with `python3 scripts/gen_tinygpt.py full target/fixtures/tinygpt-full.json`")
    });
    let full = Config {
        vocab: 76,
        context: 64,
        dim: 64,
        heads: 4,
        layers: 2,
    };
    matches_numpy::<16, 64>(&cases[0], &full);
}

/// The GPT of sizes `config` from the case's parameters against numpy: logits, loss and every
/// gradient eagerly, then two AdamW steps of the kernel (no decay for biases and norms): each
/// step's loss and every parameter after them.
fn matches_numpy<const B: usize, const T: usize>(c: &fixture::Case, config: &Config) {
    let t = tg_test_support::inputs(c);
    let names: Vec<&str> = arg(c, "params")
        .as_array()
        .expect("params")
        .iter()
        .map(|v| v.as_str().expect("a name"))
        .collect();
    let n = names.len();
    let mut model = Gpt::new(config).unwrap();
    let mut dict = StateDict::new();
    for (k, name) in names.iter().enumerate() {
        dict.insert(*name, t[4 + k].clone());
    }
    model.load_state_dict(&dict).unwrap();
    let check = |what: &str, got: &DynTensor, want: usize, rtol: f64, atol: f64| {
        if let Err(e) = fixture::compare(got.lazy(), &c.outs[want], rtol, atol) {
            panic!("{}: {what}: {e}", c.name);
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
        let x = Tensor::<Rank2<B, T>, i32>::from_dyn(t[2 * step].clone());
        let y = Tensor::<Rank2<B, T>, i32>::from_dyn(t[2 * step + 1].clone());
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

/// The batch of step `k`: two rows of 8 ids and their next ids.
fn batch(k: i32) -> (Tensor<Rank2<2, 8>, i32>, Tensor<Rank2<2, 8>, i32>) {
    let ids: Vec<i32> = (0..2 * 9).map(|i| (i * 7 + k * 3) % 11).collect();
    let (xs, ys): (Vec<i32>, Vec<i32>) = (
        ids.chunks(9).flat_map(|r| r[..8].to_vec()).collect(),
        ids.chunks(9).flat_map(|r| r[1..].to_vec()).collect(),
    );
    let x = Tensor::<Rank2<2, 8>, i32>::from_slice(&xs).unwrap();
    let y = Tensor::<Rank2<2, 8>, i32>::from_slice(&ys).unwrap();
    (x, y)
}

/// Three AdamW steps (weight decay `wd`) from the parameters `init`, by the kernel or
/// eagerly: each step's loss, then every parameter after the last. The kernel's run first
/// computes the first batch's loss eagerly and holds it, as the check against numpy does.
fn three_steps(init: &StateDict, wd: f64, by_kernel: bool) -> (Vec<f32>, Vec<Vec<f32>>) {
    let mut model = Gpt::new(&CONFIG).unwrap();
    model.load_state_dict(init).unwrap();
    let (x, y) = batch(0);
    let held = by_kernel.then(|| {
        let loss = model.loss(x.as_dyn(), y.as_dyn()).unwrap();
        loss.realize().unwrap();
        loss
    });
    let mut opt =
        AdamW::with_groups(&mut model, AdamConfig::new(0.01, wd), decay_matrices).unwrap();
    let mut losses = Vec::new();
    for k in 0..3 {
        let (x, y) = if k == 0 {
            (x.clone(), y.clone())
        } else {
            batch(k)
        };
        let loss = if by_kernel {
            train_step(&mut model, &mut opt, &x, &y).as_dyn().clone()
        } else {
            let loss = model.loss(x.as_dyn(), y.as_dyn()).unwrap();
            let mut written = opt.step(&mut model, &loss).unwrap();
            written.push(loss.clone());
            tg::runtime::realize(&written.iter().map(|t| t.lazy()).collect::<Vec<_>>()).unwrap();
            loss
        };
        losses.push(loss.to_vec::<f32>().unwrap()[0]);
    }
    let params = model
        .parameters()
        .unwrap()
        .iter()
        .map(|(_, p)| p.to_vec::<f32>().unwrap())
        .collect();
    drop(held);
    (losses, params)
}

/// A recorded kernel step replayed while another thread runs eager steps of a model of the
/// same sizes computes what the eager steps compute alone. Each trial records anew (another
/// weight decay keys another recording), so every trial has a first replay; the thread
/// beside it trains a model of its own until the trials end. Before the kernel's first
/// step, its model's loss on that batch is computed eagerly and held: the constants the
/// other thread's graphs hold keep that graph findable, so the body's loss was the same
/// realized node, which the recording read as a fixed buffer, and every replay returned
/// the first loss and the first step's gradients (a recording now computes what it builds
/// unless it is a constant: `tg_runtime::record`, tg-runtime/tests/replay.rs).
#[test]
fn a_replayed_step_beside_another_threads_eager_steps_is_unchanged() {
    let trials = 3;
    let init = Gpt::new(&CONFIG).unwrap().state_dict().unwrap();
    let wd = |trial: usize| 0.1 + 0.01 * trial as f64;
    // the eager steps alone, before the other thread starts
    let want: Vec<_> = (0..trials)
        .map(|trial| three_steps(&init, wd(trial), false))
        .collect();
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut model = Gpt::new(&CONFIG).unwrap();
            let mut opt =
                AdamW::with_groups(&mut model, AdamConfig::new(0.01, 0.1), decay_matrices).unwrap();
            let mut k = 0;
            while !done.load(std::sync::atomic::Ordering::Acquire) {
                let (x, y) = batch(k);
                let loss = model.loss(x.as_dyn(), y.as_dyn()).unwrap();
                let mut written = opt.step(&mut model, &loss).unwrap();
                written.push(loss);
                tg::runtime::realize(&written.iter().map(|t| t.lazy()).collect::<Vec<_>>())
                    .unwrap();
                written[written.len() - 1].to_vec::<f32>().unwrap();
                k += 1;
            }
        });
        let mut failures = Vec::new();
        for (trial, (want_losses, want_params)) in want.iter().enumerate() {
            let (losses, params) = three_steps(&init, wd(trial), true);
            let worst = params
                .iter()
                .zip(want_params)
                .flat_map(|(a, b)| a.iter().zip(b).map(|(p, q)| (p - q).abs()))
                .fold(0.0, f32::max);
            let close = losses
                .iter()
                .zip(want_losses)
                .all(|(a, b)| (a - b).abs() <= 1e-5 * b.abs());
            if !close || worst > 1e-5 {
                failures.push(format!(
                    "trial {trial}: losses {losses:?} vs {want_losses:?}, parameters off by {worst}"
                ));
            }
        }
        done.store(true, std::sync::atomic::Ordering::Release);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    });
}
