use tg::prelude::*;

#[kernel]
fn f<const B: usize>(p: Tensor<shape![B, 3]>, y: Tensor<shape![B, 4]>) -> Tensor<shape![]> {
    p.sigmoid().binary_crossentropy(y)
}

fn main() {}
