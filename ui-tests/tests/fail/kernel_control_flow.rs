use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4]>) -> Tensor<shape![4]> {
    if true { x.relu() } else { x }
}

fn main() {}
