use tg::prelude::*;

#[kernel]
fn f<const B: usize>(
    x: Tensor<shape![B, 4, 8, 8]>,
    mean: Tensor<shape![3]>,
    invstd: Tensor<shape![4]>,
) -> Tensor<shape![B, 4, 8, 8]> {
    x.batchnorm(mean, invstd)
}

fn main() {}
