use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank2<2, 3>>::zeros();
    let _p: Tensor<Rank2<2, 2>> = a.pad_to();
}
