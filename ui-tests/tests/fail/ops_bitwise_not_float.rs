use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank1<3>, f64>::zeros();
    let _b = a.bitwise_not();
}
