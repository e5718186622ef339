use tg::prelude::*;

#[kernel]
fn f(a: Tensor<shape![2, 3]>, b: Tensor<shape![4, 5]>) -> Tensor<shape![2, 8]> {
    a.cat([b], 1)
}

fn main() {}
