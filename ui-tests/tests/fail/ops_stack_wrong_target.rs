use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank1<2>>::zeros();
    let _s: Tensor<Rank2<2, 3>> = Tensor::stack::<0, _>(&[a.clone(), a]);
}
