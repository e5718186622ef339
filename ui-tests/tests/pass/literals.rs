use tg::prelude::*;

fn main() {
    let a: Tensor<Rank2<2, 3>> = tensor!([[1., 2., 3.], [4., 5., 6.]]);
    let b: Tensor<Rank1<3>, u8> = tensor!([1, 200, 255]; u8);
    let c: Tensor<Rank2<0, 3>> = tensor!([]; f32, [0, 3]);
    assert_eq!(a.dims(), vec![2, 3]);
    assert_eq!(b.dims(), vec![3]);
    assert_eq!(c.numel(), 0);
}
