use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4, 3]>) -> Tensor<shape![4, 1]> {
    x.sum(1, true, 3)
}

fn main() {}
