use tg::prelude::*;

// A kernel calling a kernel: rustc checks the argument against the callee's signature, so a
// tensor of the wrong shape is an error at the argument of the call.
#[kernel]
fn scale<const B: usize>(x: &Tensor<shape![B, 4]>) -> Tensor<shape![B, 4]> {
    x * 2.0
}

#[kernel]
fn caller<const B: usize>(x: Tensor<shape![B, 5]>) -> Tensor<shape![B, 4]> {
    let y = x.relu();
    let z: Tensor<shape![B, 4]> = scale(&y);
    z
}

fn main() {}
