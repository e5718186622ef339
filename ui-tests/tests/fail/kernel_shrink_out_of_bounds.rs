use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![2, 3]>) -> Tensor<shape![2, 3]> {
    x.shrink([(0, 2), (1, 4)])
}

fn main() {}
