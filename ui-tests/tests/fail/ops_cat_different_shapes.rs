use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank2<1, 2>>::zeros();
    let b = Tensor::<Rank2<1, 3>>::zeros();
    let _c: Tensor<Rank2<2, 2>> = a.cat::<0, _>(&b);
}
