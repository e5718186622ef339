use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 784]>, w: Tensor<shape![784, 10]>) -> Tensor<shape![B, 128]> {
    x.matmul(w)
}

fn main() {}
