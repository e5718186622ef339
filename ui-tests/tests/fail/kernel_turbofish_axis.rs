use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4, 3]>) -> Tensor<shape![4]> {
    x.sum::<1>()
}

fn main() {}
