use tg::prelude::*;

#[kernel]
fn grad(x: Tensor<shape![4]>, w: Tensor<shape![4], i32>) -> Tensor<shape![4], i32> {
    let loss = (x * w.cast(f32)).sum();
    loss.gradient(w)
}

fn main() {}
