use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![2, 1]>) -> Tensor<shape![2]> {
    x.squeeze(-3)
}

fn main() {}
