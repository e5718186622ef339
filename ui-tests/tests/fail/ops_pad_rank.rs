use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank2<2, 3>>::zeros();
    let _p: Tensor<Rank1<10>> = a.pad(&[(1, 1), (0, 0)], 0.0);
}
