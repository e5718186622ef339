use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![3]>) -> Tensor<shape![2, 4]> {
    x.expand([2, 4])
}

fn main() {}
