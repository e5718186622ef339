use tg::nn::TypedLayerNorm;
use tg::prelude::*;

// A layer norm over a last axis of 8, given `[B, T, 6]`.
#[kernel]
fn norm<const B: usize, const T: usize>(
    ln: &TypedLayerNorm<8>,
    x: &Tensor<shape![B, T, 6]>,
) -> Tensor<shape![B, T, 6]> {
    ln.forward(x)
}

fn main() {}
