use tg::prelude::*;

fn main() {
    let mask = Tensor::<Rank1<3>, u8>::ones();
    let x = Tensor::<Rank1<3>>::zeros();
    let _y = mask.where_(&x, 1.0);
}
