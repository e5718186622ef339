use tg::prelude::*;

fn main() {
    let a: Tensor<Rank2<2, 3>> = tensor!([[1., 2., 3.], [4., 5., 6.]]);
    let b: Tensor<Rank2<2, 3>> = tensor!([[1., 2., 3.], [4., 5., 6.]]);
    let _c = tensor!(a @ b);
}
