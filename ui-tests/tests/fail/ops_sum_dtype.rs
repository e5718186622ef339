use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank1<3>, i8>::zeros();
    let _s: Tensor<Rank0, i8> = a.sum();
}
