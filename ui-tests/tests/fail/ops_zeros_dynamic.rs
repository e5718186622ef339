use tg::prelude::*;

fn main() {
    let _t = Tensor::<(usize,), i32>::zeros();
}
