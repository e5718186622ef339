//! A whole Adam training step of a small MLP as one `#[kernel]` function computes what
//! `tg::optim::Adam` computes on the same model, step after step (the form tg-bench-train
//! times), with the learning rate and bias corrections passed as runtime scalars.

use tg::nn::{Mlp, Module};
use tg::optim::{Adam, Optimizer};
use tg::prelude::*;
use tg::untyped::loss::Reduction;

#[allow(clippy::too_many_arguments)]
#[kernel]
fn adam_step(
    x: &Tensor<shape![8, 6]>,
    y: &Tensor<shape![8], i32>,
    w1: &Tensor<shape![5, 6]>,
    b1: &Tensor<shape![5]>,
    w2: &Tensor<shape![3, 5]>,
    b2: &Tensor<shape![3]>,
    mw1: &Tensor<shape![5, 6]>,
    vw1: &Tensor<shape![5, 6]>,
    mb1: &Tensor<shape![5]>,
    vb1: &Tensor<shape![5]>,
    mw2: &Tensor<shape![3, 5]>,
    vw2: &Tensor<shape![3, 5]>,
    mb2: &Tensor<shape![3]>,
    vb2: &Tensor<shape![3]>,
    lr: f32,
    c1: f32,
    c2: f32,
) -> (
    Tensor<shape![]>,
    Tensor<shape![5, 6]>,
    Tensor<shape![5]>,
    Tensor<shape![3, 5]>,
    Tensor<shape![3]>,
) {
    // torch's layout, as tg::nn::Linear: weight (out, in)
    let h = (x.matmul(w1.transpose(0, 1)) + b1).relu();
    let loss = (h.matmul(w2.transpose(0, 1)) + b2).sparse_categorical_crossentropy(y);
    let (gw1, gb1, gw2, gb2) = loss.gradient(w1, b1, w2, b2);
    let nmw1 = mw1.assign(mw1 * 0.9 + gw1 * 0.1);
    let nvw1 = vw1.assign(vw1 * 0.999 + gw1 * gw1 * 0.001);
    let nmb1 = mb1.assign(mb1 * 0.9 + gb1 * 0.1);
    let nvb1 = vb1.assign(vb1 * 0.999 + gb1 * gb1 * 0.001);
    let nmw2 = mw2.assign(mw2 * 0.9 + gw2 * 0.1);
    let nvw2 = vw2.assign(vw2 * 0.999 + gw2 * gw2 * 0.001);
    let nmb2 = mb2.assign(mb2 * 0.9 + gb2 * 0.1);
    let nvb2 = vb2.assign(vb2 * 0.999 + gb2 * gb2 * 0.001);
    (
        loss,
        w1.assign(w1 - nmw1 * c1 / ((nvw1 * c2).sqrt() + 1e-8) * lr),
        b1.assign(b1 - nmb1 * c1 / ((nvb1 * c2).sqrt() + 1e-8) * lr),
        w2.assign(w2 - nmw2 * c1 / ((nvw2 * c2).sqrt() + 1e-8) * lr),
        b2.assign(b2 - nmb2 * c1 / ((nvb2 * c2).sqrt() + 1e-8) * lr),
    )
}

fn batch(k: usize) -> (DynTensor, DynTensor) {
    let xs: Vec<f32> = (0..48)
        .map(|i| (((i + 5 * k) * 7) % 13) as f32 / 13.0 - 0.4)
        .collect();
    let ys: Vec<i32> = (0..8).map(|i| ((i * 2 + k) % 3) as i32).collect();
    (
        DynTensor::from_slice(&[8, 6], &xs).unwrap(),
        DynTensor::from_slice(&[8], &ys).unwrap(),
    )
}

fn state<S: tg::Shape>(d: &DynTensor) -> Tensor<S> {
    let t = DynTensor::state(d).unwrap();
    t.realize().unwrap();
    Tensor::from_dyn(t)
}

#[test]
fn a_kernel_adam_step_matches_the_optimizer() {
    DynTensor::manual_seed(4);
    let mut lib = Mlp::new(6, 5, 3).unwrap();
    let mut opt = Adam::new(&mut lib, 0.02).unwrap();
    // the kernel's copies of the same initial parameters, in buffers of their own
    let p = lib.parameters().unwrap();
    let (w1, b1, w2, b2): (
        Tensor<Rank2<5, 6>>,
        Tensor<Rank1<5>>,
        Tensor<Rank2<3, 5>>,
        Tensor<Rank1<3>>,
    ) = (
        state(&p[0].1),
        state(&p[1].1),
        state(&p[2].1),
        state(&p[3].1),
    );
    let zero = |s: &[usize]| DynTensor::zeros(s, DType::F32).unwrap();
    let (mw1, vw1): (Tensor<Rank2<5, 6>>, Tensor<Rank2<5, 6>>) =
        (state(&zero(&[5, 6])), state(&zero(&[5, 6])));
    let (mb1, vb1): (Tensor<Rank1<5>>, Tensor<Rank1<5>>) = (state(&zero(&[5])), state(&zero(&[5])));
    let (mw2, vw2): (Tensor<Rank2<3, 5>>, Tensor<Rank2<3, 5>>) =
        (state(&zero(&[3, 5])), state(&zero(&[3, 5])));
    let (mb2, vb2): (Tensor<Rank1<3>>, Tensor<Rank1<3>>) = (state(&zero(&[3])), state(&zero(&[3])));
    for k in 0..4 {
        let (x, y) = batch(k);
        let lr = 0.02 / (k + 1) as f64;
        opt.set_lr(lr);
        opt.advance();
        let loss = lib
            .forward(&x)
            .unwrap()
            .sparse_categorical_crossentropy(&y, None, 0.0, Reduction::Mean)
            .unwrap();
        let mut written = opt.descend(&mut lib, &loss).unwrap();
        written.push(loss.clone());
        tg::runtime::realize(&written.iter().map(|t| t.lazy()).collect::<Vec<_>>()).unwrap();

        let t = k as i32 + 1;
        let (c1, c2) = (1.0 / (1.0 - 0.9f32.powi(t)), 1.0 / (1.0 - 0.999f32.powi(t)));
        let (xt, yt) = (Tensor::from_dyn(x), Tensor::from_dyn(y));
        let (kloss, ..) = adam_step(
            &xt, &yt, &w1, &b1, &w2, &b2, &mw1, &vw1, &mb1, &vb1, &mw2, &vw2, &mb2, &vb2,
            lr as f32, c1, c2,
        );
        let (a, b) = (loss.to_vec::<f32>().unwrap()[0], kloss.to_vec().unwrap()[0]);
        assert!((a - b).abs() < 1e-5, "step {k}: loss {a} vs kernel {b}");
        let lib_params: Vec<f32> = lib
            .parameters()
            .unwrap()
            .iter()
            .flat_map(|(_, p)| p.to_vec::<f32>().unwrap())
            .collect();
        let kernel_params: Vec<f32> = [w1.to_vec(), b1.to_vec(), w2.to_vec(), b2.to_vec()]
            .into_iter()
            .flat_map(|v| v.unwrap())
            .collect();
        for (a, b) in lib_params.iter().zip(&kernel_params) {
            assert!(
                (a - b).abs() < 1e-5,
                "step {k}: {lib_params:?} vs kernel {kernel_params:?}"
            );
        }
    }
}
