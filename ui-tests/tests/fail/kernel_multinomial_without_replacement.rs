use tg::prelude::*;

// 5 samples without replacement from rows of 4 weights
#[kernel]
fn f(w: Tensor<shape![3, 4]>) -> Tensor<shape![3, 5], i32> {
    w.multinomial(5)
}

fn main() {}
