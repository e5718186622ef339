use tg::prelude::*;

fn main() {
    let _t = tensor!([]);
}
