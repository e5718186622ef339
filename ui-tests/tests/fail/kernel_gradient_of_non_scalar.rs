use tg::prelude::*;

#[kernel]
fn grad(x: Tensor<shape![4]>, w: Tensor<shape![4]>) -> Tensor<shape![4]> {
    let y = x * w;
    y.gradient(w)
}

fn main() {}
