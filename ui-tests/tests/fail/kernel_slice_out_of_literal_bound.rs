use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4, 3]>) -> Tensor<shape![4, 2]> {
    tensor!(x[.., 1:5])
}

fn main() {}
