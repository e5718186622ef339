use tg::prelude::*;

fn main() {
    let m = Tensor::<Rank2<2, 3>>::zeros();
    let v = Tensor::<Rank1<4>>::zeros();
    let _y = m.matmul(&v);
}
