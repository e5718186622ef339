use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![5, 2]>) -> (Tensor<shape![2, 2]>, Tensor<shape![2, 2]>) {
    x.split([2, 2], 0)
}

fn main() {}
