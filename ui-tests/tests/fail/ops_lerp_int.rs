use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank1<3>, i32>::zeros();
    let b = Tensor::<Rank1<3>, i32>::ones();
    let _c = a.lerp(&b, 1);
}
