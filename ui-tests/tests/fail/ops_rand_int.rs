use tg::prelude::*;

fn main() {
    let _r = Tensor::<Rank1<3>, i32>::rand();
}
