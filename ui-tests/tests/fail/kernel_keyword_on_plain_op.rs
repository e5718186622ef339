use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4, 4]>) -> Tensor<shape![4]> {
    x.sum(axis = 1)
}

fn main() {}
