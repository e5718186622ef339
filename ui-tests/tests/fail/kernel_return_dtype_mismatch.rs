use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4], i32>) -> Tensor<shape![4], i32> {
    x / 2
}

fn main() {}
