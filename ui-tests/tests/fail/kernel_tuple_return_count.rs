use tg::prelude::*;

#[kernel]
fn f(a: Tensor<shape![4]>) -> (Tensor<shape![4]>, Tensor<shape![4]>) {
    (a.relu(), a.exp(), a)
}

fn main() {}
