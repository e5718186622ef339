use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank1<3>, i32>::zeros();
    let b = Tensor::<Rank1<4>, i32>::zeros();
    let _c = a.maximum(&b);
}
