use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![3, 3]>) -> (Tensor<shape![3, 1]>, Tensor<shape![3, 2]>) {
    x.split([1, 2], 2)
}

fn main() {}
