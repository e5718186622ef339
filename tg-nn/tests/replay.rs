//! A replayed training step computes what the same step computes eagerly, with the learning
//! rate changing every step, and neither form recompiles for a new rate.

use tg_nn::nn::{Linear, Module};
use tg_nn::optim::{Adam, AdamW, Optimizer, Sgd};
use tg_nn::replay::Replay;
use tg_ops::DynTensor;
use tg_ops::untyped::loss::Reduction;

/// The tests that seed the process-wide random stream and compare what it draws take turns
/// (the test harness runs tests on several threads).
static RANDOM: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn random_stream() -> std::sync::MutexGuard<'static, ()> {
    RANDOM.lock().unwrap_or_else(|e| e.into_inner())
}

fn batch(k: usize) -> (DynTensor, DynTensor) {
    let xs: Vec<f32> = (0..8 * 4)
        .map(|i| (((i + 3 * k) * 7) % 11) as f32 * 0.1 - 0.5)
        .collect();
    let ys: Vec<i32> = (0..8).map(|i| ((i + k) % 3) as i32).collect();
    (
        DynTensor::from_slice(&[8, 4], &xs).unwrap(),
        DynTensor::from_slice(&[8], &ys).unwrap(),
    )
}

fn optimizer(kind: usize, model: &mut Linear) -> Box<dyn Optimizer> {
    match kind {
        0 => Box::new(Sgd::new(model, 0.5, 0.9, 0.01, true).unwrap()),
        1 => Box::new(Adam::new(model, 0.05).unwrap()),
        _ => Box::new(AdamW::new(model, 0.05, 0.1).unwrap()),
    }
}

/// A training step's device side on batch `(x, y)`: the loss, then the tensors the optimizer
/// writes (the body a test replays or runs eagerly).
fn descend(
    model: &mut Linear,
    opt: &mut dyn Optimizer,
    x: &DynTensor,
    y: &DynTensor,
) -> tg_runtime::Result<Vec<DynTensor>> {
    let loss = model
        .forward(x)?
        .sparse_categorical_crossentropy(y, None, 0.0, Reduction::Mean)?;
    let mut outs = vec![loss.clone()];
    outs.extend(opt.descend(model, &loss)?);
    Ok(outs)
}

/// Losses, final parameters, and this thread's (kernels run, compiles) over steps 3..5, and
/// the kernels of one replay.
fn train(replayed: bool, kind: usize) -> (Vec<f32>, Vec<f32>, (u64, u64), usize) {
    DynTensor::manual_seed(3);
    let mut model = Linear::new(4, 3, true).unwrap();
    let mut opt = optimizer(kind, &mut model);
    let mut step = Replay::new();
    let mut losses = Vec::new();
    let mut before = tg_runtime::thread_stats();
    for k in 0..5 {
        if k == 2 {
            before = tg_runtime::thread_stats();
        }
        let (x, y) = batch(k);
        opt.set_lr(0.05 / (k + 1) as f64);
        let binds = opt.advance();
        let mut body = || descend(&mut model, opt.as_mut(), &x, &y);
        let out = if replayed {
            step.run(&[&x, &y], &binds, body).unwrap()
        } else {
            let o = body().unwrap();
            tg_runtime::realize(&o.iter().map(|t| t.lazy()).collect::<Vec<_>>()).unwrap();
            o
        };
        losses.push(out[0].to_vec::<f32>().unwrap()[0]);
    }
    let after = tg_runtime::thread_stats();
    let params = model
        .parameters()
        .unwrap()
        .iter()
        .flat_map(|(_, p)| p.to_vec::<f32>().unwrap())
        .collect();
    (
        losses,
        params,
        (
            after.kernels - before.kernels,
            after.compiles - before.compiles,
        ),
        step.kernels(&[&batch(0).0, &batch(0).1]).unwrap_or(0),
    )
}

#[test]
fn a_replayed_step_matches_the_eager_step_and_nothing_recompiles() {
    let _turn = random_stream();
    for kind in 0..3 {
        let (el, ep, (_, eager_compiles), _) = train(false, kind);
        let (rl, rp, (replay_kernels, replay_compiles), per_step) = train(true, kind);
        for (a, b) in el.iter().zip(&rl) {
            assert!(
                (a - b).abs() < 1e-5,
                "optimizer {kind}: losses {el:?} vs replayed {rl:?}"
            );
        }
        for (a, b) in ep.iter().zip(&rp) {
            assert!(
                (a - b).abs() < 1e-5,
                "optimizer {kind}: params {ep:?} vs replayed {rp:?}"
            );
        }
        assert!(el[4] < el[0], "optimizer {kind} learns: {el:?}");
        // the learning rate and Adam's corrections changed every step: vars, not literals
        assert_eq!(
            eager_compiles, 0,
            "optimizer {kind}: eager steps 3..5 compiled"
        );
        assert_eq!(replay_compiles, 0, "optimizer {kind}: replays compiled");
        assert!(per_step > 0);
        assert_eq!(
            replay_kernels,
            3 * per_step as u64,
            "optimizer {kind}: the recorded kernels only"
        );
    }
}

#[test]
fn a_replay_records_once_per_input_shape() {
    let mut step = Replay::new();
    let w = tg_nn::nn::init::parameter(&DynTensor::ones(&[3], tg_runtime::DType::F32).unwrap())
        .unwrap();
    let mut w2 = w.clone();
    for n in [2usize, 2, 5, 5, 2] {
        let x = DynTensor::ones(&[n, 3], tg_runtime::DType::F32).unwrap();
        let out = step
            .run(&[&x], &[], || {
                let s = x.mul(&w2)?.sum(None, false)?;
                w2.assign(&w2.add(1.0)?)?;
                Ok(vec![s, w2.clone()])
            })
            .unwrap();
        assert!(out[0].to_vec::<f32>().unwrap()[0] > 0.0);
    }
    // five in-place increments, whichever recording ran
    assert_eq!(w.to_vec::<f32>().unwrap(), vec![6.0; 3]);
    assert!(
        step.kernels(&[&DynTensor::ones(&[5, 3], tg_runtime::DType::F32).unwrap()])
            .is_some()
    );
    assert!(
        step.kernels(&[&DynTensor::ones(&[4, 3], tg_runtime::DType::F32).unwrap()])
            .is_none()
    );
}

/// Graphs built after replays from the tensors a replay wrote read the new values (nothing
/// computed from them before is reused once it is dropped).
#[test]
fn eager_graphs_after_replays_read_the_written_values() {
    let mut step = Replay::new();
    let w = tg_nn::nn::init::parameter(&DynTensor::ones(&[3], tg_runtime::DType::F32).unwrap())
        .unwrap();
    let mut w2 = w.clone();
    let x = DynTensor::ones(&[3], tg_runtime::DType::F32).unwrap();
    let mut add_one = || {
        step.run(&[&x], &[], || {
            w2.assign(&w2.add(1.0)?)?;
            Ok(vec![w2.clone()])
        })
        .unwrap();
    };
    add_one();
    add_one();
    assert_eq!(w.mul(2.0).unwrap().to_vec::<f32>().unwrap(), vec![6.0; 3]);
    add_one();
    assert_eq!(w.mul(2.0).unwrap().to_vec::<f32>().unwrap(), vec![8.0; 3]);
}

/// Dropout in a replayed step draws fresh numbers every call: the ones the eager calls
/// draw with the same seed.
#[test]
fn a_replayed_dropout_draws_fresh_numbers() {
    let _turn = random_stream();
    let x = DynTensor::ones(&[64], tg_runtime::DType::F32).unwrap();
    let d = tg_nn::nn::Dropout::new(0.5).unwrap();
    DynTensor::manual_seed(9);
    let eager: Vec<Vec<f32>> = (0..3)
        .map(|_| d.forward(&x).unwrap().to_vec::<f32>().unwrap())
        .collect();
    DynTensor::manual_seed(9);
    let mut step = Replay::new();
    let replayed: Vec<Vec<f32>> = (0..3)
        .map(|_| {
            step.run(&[&x], &[], || Ok(vec![d.forward(&x)?])).unwrap()[0]
                .to_vec::<f32>()
                .unwrap()
        })
        .collect();
    assert_ne!(eager[0], eager[1]);
    assert_eq!(eager, replayed);
}

/// A recorded step keeps working after a model and its optimizer are loaded from files in
/// place: rewinding both to a checkpoint and replaying repeats the same losses.
#[test]
fn a_recorded_step_resumes_from_a_checkpoint_loaded_in_place() {
    let _turn = random_stream();
    let dir = std::env::temp_dir().join(format!("tg_nn_replay_resume_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    DynTensor::manual_seed(12);
    let mut model = Linear::new(4, 3, true).unwrap();
    let mut opt = Adam::new(&mut model, 0.05).unwrap();
    let mut step = Replay::new();
    let mut run = |model: &mut Linear, opt: &mut Adam, k: usize| -> f32 {
        let (x, y) = batch(k);
        let binds = opt.advance();
        let out = step
            .run(&[&x, &y], &binds, || descend(model, opt, &x, &y))
            .unwrap();
        out[0].to_vec::<f32>().unwrap()[0]
    };
    for k in 0..3 {
        run(&mut model, &mut opt, k);
    }
    model.save(&dir.join("model.safetensors")).unwrap();
    opt.state_dict()
        .unwrap()
        .save(dir.join("optim.safetensors"))
        .unwrap();
    let first: Vec<f32> = (3..6).map(|k| run(&mut model, &mut opt, k)).collect();
    model.load(&dir.join("model.safetensors")).unwrap();
    opt.load_state_dict(&tg_nn::state::load(dir.join("optim.safetensors")).unwrap())
        .unwrap();
    assert_eq!(opt.steps(), 3);
    let again: Vec<f32> = (3..6).map(|k| run(&mut model, &mut opt, k)).collect();
    assert_eq!(first, again);
    std::fs::remove_dir_all(&dir).unwrap();
}
