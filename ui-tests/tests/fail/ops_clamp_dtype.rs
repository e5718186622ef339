use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank1<3>, i32>::zeros();
    let _c = a.clamp(0.5, 2.5);
}
