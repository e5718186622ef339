use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 784]>) -> Tensor<shape![B, 28, 27]> {
    x.reshape([B, 28, 27])
}

fn main() {}
