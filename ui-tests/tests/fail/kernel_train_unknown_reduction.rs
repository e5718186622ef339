use tg::prelude::*;

#[kernel]
fn f<const B: usize>(p: Tensor<shape![B, 3]>, y: Tensor<shape![B, 3]>) -> Tensor<shape![]> {
    p.binary_crossentropy_logits(y, reduction = "average")
}

fn main() {}
