use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![2, 3]>) -> Tensor<shape![3, 2]> {
    x.transpose(0, 2)
}

fn main() {}
