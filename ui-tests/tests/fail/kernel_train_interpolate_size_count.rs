use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 3, 8]>) -> Tensor<shape![B, 3, 16]> {
    x.interpolate([4, 4, 4, 4])
}

fn main() {}
