use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank3<2, 3, 4>>::zeros();
    let b = Tensor::<Rank3<5, 4, 6>>::zeros();
    let _c = a.matmul(&b);
}
