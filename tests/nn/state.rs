//! State round trips: a model and its optimizer saved mid-training, loaded into fresh ones,
//! continue exactly as the originals do; a file that does not fit loads nothing.

use tg::nn::{BatchNorm2d, Conv2d, ConvOptions, Linear, Module};
use tg::optim::{Adam, Optimizer};
use tg::prelude::*;
use tg::state::StateDict;
use tg::untyped::loss::Reduction;

/// Its `Module` derived: `conv.weight`, .., `bn.running_mean`, .., `fc.bias`, and
/// `set_training` passed on to the BatchNorm.
#[derive(Module)]
struct Net {
    conv: Conv2d,
    bn: BatchNorm2d,
    fc: Linear,
}

impl Net {
    fn new() -> Net {
        Net {
            conv: Conv2d::new(1, 4, 3, ConvOptions::default()).unwrap(),
            bn: BatchNorm2d::new(4).unwrap(),
            fc: Linear::new(4 * 4 * 4, 3, true).unwrap(),
        }
    }

    fn loss(&mut self, x: &DynTensor, y: &DynTensor) -> DynTensor {
        let h = self
            .bn
            .forward(&self.conv.forward(x).unwrap())
            .unwrap()
            .relu()
            .unwrap();
        self.fc
            .forward(&h.flatten(1, -1).unwrap())
            .unwrap()
            .sparse_categorical_crossentropy(y, None, 0.0, Reduction::Mean)
            .unwrap()
    }
}

fn batch(k: usize) -> (DynTensor, DynTensor) {
    let xs: Vec<f32> = (0..6 * 36)
        .map(|i| (((i + 5 * k) * 13) % 17) as f32 / 17.0)
        .collect();
    let ys: Vec<i32> = (0..6).map(|i| ((i + k) % 3) as i32).collect();
    (
        DynTensor::from_slice(&[6, 1, 6, 6], &xs).unwrap(),
        DynTensor::from_slice(&[6], &ys).unwrap(),
    )
}

fn step(net: &mut Net, opt: &mut Adam, k: usize) -> f32 {
    let (x, y) = batch(k);
    let loss = net.loss(&x, &y);
    let mut written = opt.step(net, &loss).unwrap();
    written.push(loss.clone());
    written.extend(net.tensors().unwrap().into_iter().map(|(_, t)| t));
    tg::runtime::realize(&written.iter().map(|t| t.lazy()).collect::<Vec<_>>()).unwrap();
    loss.to_vec::<f32>().unwrap()[0]
}

fn values(net: &mut Net) -> Vec<(String, Vec<f32>)> {
    net.tensors()
        .unwrap()
        .into_iter()
        .map(|(n, t)| (n, t.to_vec::<f32>().unwrap()))
        .collect()
}

#[test]
fn a_model_and_its_optimizer_resume_from_files() {
    let dir = std::env::temp_dir().join(format!("tg_nn_state_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    DynTensor::manual_seed(1);
    let mut net = Net::new();
    let mut opt = Adam::new(&mut net, 0.01).unwrap();
    for k in 0..3 {
        step(&mut net, &mut opt, k);
    }
    net.save(&dir.join("model.safetensors")).unwrap();
    opt.state_dict()
        .unwrap()
        .save(dir.join("optim.safetensors"))
        .unwrap();

    DynTensor::manual_seed(2);
    let mut fresh = Net::new();
    let mut fresh_opt = Adam::new(&mut fresh, 0.01).unwrap();
    assert_ne!(
        values(&mut fresh),
        values(&mut net),
        "another initialisation"
    );
    fresh.load(&dir.join("model.safetensors")).unwrap();
    fresh_opt
        .load_state_dict(&tg::state::load(dir.join("optim.safetensors")).unwrap())
        .unwrap();
    assert_eq!(fresh_opt.steps(), 3);
    assert_eq!(values(&mut fresh), values(&mut net));
    for k in 3..5 {
        let a = step(&mut net, &mut opt, k);
        let b = step(&mut fresh, &mut fresh_opt, k);
        assert_eq!(a, b, "step {k}: the same loss");
    }
    assert_eq!(
        values(&mut fresh),
        values(&mut net),
        "the same parameters, moments and statistics"
    );
    assert_eq!(
        net.bn.num_batches_tracked.to_vec::<f32>().unwrap(),
        vec![5.0],
        "BatchNorm counted every training step, the loaded ones included"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_state_that_does_not_fit_loads_nothing() {
    DynTensor::manual_seed(3);
    let mut net = Net::new();
    let before = values(&mut net);
    let mut dict = net.state_dict().unwrap();
    // fits: would be written, were the dict whole
    dict.insert(
        "conv.weight",
        DynTensor::zeros(&[4, 1, 3, 3], DType::F32).unwrap(),
    );
    dict.insert("fc.bias", DynTensor::zeros(&[4], DType::F32).unwrap());
    let err = net.load_state_dict(&dict).unwrap_err().to_string();
    assert!(err.contains("`fc.bias`") && err.contains("[4]"), "{err}");
    assert_eq!(values(&mut net), before, "nothing was written");
    let mut partial = StateDict::new();
    partial.insert("fc.weight", net.fc.weight.clone());
    let err = net.load_state_dict(&partial).unwrap_err().to_string();
    assert!(
        err.contains("`conv.weight` is missing") && err.contains("`bn.running_var` is missing"),
        "{err}"
    );
    // the optimizer's state names every tensor it misses
    let opt = Adam::new(&mut net, 0.1).unwrap();
    let mut fresh = Adam::new(&mut net, 0.1).unwrap();
    let mut d = opt.state_dict().unwrap();
    d.remove("fc.bias.v");
    let err = fresh.load_state_dict(&d).unwrap_err().to_string();
    assert!(err.contains("fc.bias.v"), "{err}");
}
