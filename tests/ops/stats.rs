//! Statistics against numpy/scipy (fixtures/ops_stats.json, made by scripts/gen_ops_stats.py):
//! var, std, var_mean, std_mean, normalize, logsumexp, softmax, log_softmax, softmin,
//! allclose; the typed API's output types; errors; and the kernels a softmax takes.

use tg_test_support::fixture;

use fixture::{Case, arg, dtype};
use half::f16;
use serde_json::Value;
use tg::prelude::*;
use tg::runtime::{Lazy, thread_stats};

fn input(c: &Case, i: usize) -> DynTensor {
    DynTensor::from_lazy(fixture::lazy(&c.inputs[i]))
}

fn axes(c: &Case) -> Option<Vec<isize>> {
    arg(c, "axes").as_array().map(|a| {
        a.iter()
            .map(|v| v.as_i64().expect("axis") as isize)
            .collect()
    })
}

fn num(v: &Value) -> f64 {
    match v.as_str() {
        Some("inf") => f64::INFINITY,
        Some("-inf") => f64::NEG_INFINITY,
        _ => v.as_f64().expect("number"),
    }
}

fn acc(c: &Case) -> Option<DType> {
    arg(c, "acc").as_str().map(|_| dtype(arg(c, "acc")))
}

fn run(c: &Case) -> Result<Vec<Lazy>, String> {
    let x = input(c, 0);
    let keep = || arg(c, "keepdim").as_bool().expect("keepdim");
    let corr = || num(arg(c, "correction"));
    let axis = || arg(c, "axis").as_i64().expect("axis") as isize;
    let ax = axes(c);
    let one = |r: tg::Result<DynTensor>| r.map(|t| vec![t.into_lazy()]);
    let two =
        |r: tg::Result<(DynTensor, DynTensor)>| r.map(|(a, b)| vec![a.into_lazy(), b.into_lazy()]);
    let out = match c.json["op"].as_str().expect("op") {
        "var" => one(x.var(ax.as_deref(), keep(), corr())),
        "std" => one(x.std(ax.as_deref(), keep(), corr())),
        "var_mean" => two(x.var_mean(ax.as_deref(), keep(), corr())),
        "std_mean" => two(x.std_mean(ax.as_deref(), keep(), corr())),
        "normalize" => one(x.normalize(num(arg(c, "p")), axis(), num(arg(c, "eps")))),
        "logsumexp" => one(x.logsumexp(ax.as_deref(), keep())),
        "softmax" => one(x.softmax(axis(), acc(c))),
        "log_softmax" => one(x.log_softmax(axis(), acc(c))),
        "softmin" => one(x.softmin(axis(), acc(c))),
        "allclose" => one(x.allclose(
            input(c, 1),
            num(arg(c, "rtol")),
            num(arg(c, "atol")),
            arg(c, "equal_nan").as_bool().expect("equal_nan"),
        )),
        op => panic!("unknown op {op}"),
    };
    out.map_err(|e| e.to_string())
}

#[test]
fn statistics_match_numpy() {
    fixture::run_all_multi("ops_stats.json", run);
}

#[test]
fn errors_name_the_op_and_the_arguments() {
    let x = DynTensor::zeros(&[2, 3], DType::F32).unwrap();
    assert!(matches!(
        x.var(Some(&[2]), false, 1.0),
        Err(Error::AxisOutOfRange {
            op: "var",
            axis: 2,
            ..
        })
    ));
    assert!(matches!(
        x.std_mean(Some(&[1, -1]), false, 1.0),
        Err(Error::DuplicateAxis {
            op: "var",
            axis: -1,
            ..
        })
    ));
    assert!(matches!(
        x.softmax(2, None),
        Err(Error::AxisOutOfRange {
            op: "softmax",
            axis: 2,
            ..
        })
    ));
    let e = x.log_softmax(0, Some(DType::I32)).unwrap_err();
    assert!(
        matches!(
            e,
            Error::DType {
                op: "log_softmax",
                dtype: DType::I32,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(matches!(
        x.logsumexp(Some(&[-3]), false),
        Err(Error::AxisOutOfRange {
            op: "logsumexp",
            axis: -3,
            ..
        })
    ));
    assert!(matches!(
        x.normalize(f64::NAN, 1, 1e-12),
        Err(Error::Argument { op: "normalize", ref message }) if message.contains("NaN")
    ));
    assert!(matches!(
        x.softmin(-3, None),
        Err(Error::AxisOutOfRange {
            op: "softmin",
            axis: -3,
            ..
        })
    ));
}

#[test]
fn typed_statistics_compute_shapes_and_dtypes() {
    let x = Tensor::<Rank2<2, 3>, i32>::from_slice(&[1, 2, 3, 4, 6, 8]).unwrap();
    let v: Tensor<(), f32> = x.var(0.0);
    assert!((v.item().unwrap() - 34.0 / 6.0).abs() < 1e-5);
    let rows: Tensor<Rank1<2>, f32> = x.var_axis::<-1>(1.0);
    assert_eq!(rows.to_vec().unwrap(), vec![1.0, 4.0]);
    let kept: Tensor<Rank2<1, 3>, f32> = x.std_keepdim::<0>(0.0);
    assert_eq!(kept.to_vec().unwrap(), vec![1.5, 2.0, 2.5]);
    let (s, m): (Tensor<Rank1<2>, f32>, Tensor<Rank1<2>, f32>) = x.std_mean_axis::<1>(1.0);
    assert_eq!(
        (s.to_vec().unwrap(), m.to_vec().unwrap()),
        (vec![1.0, 2.0], vec![2.0, 6.0])
    );
    let (v, m): (Tensor<(), f32>, Tensor<(), f32>) = x.var_mean(1.0);
    assert!((v.item().unwrap() - 6.8).abs() < 1e-5 && m.item().unwrap() == 4.0);

    let h =
        Tensor::<Rank2<2, 2>, f16>::from_slice(&[f16::ZERO, f16::ONE, f16::ONE, f16::ONE]).unwrap();
    let sh: Tensor<Rank2<2, 2>, f16> = h.softmax::<1>();
    assert_eq!(sh.to_vec().unwrap()[2], f16::from_f32(0.5));
    let sf: Tensor<Rank2<2, 2>, f32> = h.log_softmax_as::<-1, f32>();
    assert!((sf.to_vec().unwrap()[0] + 1.3132616).abs() < 1e-6);
    let lse: Tensor<Rank1<2>, f16> = h.logsumexp_axis::<0>();
    assert!((lse.to_vec().unwrap()[0].to_f32() - 1.3132616).abs() < 2e-3);
    let nrm: Tensor<Rank2<2, 3>, f32> = x.normalize::<0>(f64::INFINITY, 1e-12);
    assert_eq!(
        nrm.to_vec().unwrap(),
        vec![0.25, 1.0 / 3.0, 0.375, 1.0, 1.0, 1.0]
    );
    let d = Tensor::<shape![_, 4]>::from_slice_shape((3, Const), &[0.0; 12]).unwrap();
    let dm: Tensor<shape![_, 4]> = d.softmin::<1>();
    assert_eq!(dm.to_vec().unwrap(), vec![0.25; 12]);
    let allc: Tensor<(), bool> = d.allclose(&d, 1e-5, 1e-8, false);
    assert!(allc.item().unwrap());
}

/// Kernels one realize of `t` dispatches.
fn kernels(t: &DynTensor) -> u64 {
    let before = thread_stats().kernels;
    t.realize().expect("realize");
    thread_stats().kernels - before
}

/// A softmax over long trailing rows broadcasts its max and sum back over their own rows:
/// the scheduler's row kernels make it one kernel (tinygrad needs 3).
#[test]
fn softmax_over_long_rows_is_one_kernel() {
    let data: Vec<f32> = (0..8 * 1024)
        .map(|i| ((i * 37) % 101) as f32 * 0.1)
        .collect();
    let x = DynTensor::from_slice(&[8, 1024], &data).unwrap();
    x.realize().unwrap();
    let k = [
        kernels(&x.softmax(-1, None).unwrap()),
        kernels(&x.log_softmax(-1, None).unwrap()),
        kernels(&x.softmax(0, None).unwrap()),
    ];
    // along a leading axis there is no row to share: max, sum and output kernels
    assert!(k[0] == 1 && k[1] == 1 && k[2] <= 3, "{k:?}");
}
