use tg::prelude::*;

fn main() {
    let _t = tensor!([1, 2]; float32);
}
