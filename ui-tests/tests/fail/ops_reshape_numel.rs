use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank2<2, 3>>::zeros();
    let _b: Tensor<Rank2<4, 2>> = a.reshape();
}
