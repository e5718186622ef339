use tg::prelude::*;

#[kernel]
fn f<const B: usize>(x: Tensor<shape![B, 3]>) -> Tensor<shape![{2 * B}, 3]> {
    x.cat([x], 0)
}

fn main() {}
