//! tg::optim against the published update rules (fixtures/nn.json, scripts/gen_nn.py): three
//! steps of each optimizer with a learning rate that changes every step, and the learning
//! rate schedules.

use tg::nn::{Inspector, Module, Role, Visitor};
use tg::optim::{Adam, AdamConfig, AdamW, Optimizer, Sgd, decay_matrices, schedule};
use tg::prelude::*;
use tg_test_support::fixture::{self, Case, arg};

/// A module of one parameter.
struct One(DynTensor);

impl Module for One {
    fn visit(&mut self, f: &mut Visitor<'_>) -> tg::Result<()> {
        f("p", Role::Parameter, &mut self.0)
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> tg::Result<()> {
        f("p", Role::Parameter, &self.0)
    }
}

fn optimizer(c: &Case, m: &mut One) -> Box<dyn Optimizer> {
    let f = |k: &str| arg(c, k).as_f64().unwrap_or(0.0);
    match c.json["op"].as_str().expect("op") {
        "sgd" => Box::new(
            Sgd::new(
                m,
                1.0,
                f("momentum"),
                f("weight_decay"),
                arg(c, "nesterov").as_bool().expect("nesterov"),
            )
            .unwrap(),
        ),
        "adam" => Box::new(Adam::new(m, 1.0).unwrap()),
        "adamw" => Box::new(AdamW::new(m, 1.0, f("weight_decay")).unwrap()),
        op => panic!("{op}"),
    }
}

#[test]
fn three_steps_match_the_formulas() {
    let cases = fixture::load("nn.json");
    let mut ran = 0;
    for c in cases
        .iter()
        .filter(|c| matches!(c.json["op"].as_str(), Some("sgd" | "adam" | "adamw")))
    {
        ran += 1;
        let t = tg_test_support::inputs(c);
        let mut m = One(tg::nn::init::parameter(&t[0]).unwrap());
        let mut opt = optimizer(c, &mut m);
        let lrs: Vec<f64> = arg(c, "lrs")
            .as_array()
            .expect("lrs")
            .iter()
            .map(|v| v.as_f64().expect("lr"))
            .collect();
        for (k, lr) in lrs.iter().enumerate() {
            opt.set_lr(*lr);
            opt.advance();
            let written = opt.update(&mut m, &[t[1 + k].clone()]).unwrap();
            let before = tg::runtime::thread_stats();
            tg::runtime::realize(&written.iter().map(|w| w.lazy()).collect::<Vec<_>>()).unwrap();
            let after = tg::runtime::thread_stats();
            assert_eq!(
                after.schedules - before.schedules,
                1,
                "{}: one schedule per step",
                c.name
            );
            if k == 2 {
                assert_eq!(
                    after.compiles, before.compiles,
                    "{}: a new rate compiles nothing",
                    c.name
                );
            }
            if let Err(e) = fixture::compare(m.0.lazy(), &c.outs[k], c.rtol, c.atol) {
                panic!("{} step {}: {e}", c.name, k + 1);
            }
        }
        assert_eq!(opt.steps(), 3);
    }
    assert_eq!(ran, 7, "SGD (4 forms and one mixed), Adam and AdamW");
}

/// A layer's weight and bias, for parameter groups.
#[derive(Module)]
struct Affine {
    weight: DynTensor,
    bias: DynTensor,
}

#[test]
fn adamw_groups_decay_matrices_and_not_biases() {
    let cases = fixture::load("nn.json");
    let c = cases
        .iter()
        .find(|c| c.json["op"] == "adamw_groups")
        .expect("the groups case");
    let t = tg_test_support::inputs(c);
    let mut m = Affine {
        weight: tg::nn::init::parameter(&t[0]).unwrap(),
        bias: tg::nn::init::parameter(&t[1]).unwrap(),
    };
    let wd = arg(c, "weight_decay").as_f64().expect("weight_decay");
    let mut opt = AdamW::with_groups(&mut m, AdamConfig::new(1.0, wd), decay_matrices).unwrap();
    let lrs = arg(c, "lrs").as_array().expect("lrs");
    for (k, lr) in lrs.iter().enumerate() {
        opt.set_lr(lr.as_f64().expect("lr"));
        opt.advance();
        let grads = [t[2 + 2 * k].clone(), t[3 + 2 * k].clone()];
        let written = opt.update(&mut m, &grads).unwrap();
        tg::runtime::realize(&written.iter().map(|w| w.lazy()).collect::<Vec<_>>()).unwrap();
        for (j, p) in [&m.weight, &m.bias].into_iter().enumerate() {
            if let Err(e) = fixture::compare(p.lazy(), &c.outs[2 * k + j], c.rtol, c.atol) {
                panic!("step {}, parameter {j}: {e}", k + 1);
            }
        }
    }
}

#[test]
fn update_checks_its_gradients() {
    let mut m = One(tg::nn::init::parameter(&DynTensor::zeros(&[3], DType::F32).unwrap()).unwrap());
    let mut opt = Adam::new(&mut m, 0.1).unwrap();
    let wrong = DynTensor::zeros(&[4], DType::F32).unwrap();
    let err = opt.update(&mut m, &[wrong]).unwrap_err().to_string();
    assert!(err.contains("`p`") && err.contains("[4]"), "{err}");
    let err = opt.update(&mut m, &[]).unwrap_err().to_string();
    assert!(err.contains("0 gradients"), "{err}");
}

#[test]
fn schedules() {
    assert_eq!(schedule::step_decay(0.1, 0.5, 10, 25), 0.025);
    assert_eq!(schedule::cosine(1.0, 0.0, 100, 0), 1.0);
    assert!((schedule::cosine(1.0, 0.0, 100, 50) - 0.5).abs() < 1e-12);
    assert_eq!(schedule::cosine(1.0, 0.1, 100, 100), 0.1);
    assert_eq!(schedule::warmup(0.4, 4, 0, 9.0), 0.1);
    assert_eq!(schedule::warmup(0.4, 4, 4, 9.0), 9.0);
}
