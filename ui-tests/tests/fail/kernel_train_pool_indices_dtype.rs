use tg::prelude::*;

#[kernel]
fn f<const B: usize>(
    x: Tensor<shape![B, 3, 8, 8]>,
) -> (Tensor<shape![B, 3, 4, 4]>, Tensor<shape![B, 3, 4, 4]>) {
    x.max_pool2d_with_indices(2)
}

fn main() {}
