use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 784]>) -> Tensor<shape![B, 5, _]> {
    x.reshape([B, 5, -1])
}

fn main() {}
