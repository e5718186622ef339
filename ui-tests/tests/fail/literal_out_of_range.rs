use tg::prelude::*;

fn main() {
    let _t = tensor!([1, 200, 300]; u8);
}
