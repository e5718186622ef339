use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4, 4]>, i: Tensor<shape![4], i32>) -> Tensor<shape![4]> {
    x.gather(1, i)
}

fn main() {}
