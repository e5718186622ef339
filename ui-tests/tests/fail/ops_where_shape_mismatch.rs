use tg::prelude::*;

fn main() {
    let cond = Tensor::<Rank1<3>, bool>::zeros();
    let x = Tensor::<Rank1<4>>::zeros();
    let _y = cond.where_(&x, 0.0);
}
