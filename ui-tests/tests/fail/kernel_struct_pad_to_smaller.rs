use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![2, 3]>) -> Tensor<shape![1, 3]> {
    x.pad_to([1, -1])
}

fn main() {}
