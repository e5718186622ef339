use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4]>) -> Tensor<shape![4]> {
    x.diagonal()
}

fn main() {}
