use tg::prelude::*;

#[kernel]
fn f<const B: usize>(a: Tensor<shape![B, 3]>, b: Tensor<shape![3, 5]>) -> Tensor<shape![B, 5]> {
    a.einsum(b, "ij,jk->ik")
}

fn main() {}
