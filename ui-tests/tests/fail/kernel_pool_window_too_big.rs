use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![1, 3, 4, 4]>) -> Tensor<shape![1, 3, 1, 1]> {
    x.max_pool2d(5)
}

fn main() {}
