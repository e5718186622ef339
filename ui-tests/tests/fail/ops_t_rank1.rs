use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank1<3>>::zeros();
    let _t = a.t();
}
