use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![1, 4, 8, 8]>, w: Tensor<shape![6, 1, 3, 3]>) -> Tensor<shape![1, 6, 6, 6]> {
    x.conv2d(w, groups = 4)
}

fn main() {}
