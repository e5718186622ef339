//! Scans, arg-reductions and sorting against numpy (fixtures/ops_stats_scan_sort.json, made by
//! scripts/gen_ops_stats.py): cumsum, cumprod, cummax, cummin, logcumsumexp, argmax, argmin,
//! sort, argsort, topk; the typed API's output types; errors.

use tg_test_support::fixture;

use fixture::{Case, arg};
use half::f16;
use tg::prelude::*;
use tg::runtime::Lazy;

fn run(c: &Case) -> Result<Vec<Lazy>, String> {
    let x = DynTensor::from_lazy(fixture::lazy(&c.inputs[0]));
    let axis = || arg(c, "axis").as_i64().expect("axis") as isize;
    let flag = |k: &str| arg(c, k).as_bool().expect(k);
    let one = |r: tg::Result<DynTensor>| r.map(|t| vec![t.into_lazy()]);
    let two =
        |r: tg::Result<(DynTensor, DynTensor)>| r.map(|(a, b)| vec![a.into_lazy(), b.into_lazy()]);
    let out = match c.json["op"].as_str().expect("op") {
        "cumsum" => one(x.cumsum(axis())),
        "cumprod" => one(x.cumprod(axis())),
        "cummax" => two(x.cummax(axis())),
        "cummin" => two(x.cummin(axis())),
        "logcumsumexp" => one(x.logcumsumexp(axis())),
        "argmax" => one(x.argmax(arg(c, "axis").as_i64().map(|a| a as isize), flag("keepdim"))),
        "argmin" => one(x.argmin(arg(c, "axis").as_i64().map(|a| a as isize), flag("keepdim"))),
        "sort" => two(x.sort(axis(), flag("descending"))),
        "argsort" => one(x.argsort(axis(), flag("descending"))),
        "topk" => two(x.topk(
            arg(c, "k").as_u64().expect("k") as usize,
            axis(),
            flag("largest"),
        )),
        op => panic!("unknown op {op}"),
    };
    out.map_err(|e| e.to_string())
}

#[test]
fn scans_and_sorts_match_numpy() {
    fixture::run_all_multi("ops_stats_scan_sort.json", run);
}

#[test]
fn errors_name_the_op_and_the_arguments() {
    let x = DynTensor::zeros(&[2, 3], DType::F32).unwrap();
    let axis = |e: Error, op: &str, a: isize| matches!(e, Error::AxisOutOfRange { op: o, axis, .. } if o == op && axis == a);
    assert!(axis(x.cumsum(2).unwrap_err(), "cumsum", 2));
    assert!(axis(x.cummax(-3).unwrap_err().root().clone(), "cummax", -3));
    assert!(axis(x.logcumsumexp(5).unwrap_err(), "logcumsumexp", 5));
    assert!(axis(
        x.sort(2, false).unwrap_err().root().clone(),
        "sort",
        2
    ));
    let e = x.topk(4, 1, true).unwrap_err();
    assert!(
        matches!(e, Error::Argument { op: "topk", ref message } if message.contains("k = 4") && message.contains("[2, 3]")),
        "{e:?}"
    );
    let e = DynTensor::zeros(&[2, 0], DType::F32)
        .unwrap()
        .argmax(Some(1), false)
        .unwrap_err();
    assert!(
        matches!(e, Error::Shape { op: "argmax", ref message } if message.contains("empty") && message.contains("[2, 0]")),
        "{e:?}"
    );
    let e = DynTensor::zeros(&[0], DType::I32)
        .unwrap()
        .argmin(None, false)
        .unwrap_err();
    assert!(
        matches!(e, Error::Shape { op: "argmin", ref message } if message.contains("empty")),
        "{e:?}"
    );
}

#[test]
fn typed_scans_compute_shapes_and_dtypes() {
    let x = Tensor::<Rank2<2, 3>, u8>::from_slice(&[200, 100, 1, 3, 1, 2]).unwrap();
    let c: Tensor<Rank2<2, 3>, u32> = x.cumsum::<1>();
    assert_eq!(c.to_vec().unwrap(), vec![200, 300, 301, 3, 4, 6]);
    let p: Tensor<Rank2<2, 3>, u8> = x.cumprod::<0>();
    assert_eq!(p.to_vec().unwrap(), vec![200, 100, 1, 88, 100, 2]);
    let (v, i): (Tensor<Rank2<2, 3>, u8>, Tensor<Rank2<2, 3>, i32>) = x.cummin::<-1>();
    assert_eq!(
        (v.to_vec().unwrap(), i.to_vec().unwrap()),
        (vec![200, 100, 1, 3, 1, 1], vec![0, 1, 2, 0, 1, 1])
    );
    let l: Tensor<Rank2<2, 3>, f32> = x.logcumsumexp::<0>();
    assert_eq!(l.dims(), vec![2, 3]);
    let a: Tensor<(), i32> = x.argmax();
    let ar: Tensor<Rank1<3>, i32> = x.argmin_axis::<0>();
    let ak: Tensor<Rank2<2, 1>, i32> = x.argmax_keepdim::<1>();
    assert_eq!(
        (
            a.item().unwrap(),
            ar.to_vec().unwrap(),
            ak.to_vec().unwrap()
        ),
        (0, vec![1, 1, 0], vec![0, 0])
    );
    let h = Tensor::<Rank1<3>, f16>::from_slice(&[f16::ONE, f16::NAN, f16::ONE]).unwrap();
    let hs: Tensor<Rank1<3>, f16> = h.cumsum::<0>();
    assert!(hs.to_vec().unwrap()[2].is_nan());
    assert_eq!(h.argmax().item().unwrap(), 1);
    let d = Tensor::<shape![_]>::from_slice_shape((0,), &[]).unwrap();
    assert!(d.try_argmax().is_err() && d.try_argmin_axis::<0>().is_err());
    let b = Tensor::<Rank1<4>, bool>::from_slice(&[true, true, false, true]).unwrap();
    let bs: Tensor<Rank1<4>, i32> = b.cumsum::<0>();
    let bp: Tensor<Rank1<4>, bool> = b.cumprod::<0>();
    assert_eq!(
        (bs.to_vec().unwrap(), bp.to_vec().unwrap()),
        (vec![1, 2, 2, 3], vec![true, true, false, false])
    );
}

#[test]
fn typed_sorts_compute_shapes_and_dtypes() {
    let x = Tensor::<Rank2<2, 4>, i8>::from_slice(&[3, -1, 3, 0, 7, 7, 7, -128]).unwrap();
    let (v, i): (Tensor<Rank2<2, 4>, i8>, Tensor<Rank2<2, 4>, i32>) = x.sort::<1>(false);
    assert_eq!(v.to_vec().unwrap(), vec![-1, 0, 3, 3, -128, 7, 7, 7]);
    assert_eq!(i.to_vec().unwrap(), vec![1, 3, 0, 2, 3, 0, 1, 2]);
    let a: Tensor<Rank2<2, 4>, i32> = x.argsort::<0>(true);
    assert_eq!(a.to_vec().unwrap(), vec![1, 1, 1, 0, 0, 0, 0, 1]);
    let (tv, ti): (Tensor<Rank2<2, 2>, i8>, Tensor<Rank2<2, 2>, i32>) =
        x.topk::<-1, Rank2<2, 2>>(2, true);
    assert_eq!(
        (tv.to_vec().unwrap(), ti.to_vec().unwrap()),
        (vec![3, 3, 7, 7], vec![0, 2, 0, 1])
    );
    let (dv, _) = x.topk::<1, shape![2, _]>(3, false);
    assert_eq!(dv.to_vec().unwrap(), vec![-1, 0, 3, -128, 7, 7]);
    assert!(x.try_topk::<1, Rank2<2, 3>>(2, true).is_err());
    assert!(x.try_topk::<1, shape![2, _]>(5, true).is_err());
}

/// A stable sort keeps equal values in input order even where the bitonic network moves
/// them; checked on a long row with few distinct values, both directions.
#[test]
fn sort_is_stable_on_long_rows_with_few_values() {
    let n = 777;
    let data: Vec<i32> = (0..n).map(|i| ((i * 7919) % 13) as i32).collect();
    let x = DynTensor::from_slice(&[n], &data).unwrap();
    for descending in [false, true] {
        let (v, i) = x.sort(0, descending).unwrap();
        let (v, i) = (v.to_vec::<i32>().unwrap(), i.to_vec::<i32>().unwrap());
        let mut want: Vec<usize> = (0..n).collect();
        want.sort_by_key(|&k| if descending { -data[k] } else { data[k] });
        assert_eq!(i, want.iter().map(|&k| k as i32).collect::<Vec<_>>());
        assert!(v.iter().zip(&want).all(|(a, &k)| *a == data[k]));
    }
}

/// Past 512 chunks of 256 the chunk totals scan in two stages again: 140000 elements are 547
/// chunks. Integer values make every partial sum exact.
#[test]
fn cumsum_of_very_long_axes_scans_the_totals_in_stages() {
    let n = 140_000;
    let data: Vec<i32> = (0..n).map(|i| (i % 7) as i32 - 3).collect();
    let got = DynTensor::from_slice(&[n], &data)
        .unwrap()
        .cumsum(-1)
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    let want: Vec<i32> = data
        .iter()
        .scan(0, |acc, &v| {
            *acc += v;
            Some(*acc)
        })
        .collect();
    assert_eq!(got, want);
}
