//! What the tests of a `#[kernel]` training step (`sequential`, `tinygpt`) compare it with: the
//! same step taken eagerly on a copy of the model, and the two models' parameters side by side.

use tg::nn::Module;
use tg::optim::Optimizer;
use tg::prelude::*;

/// One eager step of `opt` on `model` from `loss`; the written tensors and the loss are
/// realized together, and the loss's values returned.
pub fn step(opt: &mut impl Optimizer, model: &mut dyn Module, loss: &DynTensor) -> Vec<f32> {
    let mut written = opt.step(model, loss).unwrap();
    written.push(loss.clone());
    tg::runtime::realize(&written.iter().map(|t| t.lazy()).collect::<Vec<_>>()).unwrap();
    loss.to_vec::<f32>().unwrap()
}

/// Asserts that every parameter of `a` is within 1e-5 of the one of `b` in its place, after
/// step `k`.
pub fn assert_same_parameters(a: &dyn Module, b: &dyn Module, k: i32) {
    for ((n, a), (_, b)) in a.parameters().unwrap().iter().zip(&b.parameters().unwrap()) {
        let (a, b) = (a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
        let worst = a
            .iter()
            .zip(&b)
            .map(|(p, q)| (p - q).abs())
            .fold(0.0, f32::max);
        assert!(
            a.iter().zip(&b).all(|(p, q)| (p - q).abs() <= 1e-5),
            "step {k}, `{n}`: off by {worst}"
        );
    }
}
