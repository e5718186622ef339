use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4, 3]>) -> (Tensor<shape![4, 3]>, Tensor<shape![3]>, Tensor<shape![3, 3]>) {
    let (u, s, vh) = x.svd();
    (u, s, vh)
}

fn main() {}
