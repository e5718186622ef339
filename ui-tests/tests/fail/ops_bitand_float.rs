use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank1<3>>::zeros();
    let b = Tensor::<Rank1<3>>::zeros();
    let _c = a & b;
}
