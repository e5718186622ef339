use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![4]>, v: Vec<f32>) -> Tensor<shape![4]> {
    x.relu()
}

fn main() {}
