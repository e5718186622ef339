use tg::prelude::*;

#[kernel]
fn f<const B: usize>(a: Tensor<shape![B, 3]>) -> Tensor<shape![B]> {
    a.einsum("ijk->i")
}

fn main() {}
