use tg::prelude::*;

#[kernel]
fn step(w: Tensor<shape![4]>, g: Tensor<shape![2, 2]>) -> Tensor<shape![4]> {
    w.assign(g * 0.1)
}

fn main() {}
