use tg::prelude::*;

#[kernel]
fn f<const B: usize>(
    v: Tensor<shape![B, 2, 4, 4]>,
    i: Tensor<shape![B, 2, 4, 3], i32>,
) -> Tensor<shape![B, 2, 8, 8]> {
    v.max_unpool2d(i, 2)
}

fn main() {}
