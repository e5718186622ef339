use tg::prelude::*;

#[kernel]
fn f(z: Tensor<shape![2, 3]>, i: Tensor<shape![1, 3]>) -> Tensor<shape![2, 3]> {
    z.scatter(0, i, 1.0)
}

fn main() {}
