use tg::prelude::*;

#[kernel]
fn f(c: Tensor<shape![4]>, a: Tensor<shape![4]>) -> Tensor<shape![4]> {
    c.where_(a, 0.0)
}

fn main() {}
