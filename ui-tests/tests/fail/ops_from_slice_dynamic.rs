use tg::prelude::*;

fn main() {
    let _t = Tensor::<shape![_, 3]>::from_slice(&[0.0; 6]);
}
