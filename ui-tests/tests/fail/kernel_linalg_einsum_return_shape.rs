use tg::prelude::*;

#[kernel]
fn f(a: Tensor<shape![2, 3]>, b: Tensor<shape![3, 5]>) -> Tensor<shape![5, 2]> {
    a.einsum("ij,jk->ik", b)
}

fn main() {}
