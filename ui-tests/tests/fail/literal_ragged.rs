use tg::prelude::*;

fn main() {
    let _t = tensor!([[1.0, 2.0], [3.0, 4.0, 5.0]]);
}
