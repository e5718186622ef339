use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 3]>, b: Tensor<shape![4]>) -> Tensor<shape![B, 3]> {
    x + b
}

fn main() {}
