use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![2, 8], u8>) -> Tensor<shape![2, 32], u8> {
    x.keccak("sha256")
}

fn main() {}
