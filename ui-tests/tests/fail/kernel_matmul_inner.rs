use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 784]>, w: Tensor<shape![785, 10]>) -> Tensor<shape![B, 10]> {
    x.matmul(w)
}

fn main() {}
