use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank1<3>, bool>::zeros();
    let b = Tensor::<Rank1<3>, bool>::zeros();
    let _c = a - b;
}
