use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank1<3>, i8>::zeros();
    let b = Tensor::<Rank1<3>, u8>::zeros();
    let _c: Tensor<Rank1<3>, i8> = a + b;
}
