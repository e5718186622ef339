//! A whole Adam training step of a small MLP as one `#[kernel]` function (tg-bench-train's
//! own, [`tg_bench::mlp_step`], at 8 x 6 -> 5 -> 3) computes what
//! `tg::optim::Adam` computes on the same model, step after step, with the learning rate and
//! bias corrections passed as runtime scalars.

use tg::nn::{Mlp, Module};
use tg::optim::{Adam, Optimizer};
use tg::prelude::*;
use tg::untyped::loss::Reduction;

use tg_bench::mlp_step;

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
        let (kloss, ..) = mlp_step::mlp_adam_step::<8, 6, 5, 3>(
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
