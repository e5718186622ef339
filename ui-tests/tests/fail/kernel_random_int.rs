use tg::prelude::*;

#[kernel]
fn noise(x: Tensor<shape![4], i32>) -> Tensor<shape![4], i32> {
    x.rand_like()
}

fn main() {}
