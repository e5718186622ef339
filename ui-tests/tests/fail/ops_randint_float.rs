use tg::prelude::*;

fn main() {
    let _r = Tensor::<Rank1<3>, f32>::randint(0, 10);
}
