use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![1, 3, 8, 8]>, w: Tensor<shape![4, 3, 3, 3]>) -> Tensor<shape![1, 4, 6, 6]> {
    x.conv2d(w, strides = 2)
}

fn main() {}
