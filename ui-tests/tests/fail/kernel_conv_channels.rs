use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 3, 28, 28]>, w: Tensor<shape![8, 4, 3, 3]>) -> Tensor<shape![B, 8, 26, 26]> {
    x.conv2d(w)
}

fn main() {}
