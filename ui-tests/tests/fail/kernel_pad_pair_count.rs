use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![2, 3]>) -> Tensor<shape![4, 3]> {
    x.pad([(1, 1)])
}

fn main() {}
