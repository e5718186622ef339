use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![2, 3]>) -> Tensor<shape![2, 5]> {
    x.pad_with([(0, 0), (1, 1)], "mirror")
}

fn main() {}
