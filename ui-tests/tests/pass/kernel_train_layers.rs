use tg::prelude::*;

#[kernel]
fn upsample<const B: usize>(
    x: Tensor<shape![B, 1, 1, 2]>,
    w: Tensor<shape![1, 1, 1, 2]>,
    b: Tensor<shape![1]>,
) -> Tensor<shape![B, 1, 1, 4]> {
    x.conv_transpose2d(w, b, stride = 2)
}

/// Max pooling with indices, then unpooling: the maxima back in place, zeros elsewhere.
#[kernel]
fn pool_unpool(
    x: Tensor<shape![1, 1, 2, 4]>,
) -> (Tensor<shape![1, 1, 1, 2], i32>, Tensor<shape![1, 1, 2, 4]>) {
    let (v, i) = x.max_pool2d_with_indices(2);
    (i, v.max_unpool2d(i, 2))
}

/// Unpooling into a given output size (the pooled input had odd sizes).
#[kernel]
fn unpool_to<const B: usize>(
    v: Tensor<shape![B, 1, 1, 2]>,
    i: Tensor<shape![B, 1, 1, 2], i32>,
) -> Tensor<shape![B, 1, 3, 3]> {
    v.max_unpool2d(i, 2, output_size = [3, 3])
}

#[kernel]
fn resize(t: Tensor<shape![1, 2]>) -> (Tensor<shape![1, 4]>, Tensor<shape![1, 3]>) {
    (t.interpolate([4]), t.interpolate([3], mode = "nearest"))
}

#[kernel]
fn normalize(
    x: Tensor<shape![1, 2, 2]>,
    mean: Tensor<shape![2]>,
    invstd: Tensor<shape![2]>,
    bias: Tensor<shape![2]>,
) -> Tensor<shape![1, 2, 2]> {
    x.batchnorm(mean, invstd, bias = bias)
}

fn main() {
    // stride 2 places the kernel [1, 10] once per input element, without overlap
    let x = Tensor::<Rank4<1, 1, 1, 2>>::from_slice(&[1.0, 2.0]).unwrap();
    let w = Tensor::<Rank4<1, 1, 1, 2>>::from_slice(&[1.0, 10.0]).unwrap();
    let b = Tensor::<Rank1<1>>::from_slice(&[0.5]).unwrap();
    assert_eq!(
        upsample(x, w, b).to_vec().unwrap(),
        vec![1.5, 10.5, 2.5, 20.5]
    );

    let x =
        Tensor::<Rank4<1, 1, 2, 4>>::from_slice(&[1.0, 7.0, 3.0, 2.0, 0.0, 4.0, 8.0, 1.0]).unwrap();
    let (i, u) = pool_unpool(x);
    assert_eq!(i.to_vec().unwrap(), vec![1, 6]);
    assert_eq!(
        u.to_vec().unwrap(),
        vec![0.0, 7.0, 0.0, 0.0, 0.0, 0.0, 8.0, 0.0]
    );

    let v = Tensor::<Rank4<1, 1, 1, 2>>::from_slice(&[5.0, 7.0]).unwrap();
    let i = Tensor::<Rank4<1, 1, 1, 2>, i32>::from_slice(&[0, 8]).unwrap();
    let u = unpool_to(v, i).to_vec().unwrap();
    assert_eq!(u, vec![5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0]);

    let t = Tensor::<Rank2<1, 2>>::from_slice(&[0.0, 1.0]).unwrap();
    let (linear, nearest) = resize(t);
    assert_eq!(linear.to_vec().unwrap(), vec![0.0, 0.25, 0.75, 1.0]);
    assert_eq!(nearest.to_vec().unwrap(), vec![0.0, 0.0, 1.0]);

    let x = Tensor::<Rank3<1, 2, 2>>::from_slice(&[1.0, 3.0, 10.0, 20.0]).unwrap();
    let mean = Tensor::<Rank1<2>>::from_slice(&[2.0, 15.0]).unwrap();
    let invstd = Tensor::<Rank1<2>>::from_slice(&[1.0, 0.2]).unwrap();
    let bias = Tensor::<Rank1<2>>::from_slice(&[0.0, 100.0]).unwrap();
    assert_eq!(
        normalize(x, mean, invstd, bias).to_vec().unwrap(),
        vec![-1.0, 1.0, 99.0, 101.0]
    );
}
