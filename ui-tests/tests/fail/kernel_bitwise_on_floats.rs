use tg::prelude::*;

#[kernel]
fn f(a: Tensor<shape![4]>, b: Tensor<shape![4]>) -> Tensor<shape![4]> {
    a & b
}

fn main() {}
