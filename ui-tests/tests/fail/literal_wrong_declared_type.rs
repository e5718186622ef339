use tg::prelude::*;

fn main() {
    // the literal is 2x3; the annotation says 3x2
    let _t: Tensor<Rank2<3, 2>> = tensor!([[1., 2., 3.], [4., 5., 6.]]);
}
