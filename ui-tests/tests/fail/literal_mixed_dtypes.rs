use tg::prelude::*;

fn main() {
    let _t = tensor!([[1.5, 2.0], [3, 4.0]]);
}
