use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 10]>, y: Tensor<shape![B], i32>) -> Tensor<shape![]> {
    x.cross_entropy(y, reduction = "none")
}

fn main() {}
