use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank1<3>, f16>::zeros();
    let _c = a.bitwise_xor(1);
}
