use tg::prelude::*;

fn main() {
    let a = Tensor::<Rank2<4, 3>>::zeros();
    let _parts = a.split::<2>(&[2, 2]);
}
