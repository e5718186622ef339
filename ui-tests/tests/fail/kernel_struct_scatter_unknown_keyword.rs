use tg::prelude::*;

#[kernel]
fn f(z: Tensor<shape![2, 3]>, i: Tensor<shape![2, 3], i32>) -> Tensor<shape![2, 3]> {
    z.scatter(0, i, 1.0, mode = "add")
}

fn main() {}
