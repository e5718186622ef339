use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank1<3>, i32>::zeros();
    let _m: Tensor<Rank0, i32> = a.mean();
}
