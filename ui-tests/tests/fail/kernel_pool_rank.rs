use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4, 4]>) -> Tensor<shape![2, 2]> {
    x.avg_pool2d([2, 2, 2])
}

fn main() {}
