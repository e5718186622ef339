use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank2<1, 3>>::zeros();
    let _e: Tensor<Rank2<2, 4>> = a.expand();
}
