use tg::prelude::*;

#[kernel]
fn f<const B: usize>(
    x: Tensor<shape![B, 3, 8, 8]>,
    w: Tensor<shape![4, 2, 3, 3]>,
) -> Tensor<shape![B, 2, 10, 10]> {
    x.conv_transpose2d(w)
}

fn main() {}
