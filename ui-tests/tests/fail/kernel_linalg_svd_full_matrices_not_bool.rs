use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4, 3]>) -> (Tensor<shape![4, 3]>, Tensor<shape![3]>, Tensor<shape![3, 3]>) {
    x.svd(full_matrices = 0)
}

fn main() {}
