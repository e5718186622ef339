use tg::prelude::*;

#[kernel]
fn trace(a: Tensor<shape![2, 3]>) -> Tensor<shape![]> {
    a.einsum("ii->")
}

fn main() {}
