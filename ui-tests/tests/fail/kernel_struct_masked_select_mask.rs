use tg::prelude::*;

#[kernel]
fn f(x: Tensor<shape![2, 3]>, m: Tensor<shape![4], bool>) -> Tensor<shape![2]> {
    x.masked_select_sized(m, 2)
}

fn main() {}
