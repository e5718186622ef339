//! A two-layer MLP's whole Adam training step as one `#[kernel]` function, generic over its
//! sizes: `tg-bench-train` times it at 64 x 784 -> 128 -> 10, and tg-bench's test
//! `tests/mlp_step.rs` checks it against `tg::optim::Adam` at a small size.

use tg::prelude::*;

/// Forward, the gradients of all four parameters, Adam's moments and update written in
/// place. `lr`, `c1 = 1 / (1 - b1^t)` and `c2 = 1 / (1 - b2^t)` are operands, so each call
/// binds them anew. Weights in torch's layout, as `tg::nn::Linear`: `(out, in)`.
#[allow(clippy::too_many_arguments)]
#[kernel]
pub fn mlp_adam_step<const B: usize, const I: usize, const H: usize, const O: usize>(
    x: &Tensor<shape![B, I]>,
    y: &Tensor<shape![B], i32>,
    w1: &Tensor<shape![H, I]>,
    b1: &Tensor<shape![H]>,
    w2: &Tensor<shape![O, H]>,
    b2: &Tensor<shape![O]>,
    mw1: &Tensor<shape![H, I]>,
    vw1: &Tensor<shape![H, I]>,
    mb1: &Tensor<shape![H]>,
    vb1: &Tensor<shape![H]>,
    mw2: &Tensor<shape![O, H]>,
    vw2: &Tensor<shape![O, H]>,
    mb2: &Tensor<shape![O]>,
    vb2: &Tensor<shape![O]>,
    lr: f32,
    c1: f32,
    c2: f32,
) -> (
    Tensor<shape![]>,
    Tensor<shape![H, I]>,
    Tensor<shape![H]>,
    Tensor<shape![O, H]>,
    Tensor<shape![O]>,
) {
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
