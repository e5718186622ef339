use tg::prelude::*;

#[kernel]
fn f(
    z: Tensor<shape![2, 3]>,
    i: Tensor<shape![2, 3], i32>,
    s: Tensor<shape![2, 3]>,
) -> Tensor<shape![2, 3]> {
    z.scatter_reduce(0, i, s, "max")
}

fn main() {}
