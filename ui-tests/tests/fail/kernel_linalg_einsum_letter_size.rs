use tg::prelude::*;

#[kernel]
fn f<const B: usize>(a: Tensor<shape![B, 3]>, b: Tensor<shape![4, 5]>) -> Tensor<shape![B, 5]> {
    a.einsum("ij,jk->ik", b)
}

fn main() {}
