use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank2<1, 2>>::zeros();
    let _c: Tensor<Rank2<1, 4>> = a.cat::<2, _>(&a);
}
