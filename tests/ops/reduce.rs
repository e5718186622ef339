//! Reductions against numpy (fixtures/ops_reduce.json, made by scripts/gen_ops_shape.py), the
//! typed API's output shapes and dtypes, and fusion of a reduction with its elementwise input.

use tg_test_support::fixture;

use fixture::{Case, arg, dtype};
use half::f16;
use tg::prelude::*;
use tg::runtime::{BinaryOp, Lazy};

fn reduce(c: &Case) -> std::result::Result<Lazy, String> {
    let x = DynTensor::from_lazy(fixture::lazy(&c.inputs[0]));
    let axes: Option<Vec<isize>> = arg(c, "axes").as_array().map(|a| {
        a.iter()
            .map(|v| v.as_i64().expect("axis") as isize)
            .collect()
    });
    let (axes, keep) = (
        axes.as_deref(),
        arg(c, "keepdim").as_bool().expect("keepdim"),
    );
    let r = match c.json["op"].as_str().expect("op") {
        "sum" => x.sum(axes, keep),
        "sum_as" => x.sum_as(axes, keep, dtype(arg(c, "dtype"))),
        "prod" => x.prod(axes, keep),
        "max" => x.max(axes, keep),
        "min" => x.min(axes, keep),
        "mean" => x.mean(axes, keep),
        "any" => x.any(axes, keep),
        "all" => x.all(axes, keep),
        op => panic!("unknown op {op}"),
    };
    r.map(DynTensor::into_lazy).map_err(|e| e.to_string())
}

#[test]
fn reductions_match_numpy() {
    fixture::run_all("ops_reduce.json", reduce);
}

#[test]
fn reduction_errors_name_the_op_and_axes() {
    let x = DynTensor::zeros(&[2, 3], DType::F32).unwrap();
    let e = x.sum(Some(&[2]), false).unwrap_err();
    assert!(
        matches!(e, Error::AxisOutOfRange { op: "sum", axis: 2, ref shape } if shape == &[2, 3]),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "sum: axis 2 is out of range for shape [2, 3] (rank 2)"
    );
    assert!(matches!(
        x.max(Some(&[0, -2]), false),
        Err(Error::DuplicateAxis {
            op: "max",
            axis: -2,
            ..
        })
    ));
    let e = DynTensor::zeros(&[], DType::F32)
        .unwrap()
        .mean(Some(&[1]), false)
        .unwrap_err();
    assert!(
        matches!(
            e,
            Error::AxisOutOfRange {
                op: "mean",
                axis: 1,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn typed_reductions_compute_shapes_and_dtypes() {
    let x = Tensor::<Rank3<2, 3, 4>, i8>::from_slice(&[100; 24]).unwrap();
    let total: Tensor<(), i32> = x.sum();
    assert_eq!(total.item().unwrap(), 2400);
    let rows: Tensor<Rank2<2, 4>, i32> = x.sum_axis::<1>();
    assert_eq!(rows.to_vec().unwrap(), vec![300; 8]);
    let kept: Tensor<Rank3<2, 1, 4>, i32> = x.sum_keepdim::<-2>();
    assert_eq!(kept.dims(), vec![2, 1, 4]);
    let two: Tensor<Rank1<3>, i32> = x.sum_axes::<0, -1>();
    assert_eq!(two.to_vec().unwrap(), vec![800; 3]);
    let two_rev: Tensor<Rank1<3>, i32> = x.sum_axes::<-1, 0>();
    assert_eq!(two_rev.dims(), vec![3]);
    let two_kept: Tensor<Rank3<1, 3, 1>, i32> = x.sum_axes_keepdim::<2, 0>();
    assert_eq!(two_kept.dims(), vec![1, 3, 1]);
    let mean: Tensor<Rank1<2>, f32> = x.mean_axes::<1, 2>();
    assert_eq!(mean.to_vec().unwrap(), vec![100.0, 100.0]);
    let prod: Tensor<Rank2<3, 4>, i8> = x.prod_axis::<0>();
    assert_eq!(prod.to_vec().unwrap()[0], 16); // 100 * 100 wraps in i8
    let u = Tensor::<Rank2<2, 2>, u8>::from_slice(&[250, 3, 7, 255]).unwrap();
    let us: Tensor<(), u32> = u.sum();
    assert_eq!(us.item().unwrap(), 515);
    let mn: Tensor<Rank1<2>, u8> = u.min_axis::<1>();
    assert_eq!(mn.to_vec().unwrap(), vec![3, 7]);
    let mx: Tensor<Rank2<1, 2>, u8> = u.max_keepdim::<0>();
    assert_eq!(mx.to_vec().unwrap(), vec![250, 255]);
    let b = Tensor::<Rank2<2, 2>, bool>::from_slice(&[true, false, true, true]).unwrap();
    let count: Tensor<(), i32> = b.sum();
    assert_eq!(count.item().unwrap(), 3);
    let any: Tensor<Rank1<2>, bool> = b.any_axis::<0>();
    let all: Tensor<Rank1<2>, bool> = b.all_axis::<0>();
    assert_eq!(
        (any.to_vec().unwrap(), all.to_vec().unwrap()),
        (vec![true, true], vec![true, false])
    );
    let h = Tensor::<Rank1<3>, f16>::from_slice(&[
        f16::from_f32(1.5),
        f16::from_f32(2.0),
        f16::from_f32(-0.5),
    ])
    .unwrap();
    let hs: Tensor<(), f16> = h.sum();
    let hm: Tensor<(), f16> = h.mean();
    assert_eq!(
        (hs.item().unwrap().to_f32(), hm.item().unwrap().to_f32()),
        (3.0, 1.0)
    );
    let f = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, f32::NAN, 3.0, -4.0]).unwrap();
    let fm: Tensor<Rank1<2>> = f.max_axis::<1>();
    let fmin: Tensor<Rank1<2>> = f.min_axis::<-1>();
    assert!(fm.to_vec().unwrap()[0].is_nan() && fmin.to_vec().unwrap()[0].is_nan());
    assert_eq!(
        (fm.to_vec().unwrap()[1], fmin.to_vec().unwrap()[1]),
        (3.0, -4.0)
    );
    let d = Tensor::<shape![_, 3], f32>::from_slice_shape((0, Const), &[]).unwrap();
    let empty_sum: Tensor<Rank1<3>> = d.sum_axis::<0>();
    let empty_max: Tensor<Rank1<3>> = d.max_axis::<0>();
    let empty_mean: Tensor<Rank1<3>> = d.mean_axis::<0>();
    assert_eq!(empty_sum.to_vec().unwrap(), vec![0.0; 3]);
    assert_eq!(empty_max.to_vec().unwrap(), vec![f32::NEG_INFINITY; 3]);
    assert!(empty_mean.to_vec().unwrap().iter().all(|v| v.is_nan()));
}

/// `((a + b) * c).sum(axis 1)`: the elementwise ops fuse into the reduction's kernel.
#[test]
fn elementwise_into_reduction_is_one_kernel() {
    let data: Vec<f32> = (0..12).map(|v| v as f32).collect();
    let a = Tensor::<Rank2<3, 4>>::from_slice(&data).unwrap();
    let b = Tensor::<Rank2<3, 4>>::from_slice(&[1.0; 12]).unwrap();
    let c = Tensor::<Rank2<3, 4>>::from_slice(&[2.0; 12]).unwrap();
    for t in [&a, &b, &c] {
        t.realize().unwrap();
    }
    let add = a
        .as_dyn()
        .lazy()
        .binary(BinaryOp::Add, b.as_dyn().lazy())
        .unwrap();
    let mul = add.binary(BinaryOp::Mul, c.as_dyn().lazy()).unwrap();
    let y: Tensor<Rank1<3>> =
        Tensor::<Rank2<3, 4>>::from_dyn(DynTensor::from_lazy(mul)).sum_axis::<1>();
    let before = tg::runtime::thread_stats().kernels;
    let v = y.to_vec().unwrap();
    assert_eq!(tg::runtime::thread_stats().kernels - before, 1);
    assert_eq!(v, vec![20.0, 52.0, 84.0]);
}
