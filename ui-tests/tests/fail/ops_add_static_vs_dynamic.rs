use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank2<2, 3>>::zeros();
    let b = Tensor::<shape![_, 4]>::zeros_shape((2, Const));
    let _c = a * b;
}
