//! `Sequential`: its tensors named by position as torch's are, its forward pass the layers'
//! in order (against the same layers applied by hand), training mode passed on, and a
//! `#[kernel]` training step over it equal to the eager step.

use tg::nn::{Dropout, Func, LayerNorm, Linear, Module, Sequential};
use tg::optim::{AdamW, Optimizer};
use tg::prelude::*;
use tg::untyped::loss::Reduction;
use tg_test_support::assert_close;

use crate::eager;

fn net() -> Sequential {
    Sequential::new()
        .with(Linear::new(6, 8, true).unwrap())
        .with(Func(|x| x.relu()))
        .with(LayerNorm::new(8).unwrap())
        .with(Dropout::new(0.5).unwrap())
        .with(Linear::new(8, 3, true).unwrap())
}

fn input() -> DynTensor {
    let xs: Vec<f32> = (0..24).map(|i| ((i * 5) % 11) as f32 * 0.2 - 1.0).collect();
    DynTensor::from_slice(&[4, 6], &xs).unwrap()
}

#[test]
fn a_sequential_names_its_tensors_by_position_and_applies_its_layers_in_order() {
    let mut seq = net();
    let names = crate::parameter_names(&seq);
    assert_eq!(
        names,
        [
            "0.weight", "0.bias", "2.weight", "2.bias", "4.weight", "4.bias"
        ]
    );
    seq.set_training(false); // dropout off: the pass is deterministic
    let x = input();
    let got = seq.forward(&x).unwrap().to_vec::<f32>().unwrap();
    let p = seq.parameters().unwrap();
    let l1 = x
        .matmul(&p[0].1.transpose(0, 1).unwrap())
        .unwrap()
        .add(&p[1].1)
        .unwrap();
    let h = l1.relu().unwrap();
    let h = h
        .layernorm(&[-1], 1e-5)
        .unwrap()
        .mul(&p[2].1)
        .unwrap()
        .add(&p[3].1)
        .unwrap();
    let want = h
        .matmul(&p[4].1.transpose(0, 1).unwrap())
        .unwrap()
        .add(&p[5].1)
        .unwrap();
    assert_close(&got, &want.to_vec::<f32>().unwrap(), 1e-5);
}

/// A kernel over a `Sequential` and AdamW, both by `&mut`.
#[kernel]
fn step(
    model: &mut Sequential,
    opt: &mut AdamW,
    x: &Tensor<shape![4, 6]>,
    y: &Tensor<shape![4], i32>,
) -> Tensor<shape![]> {
    let logits = model.forward(x.as_dyn())?;
    let loss = logits.sparse_categorical_crossentropy(y.as_dyn(), None, 0.0, Reduction::Mean)?;
    opt.step(model, &loss)?;
    loss
}

#[test]
fn a_kernel_step_over_a_sequential_matches_the_eager_step() {
    let (mut model, mut eager) = (net(), net());
    eager.load_state_dict(&model.state_dict().unwrap()).unwrap();
    model.set_training(false);
    eager.set_training(false);
    let mut opt = AdamW::new(&mut model, 0.01, 0.1).unwrap();
    let mut eager_opt = AdamW::new(&mut eager, 0.01, 0.1).unwrap();
    let x = Tensor::<Rank2<4, 6>>::from_dyn(input());
    x.realize().unwrap();
    for k in 0..3 {
        let y = Tensor::<Rank1<4>, i32>::from_slice(&[k % 3, 1, 2, 0]).unwrap();
        y.realize().unwrap();
        let loss = step(&mut model, &mut opt, &x, &y).to_vec().unwrap();
        let want = eager
            .forward(x.as_dyn())
            .unwrap()
            .sparse_categorical_crossentropy(y.as_dyn(), None, 0.0, Reduction::Mean)
            .unwrap();
        assert_close(&loss, &eager::step(&mut eager_opt, &mut eager, &want), 1e-5);
        eager::assert_same_parameters(&model, &eager, k);
    }
}

/// The model's forward pass alone.
#[kernel]
fn predict(model: &mut Sequential, x: &Tensor<shape![4, 6]>) -> Tensor<shape![4, 3]> {
    model.forward(x.as_dyn())?
}

#[test]
fn a_kernel_recorded_while_training_is_not_replayed_in_evaluation() {
    let mut model = net();
    let x = Tensor::<Rank2<4, 6>>::from_dyn(input());
    x.realize().unwrap();
    let before = tg::runtime::thread_stats();
    predict(&mut model, &x).realize().unwrap(); // recorded with dropout on
    model.set_training(false);
    let got = predict(&mut model, &x).to_vec().unwrap(); // records anew: dropout off
    let after = tg::runtime::thread_stats();
    assert_eq!(
        after.schedules - before.schedules,
        2,
        "two recordings, one per mode"
    );
    let want = model.forward(x.as_dyn()).unwrap().to_vec::<f32>().unwrap();
    assert_close(&got, &want, 1e-5);
}
