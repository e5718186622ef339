use tg::prelude::*;

#[kernel]
fn f<const B: usize>(
    x: Tensor<shape![B, 10]>,
    y: Tensor<shape![B], i32>,
    w: Tensor<shape![5]>,
) -> Tensor<shape![]> {
    x.log_softmax(1).nll_loss(y, weight = w)
}

fn main() {}
