use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 10]>) -> Tensor<shape![B]> {
    x.sum(2)
}

fn main() {}
