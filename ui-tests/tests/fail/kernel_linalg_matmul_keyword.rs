use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 3]>, w: Tensor<shape![3, 4]>) -> Tensor<shape![B, 4]> {
    x.matmul(other = w)
}

fn main() {}
