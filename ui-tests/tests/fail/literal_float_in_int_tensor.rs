use tg::prelude::*;

fn main() {
    let _t = tensor!([1, 2.5]; i32);
}
