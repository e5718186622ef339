//! gather, scatter, scatter_reduce, masked_select, nonzero and interpolate against numpy
//! (fixtures/ops_indexing_gather.json, made by scripts/gen_ops_indexing.py), plus the typed
//! API, the errors, and kernel counts.

use tg_test_support::fixture;
use tg_test_support::inputs;

use fixture::{Case, arg};
use serde_json::Value;
use tg::prelude::*;
use tg::runtime::Scalar;

fn num(v: &Value) -> Scalar {
    match v {
        Value::Bool(b) => Scalar::Bool(*b),
        v if v.is_i64() => Scalar::Int(v.as_i64().expect("int")),
        v => fixture::scalar(v, DType::F64),
    }
}

fn size(c: &Case) -> Option<usize> {
    arg(c, "size").as_u64().map(|s| s as usize)
}

fn run(c: &Case) -> Result<DynTensor> {
    let ins = inputs(c);
    let dim = || arg(c, "dim").as_i64().expect("dim") as isize;
    match c.json["op"].as_str().expect("op") {
        "gather" => ins[0].gather(dim(), &ins[1]),
        "scatter" => {
            let reduce = match arg(c, "reduce").as_str() {
                Some("add") => Some(ScatterOp::Add),
                Some("multiply") => Some(ScatterOp::Multiply),
                _ => None,
            };
            let src = arg(c, "src");
            match src.get("tensor") {
                Some(k) => ins[0].scatter(
                    dim(),
                    &ins[1],
                    &ins[k.as_u64().expect("k") as usize],
                    reduce,
                ),
                None => ins[0].scatter(dim(), &ins[1], num(&src["scalar"]), reduce),
            }
        }
        "scatter_reduce" => {
            let reduce = match arg(c, "reduce").as_str().expect("reduce") {
                "sum" => ScatterReduce::Sum,
                "prod" => ScatterReduce::Prod,
                "mean" => ScatterReduce::Mean,
                "amax" => ScatterReduce::Amax,
                _ => ScatterReduce::Amin,
            };
            ins[0].scatter_reduce(
                dim(),
                &ins[1],
                &ins[2],
                reduce,
                arg(c, "include_self").as_bool().expect("bool"),
            )
        }
        "masked_select" => match size(c) {
            None => ins[0].masked_select(&ins[1]),
            Some(n) => ins[0].masked_select_sized(&ins[1], n, num(arg(c, "fill"))),
        },
        "nonzero" => match size(c) {
            None => ins[0].nonzero(),
            Some(n) => ins[0].nonzero_sized(n, arg(c, "fill").as_i64().expect("fill") as i32),
        },
        "interpolate" => {
            let size: Vec<usize> = arg(c, "size")
                .as_array()
                .expect("size")
                .iter()
                .map(|v| v.as_u64().expect("n") as usize)
                .collect();
            let mode = match arg(c, "mode").as_str().expect("mode") {
                "linear" => Interpolation::Linear,
                "nearest" => Interpolation::Nearest,
                _ => Interpolation::NearestExact,
            };
            ins[0].interpolate(
                &size,
                mode,
                arg(c, "align_corners").as_bool().expect("bool"),
            )
        }
        op => panic!("unknown op {op}"),
    }
}

#[test]
fn gather_scatter_match_numpy() {
    fixture::run_all("ops_indexing_gather.json", |c| {
        run(c).map(|t| t.into_lazy()).map_err(|e| e.to_string())
    });
}

/// Every error names the op and the shapes or values involved.
#[test]
fn gather_errors_name_the_op_and_shapes() {
    let x = DynTensor::zeros(&[2, 3], DType::F32).unwrap();
    let i = DynTensor::zeros(&[2, 3], DType::I32).unwrap();
    let z = |shape: &[usize], d: DType| DynTensor::zeros(shape, d).unwrap();
    let err = |r: Result<DynTensor>| r.expect_err("should fail");
    let shape = |e: Error, op: &str, needle: &str| matches!(&e, Error::Shape { op: o, message } if *o == op && message.contains(needle));
    assert!(shape(
        err(x.gather(0, &z(&[2], DType::I32))),
        "gather",
        "rank"
    ));
    assert!(shape(
        err(x.gather(0, &z(&[2, 4], DType::I32))),
        "gather",
        "larger"
    ));
    assert!(matches!(
        err(x.gather(2, &i)),
        Error::AxisOutOfRange {
            op: "gather",
            axis: 2,
            ..
        }
    ));
    assert!(matches!(
        err(x.gather(0, &x)),
        Error::DType {
            op: "gather",
            dtype: DType::F32,
            ..
        }
    ));
    assert!(matches!(
        err(x.scatter(0, &i, z(&[2, 3], DType::I32), None)),
        Error::DTypeMismatch {
            op: "scatter",
            lhs: DType::F32,
            rhs: DType::I32,
            ..
        }
    ));
    assert!(shape(
        err(x.scatter(0, &i, z(&[1, 3], DType::F32), None)),
        "scatter",
        "no larger"
    ));
    assert!(matches!(
        err(x.scatter(0, &i, &x, Some(ScatterOp::Add))),
        Error::Argument { op: "scatter", ref message } if message.contains("scatter_reduce")
    ));
    let e = err(x.scatter_reduce(1, &z(&[3], DType::I32), &x, ScatterReduce::Sum, true));
    assert!(shape(e, "scatter_reduce", "rank"));
    assert!(matches!(
        err(x.masked_select(&i)),
        Error::DType {
            op: "masked_select",
            dtype: DType::I32,
            ..
        }
    ));
    assert!(matches!(
        err(x.masked_select(&z(&[3, 3], DType::Bool))),
        Error::Broadcast { op: "masked_select", ref lhs, ref rhs } if lhs == &[3, 3] && rhs == &[2, 3]
    ));
    let e = err(x.interpolate(&[2, 2, 2], Interpolation::Linear, false));
    assert!(shape(e, "interpolate", "trailing axes"));
    assert!(matches!(
        err(x.interpolate(&[4], Interpolation::Nearest, true)),
        Error::Argument { op: "interpolate", ref message } if message.contains("align_corners")
    ));
    let e = err(z(&[0], DType::F32).interpolate(&[2], Interpolation::Linear, false));
    assert!(shape(e, "interpolate", "empty"));
}

/// Typed forms: the gather's result has the index's shape; data-dependent lengths are a
/// dynamic dim; output dtypes follow the reduction.
#[test]
fn typed_gather_and_scatter() {
    let x = Tensor::<Rank2<2, 3>, i32>::from_slice(&[1, 2, 3, 4, 5, 6]).unwrap();
    let i = Tensor::<Rank2<2, 2>, u8>::from_slice(&[2, 0, 1, 1]).unwrap();
    let g: Tensor<Rank2<2, 2>, i32> = x.gather::<-1, _, _>(&i);
    assert_eq!(g.to_vec().unwrap(), vec![3, 1, 5, 5]);
    let dyn_i = Tensor::<shape![_, 2], i32>::from_slice_shape((1, Const), &[1, 0]).unwrap();
    let g0 = x.gather::<0, _, _>(&dyn_i);
    assert_eq!(g0.to_vec().unwrap(), vec![4, 2]);
    let s = x.scatter::<1, _, _, _>(
        &i,
        &Tensor::<Rank2<2, 2>, i32>::from_slice(&[7, 8, 9, 10]).unwrap(),
    );
    assert_eq!(s.to_vec().unwrap(), vec![8, 2, 7, 4, 10, 6]);
    let sv = x.scatter_value::<0, _, _>(&Tensor::<Rank2<1, 1>, i64>::from_slice(&[1]).unwrap(), 0);
    assert_eq!(sv.to_vec().unwrap(), vec![1, 2, 3, 0, 5, 6]);
    let small = Tensor::<Rank1<3>, i8>::from_slice(&[1, 2, 3]).unwrap();
    let idx = Tensor::<Rank1<3>, i32>::from_slice(&[0, 0, 2]).unwrap();
    let sum: Tensor<Rank1<3>, i32> = small.scatter_sum::<0, _, _, _>(&idx, &small, false);
    assert_eq!(sum.to_vec().unwrap(), vec![3, 2, 3]);
    let mean: Tensor<Rank1<3>, f32> = small.scatter_mean::<0, _, _, _>(&idx, &small, true);
    let m = mean.to_vec().unwrap();
    assert!(
        (m[0] - 4.0 / 3.0).abs() < 1e-6 && m[1..] == [2.0, 3.0],
        "{m:?}"
    );
    let amin: Tensor<Rank1<3>, i8> = small.scatter_amin::<0, _, _, _>(&idx, &small, true);
    assert_eq!(amin.to_vec().unwrap(), vec![1, 2, 3]);
    let mask =
        Tensor::<Rank2<2, 3>, bool>::from_slice(&[true, false, false, false, true, true]).unwrap();
    let sel = x.masked_select(&mask);
    assert_eq!(
        (sel.dims(), sel.to_vec().unwrap()),
        (vec![3], vec![1, 5, 6])
    );
    let fixed = x.masked_select_sized::<4, _>(&mask, -1);
    assert_eq!(fixed.to_vec().unwrap(), vec![1, 5, 6, -1]);
    let nz: Tensor<(usize, Const<2>), i32> = x.nonzero();
    assert_eq!(nz.dims(), vec![6, 2]);
    let nzs: Tensor<Rank2<1, 2>, i32> = x.nonzero_sized::<1>(0);
    assert_eq!(nzs.to_vec().unwrap(), vec![0, 0]);
    let img = Tensor::<Rank3<1, 2, 2>>::from_slice(&[0.0, 1.0, 2.0, 3.0]).unwrap();
    let up: Tensor<Rank3<1, 3, 3>> = img.interpolate(&[3, 3], Interpolation::Linear, true);
    assert_eq!(
        up.to_vec().unwrap(),
        vec![0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0, 2.5, 3.0]
    );
    assert!(
        img.try_interpolate::<Rank3<1, 3, 4>>(&[3, 3], Interpolation::Nearest, false)
            .is_err()
    );
}

/// A gather is one kernel; a scatter sorts its writes by position (a kernel for the records
/// and one that sorts the 3 writes a row in registers: rows of up to 32 writes need no
/// merge) and writes with one more kernel, which searches and gathers.
#[test]
fn gather_kernel_counts() {
    let x = DynTensor::from_slice(&[4, 8], &(0..32).map(|v| v as f32).collect::<Vec<_>>()).unwrap();
    let i = DynTensor::from_slice(&[4, 3], &[0i32, 7, 3, 1, 1, 1, 5, 2, 0, 6, 6, 6]).unwrap();
    x.realize().unwrap();
    i.realize().unwrap();
    let kernels = |t: &DynTensor| {
        let before = tg::runtime::thread_stats().kernels;
        t.realize().unwrap();
        tg::runtime::thread_stats().kernels - before
    };
    assert_eq!(kernels(&x.gather(1, &i).unwrap().mul(2.0).unwrap()), 1);
    let s = x.scatter(1, &i, &x, None).unwrap();
    let n = kernels(&s);
    assert_eq!(n, 3, "scatter took {n} kernels");
    // (not exiting with kernels in flight: lavapipe compiles a kernel at its first dispatch,
    // and a process tearing its libraries down meanwhile crashes in its JIT)
    tg::runtime::synchronize().unwrap();
}
