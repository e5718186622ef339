use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank2<2, 3>>::zeros();
    let b = Tensor::<Rank2<4, 5>>::zeros();
    let _c = a.matmul(&b);
}
