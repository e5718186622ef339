use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![2, 2]>) -> Tensor<shape![2, 2]> {
    x + tensor!([[1.0, 2.0], [3.0]])
}

fn main() {}
