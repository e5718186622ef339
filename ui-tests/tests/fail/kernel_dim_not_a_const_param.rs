use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![N, 3]>) -> Tensor<shape![N, 3]> {
    x.relu()
}

fn main() {}
