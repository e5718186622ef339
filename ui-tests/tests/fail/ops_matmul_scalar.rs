use tg::prelude::*;

fn main() {
    let s = Tensor::<Rank0>::zeros();
    let m = Tensor::<Rank2<2, 3>>::zeros();
    let _y = s.matmul(&m);
}
