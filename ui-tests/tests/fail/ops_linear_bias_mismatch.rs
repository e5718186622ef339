use tg::prelude::*;

fn main() {
    let x = Tensor::<Rank2<8, 3>>::zeros();
    let w = Tensor::<Rank2<3, 2>>::zeros();
    let b = Tensor::<Rank1<3>>::zeros();
    let _y = x.linear(&w, Some(&b));
}
