use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 10]>, y: Tensor<shape![B]>) -> Tensor<shape![]> {
    x.log_softmax(1).nll_loss(y)
}

fn main() {}
