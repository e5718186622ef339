use tg::prelude::*;

#[kernel]
fn f(a: Tensor<shape![2, 4, 8]>, b: Tensor<shape![3, 8, 5]>) -> Tensor<shape![2, 4, 5]> {
    a.matmul(b)
}

fn main() {}
