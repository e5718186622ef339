use tg::prelude::*;

// the number of tensors chunk returns must be known while the macro expands
#[kernel]
fn f<const N: usize>(x: Tensor<shape![6, 2]>) -> (Tensor<shape![3, 2]>, Tensor<shape![3, 2]>) {
    x.chunk(N)
}

fn main() {}
