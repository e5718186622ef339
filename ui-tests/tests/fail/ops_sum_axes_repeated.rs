use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank3<2, 3, 4>>::zeros();
    let _s = a.sum_axes::<1, -2>();
}
