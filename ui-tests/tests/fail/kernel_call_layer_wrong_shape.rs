use tg::nn::TypedLinear;
use tg::prelude::*;

// A layer's forward in a kernel body: the layer takes `[B, 4]`, the body gives `[B, 5]`.
#[kernel]
fn project<const B: usize>(fc: &TypedLinear<4, 3>, x: &Tensor<shape![B, 5]>) -> Tensor<shape![B, 3]> {
    fc.forward(x)
}

fn main() {}
