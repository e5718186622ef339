use tg::prelude::*;

// Tensors may be passed by shared reference: the caller keeps them without `.clone()`.
#[kernel]
fn affine<const B: usize>(
    x: &Tensor<shape![B, 3]>,
    w: &Tensor<shape![3, 2]>,
    b: Tensor<shape![2]>,
) -> Tensor<shape![B, 2]> {
    x.matmul(w) + b
}

#[kernel]
fn scaled<'a>(x: &'a Tensor<shape![_, 2]>, k: f32) -> tg::Result<Tensor<shape![_, 2]>> {
    x * k
}

fn main() {
    let x = Tensor::<Rank2<2, 3>>::from_slice(&[1., 2., 3., 4., 5., 6.]).unwrap();
    let w = Tensor::<Rank2<3, 2>>::from_slice(&[1., 0., 0., 1., 1., 1.]).unwrap();
    for _ in 0..2 {
        // the same borrowed inputs, called twice (the second call replays)
        let y = affine(&x, &w, Tensor::zeros());
        assert_eq!(y.to_vec().unwrap(), vec![4., 5., 10., 11.]);
    }
    let d = Tensor::<shape![_, 2]>::from_slice_shape((1, Const), &[1., 2.]).unwrap();
    assert_eq!(scaled(&d, 3.0).unwrap().to_vec().unwrap(), vec![3., 6.]);
    assert_eq!(x.dims(), vec![2, 3]);
}
