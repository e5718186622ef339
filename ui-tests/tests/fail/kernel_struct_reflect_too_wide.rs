use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![2, 3]>) -> Tensor<shape![2, 6]> {
    x.pad_with([(0, 0), (3, 0)], "reflect")
}

fn main() {}
