use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 8]>, w: Tensor<shape![4, 3]>) -> Tensor<shape![B, 3]> {
    tensor!((x @ w).relu())
}

fn main() {}
