use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![2, 3]>) -> Tensor<shape![2, 3]> {
    x + "ij"
}

fn main() {}
