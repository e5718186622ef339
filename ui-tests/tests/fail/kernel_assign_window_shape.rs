use tg::prelude::*;

#[kernel]
fn write(cache: &Tensor<shape![2, 8, 4]>, rows: &Tensor<shape![2, 9, 4]>, pos: i32) -> Tensor<shape![2, 8, 4]> {
    cache.assign_window(1, pos, rows)
}

fn main() {}
