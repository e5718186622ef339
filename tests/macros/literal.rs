//! `tensor!` literals: shape from the nesting, dtype from the literals or stated.

use tg::prelude::*;

#[test]
fn literals_get_static_shapes_and_dtypes() {
    let a: Tensor<Rank2<2, 2>> = tensor!([[1., 2.], [3., 4.]]);
    assert_eq!(a.to_vec().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
    let b: Tensor<Rank1<3>, i32> = tensor!([1, -2, 3]);
    assert_eq!(b.to_vec().unwrap(), vec![1, -2, 3]);
    let c: Tensor<Rank2<1, 2>, bool> = tensor!([[true, false]]);
    assert_eq!(c.to_vec().unwrap(), vec![true, false]);
    let d: Tensor<Rank1<2>, u8> = tensor!([7u8, 255]);
    assert_eq!(d.to_vec().unwrap(), vec![7, 255]);
    let e: Tensor<Rank1<3>, f16> = tensor!([1, 2.5, -3]; f16);
    assert_eq!(
        e.to_vec().unwrap(),
        vec![f16::from_f32(1.0), f16::from_f32(2.5), f16::from_f32(-3.0)]
    );
    let f: Tensor<Rank0, f64> = tensor!(2.5f64);
    assert_eq!(f.item().unwrap(), 2.5);
    let g: Tensor<Rank2<0, 3>> = tensor!([]; f32, [0, 3]);
    assert_eq!(g.numel(), 0);
    let h: Tensor<Rank1<2>> = tensor!([f32::NAN, f32::INFINITY]; f32);
    let v = h.to_vec().unwrap();
    assert!(v[0].is_nan() && v[1] == f32::INFINITY);
    let i: Tensor<Rank3<2, 1, 2>, i64> = tensor!([[[1, 2]], [[3, 4]]]; i64);
    assert_eq!(i.to_vec().unwrap(), vec![1i64, 2, 3, 4]);
}

#[test]
fn expressions_outside_kernels_use_the_typed_operators() {
    let x: Tensor<Rank2<2, 3>> = tensor!([[1., 2., 3.], [4., 5., 6.]]);
    let w: Tensor<Rank2<3, 2>> = tensor!([[1., 0.], [0., 1.], [1., 1.]]);
    let b: Tensor<Rank1<2>> = tensor!([10., 20.]);
    let k = 2.0f32;
    // rank broadcasting of the bias, a scalar variable, precedence of ** over unary minus
    let y: Tensor<Rank2<2, 2>> = tensor!(x @ w * k + b);
    assert_eq!(y.to_vec().unwrap(), vec![18.0, 30.0, 30.0, 42.0]);
    let z: Tensor<Rank1<2>> = tensor!(-b * *2);
    assert_eq!(z.to_vec().unwrap(), vec![-100.0, -400.0]);
    let m: Tensor<Rank1<2>, bool> = tensor!(b > 15 && b < 100);
    assert_eq!(m.to_vec().unwrap(), vec![false, true]);
    // x is still usable: operands are borrowed
    assert_eq!(x.dims(), vec![2, 3]);
}

#[test]
fn indexing_in_expressions() {
    let x: Tensor<Rank2<3, 4>> = tensor!([[0., 1., 2., 3.], [4., 5., 6., 7.], [8., 9., 10., 11.]]);
    let a: Tensor<Rank2<3, 2>> = tensor!(x[.., 1:3]);
    assert_eq!(a.to_vec().unwrap(), vec![1.0, 2.0, 5.0, 6.0, 9.0, 10.0]);
    let b: Tensor<Rank1<4>> = tensor!(x[-1]);
    assert_eq!(b.to_vec().unwrap(), vec![8.0, 9.0, 10.0, 11.0]);
    let c: Tensor<Rank3<1, 2, 4>> = tensor!(x[None, ::2]);
    assert_eq!(
        c.to_vec().unwrap(),
        vec![0.0, 1.0, 2.0, 3.0, 8.0, 9.0, 10.0, 11.0]
    );
    let i: Tensor<Rank1<2>, i32> = tensor!([2, 0]);
    let d: Tensor<Rank2<2, 4>> = tensor!(x[i] * 2.0);
    assert_eq!(
        d.to_vec().unwrap(),
        vec![16.0, 18.0, 20.0, 22.0, 0.0, 2.0, 4.0, 6.0]
    );
}

#[kernel]
fn pick<const B: usize>(
    x: Tensor<shape![B, 4]>,
    i: Tensor<shape![2], i32>,
) -> Tensor<shape![2, 2]> {
    let y = tensor!(x[i, 1:3]);
    y * 10.0
}

#[test]
fn indexing_in_kernels() {
    let x: Tensor<Rank2<3, 4>> = tensor!([[0., 1., 2., 3.], [4., 5., 6., 7.], [8., 9., 10., 11.]]);
    let i: Tensor<Rank1<2>, i32> = tensor!([2, -3]);
    assert_eq!(pick(x, i).to_vec().unwrap(), vec![90.0, 100.0, 10.0, 20.0]);
}
