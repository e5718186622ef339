use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank3<2, 3, 4>>::zeros();
    let _f: Tensor<Rank2<2, 10>> = a.flatten_to();
}
