use tg::prelude::*;

#[kernel]
fn f<const B: usize>(a: Tensor<shape![B, 3]>, b: Tensor<shape![3, 5]>) -> Tensor<shape![B]> {
    a.einsum("ij,j1->i", b)
}

fn main() {}
