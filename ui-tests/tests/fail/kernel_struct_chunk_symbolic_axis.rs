use tg::prelude::*;

// `B` pieces of 2 or fewer: the count depends on `B`
#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 4]>) -> (Tensor<shape![B, 4]>, Tensor<shape![B, 4]>) {
    x.chunk(2, 0)
}

fn main() {}
