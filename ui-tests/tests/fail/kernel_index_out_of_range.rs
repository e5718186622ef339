use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4, 3]>) -> Tensor<shape![4]> {
    tensor!(x[.., 3])
}

fn main() {}
