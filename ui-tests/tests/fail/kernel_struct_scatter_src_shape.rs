use tg::prelude::*;

#[kernel]
fn f(
    z: Tensor<shape![2, 3]>,
    i: Tensor<shape![2, 3], i32>,
    s: Tensor<shape![2, 2]>,
) -> Tensor<shape![2, 3]> {
    z.scatter(0, i, s)
}

fn main() {}
