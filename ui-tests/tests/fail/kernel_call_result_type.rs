use tg::prelude::*;

// A function's result bound with a tensor type it does not have: the error is at the type
// written for it.
fn half<const B: usize>(x: &Tensor<shape![B, 4]>) -> Tensor<shape![B, 4]> {
    x * 0.5
}

#[kernel]
fn caller<const B: usize>(x: Tensor<shape![B, 4]>) -> Tensor<shape![B]> {
    let h: Tensor<shape![B, 3]> = half(&x);
    h.sum(1)
}

fn main() {}
