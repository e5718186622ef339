use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![1, 1, 2, 2]>, w: Tensor<shape![1, 1, 3, 3]>) -> Tensor<shape![1, 1, 1, 1]> {
    x.conv2d(w)
}

fn main() {}
