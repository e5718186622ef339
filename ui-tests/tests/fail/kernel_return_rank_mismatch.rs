use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 10]>) -> Tensor<shape![B, 10]> {
    x.sum(1)
}

fn main() {}
