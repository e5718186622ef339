use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank2<2, 3>>::zeros();
    let _u = a.unsqueeze::<4>();
}
