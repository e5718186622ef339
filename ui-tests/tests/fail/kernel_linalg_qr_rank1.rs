use tg::prelude::*;

#[kernel]
fn f<const B: usize>(v: Tensor<shape![B]>) -> (Tensor<shape![B, B]>, Tensor<shape![B]>) {
    v.qr()
}

fn main() {}
