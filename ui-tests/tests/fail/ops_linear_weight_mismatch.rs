use tg::prelude::*;

fn main() {
    let x = Tensor::<Rank2<8, 3>>::zeros();
    let w = Tensor::<Rank2<4, 2>>::zeros();
    let _y = x.linear(&w, None);
}
