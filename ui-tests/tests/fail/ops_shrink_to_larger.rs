use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank2<2, 3>>::zeros();
    let _s: Tensor<Rank2<4, 3>> = a.shrink_to();
}
