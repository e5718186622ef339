use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank3<2, 3, 4>>::zeros();
    let _p = a.permute::<Perm3<0, 1, 1>>();
}
