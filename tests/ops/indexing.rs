//! Indexing, range creation and padding modes against numpy (fixtures/ops_indexing.json and
//! ops_indexing_create.json, made by scripts/gen_ops_indexing.py), plus the typed API, the
//! errors, and kernel counts.

use tg_test_support::fixture;
use tg_test_support::inputs;

use fixture::{Case, arg};
use serde_json::Value;
use tg::prelude::*;
use tg::runtime::Scalar;

fn opt_i(v: &Value) -> Option<isize> {
    v.as_i64().map(|x| x as isize)
}

fn index_list(v: &Value, ins: &[DynTensor]) -> Vec<Index> {
    v.as_array()
        .expect("index list")
        .iter()
        .map(|e| match e {
            Value::String(s) if s == "new" => Index::NewAxis,
            Value::String(s) if s == "ellipsis" => Index::Ellipsis,
            _ if e.get("int").is_some() => Index::Int(e["int"].as_i64().expect("int") as isize),
            _ if e.get("slice").is_some() => {
                let s = &e["slice"];
                Index::Slice {
                    start: opt_i(&s[0]),
                    stop: opt_i(&s[1]),
                    step: s[2].as_i64().expect("step") as isize,
                }
            }
            _ if e.get("tensor").is_some() => {
                Index::Tensor(ins[e["tensor"].as_u64().expect("k") as usize].clone())
            }
            _ => panic!("bad index entry {e}"),
        })
        .collect()
}

/// A JSON number as a scalar: integers stay integers (so `arange`'s dtype inference sees
/// them), other numbers and the strings "nan"/"inf"/"-inf" are floats.
fn num(v: &Value) -> Scalar {
    match v {
        Value::Bool(b) => Scalar::Bool(*b),
        v if v.is_i64() => Scalar::Int(v.as_i64().expect("int")),
        v if v.is_u64() => Scalar::UInt(v.as_u64().expect("uint")),
        v => fixture::scalar(v, DType::F64),
    }
}

fn opt_dtype(v: &Value) -> Option<DType> {
    v.as_str().map(|s| DType::from_name(s).expect("dtype"))
}

fn pairs(v: &Value) -> Vec<(isize, isize)> {
    v.as_array()
        .expect("pairs")
        .iter()
        .map(|p| {
            (
                p[0].as_i64().expect("int") as isize,
                p[1].as_i64().expect("int") as isize,
            )
        })
        .collect()
}

fn mode(c: &Case) -> PadMode {
    match arg(c, "mode").as_str().expect("mode") {
        "reflect" => PadMode::Reflect,
        "replicate" => PadMode::Replicate,
        "circular" => PadMode::Circular,
        "constant" => PadMode::Constant(num(arg(c, "value"))),
        m => panic!("unknown mode {m}"),
    }
}

fn run(c: &Case) -> Result<DynTensor> {
    let ins = inputs(c);
    let i = |k: &str| arg(c, k).as_i64().expect(k) as isize;
    match c.json["op"].as_str().expect("op") {
        "index" => ins[0].index(&index_list(arg(c, "index"), &ins)),
        "setitem" => {
            let idx = index_list(arg(c, "index"), &ins);
            let v = arg(c, "value");
            let mut t = ins[0].clone();
            if let Some(k) = v.get("tensor") {
                t.assign_index(&idx, &ins[k.as_u64().expect("k") as usize])?;
            } else {
                t.assign_index(&idx, num(&v["scalar"]))?;
            }
            Ok(t)
        }
        "arange" => DynTensor::arange(
            num(arg(c, "start")),
            num(arg(c, "stop")),
            num(arg(c, "step")),
            opt_dtype(arg(c, "dtype")),
        ),
        "linspace" => DynTensor::linspace(
            arg(c, "start").as_f64().expect("start"),
            arg(c, "stop").as_f64().expect("stop"),
            arg(c, "steps").as_u64().expect("steps") as usize,
            opt_dtype(arg(c, "dtype")),
        ),
        "eye" => DynTensor::eye(
            arg(c, "n").as_u64().expect("n") as usize,
            arg(c, "m").as_u64().map(|m| m as usize),
            opt_dtype(arg(c, "dtype")),
        ),
        "triu" => ins[0].triu(i("diagonal")),
        "tril" => ins[0].tril(i("diagonal")),
        "one_hot" => ins[0].one_hot(arg(c, "num_classes").as_u64().expect("n") as usize),
        "pad_with" => ins[0].pad_with(&pairs(arg(c, "pads")), mode(c)),
        "pad_flat_with" => {
            let flat: Vec<isize> = arg(c, "pads")
                .as_array()
                .expect("pads")
                .iter()
                .map(|p| p.as_i64().expect("int") as isize)
                .collect();
            ins[0].pad_flat_with(&flat, mode(c))
        }
        op => panic!("unknown op {op}"),
    }
}

fn check_file(file: &str) {
    fixture::run_all(file, |c| {
        run(c).map(|t| t.into_lazy()).map_err(|e| e.to_string())
    });
}

#[test]
fn indexing_matches_numpy() {
    check_file("ops_indexing.json");
}

#[test]
fn ranges_and_pad_modes_match_numpy() {
    check_file("ops_indexing_create.json");
}

/// Every error names the op and the shapes or values involved.
#[test]
fn indexing_errors_name_the_op_and_values() {
    let x = DynTensor::zeros(&[2, 3], DType::F32).unwrap();
    let err = |r: Result<DynTensor>| r.expect_err("should fail");
    let shape = |e: Error, op: &str, needle: &str| matches!(&e, Error::Shape { op: o, message } if *o == op && message.contains(needle));
    let arg = |e: Error, op: &str, needle: &str| matches!(&e, Error::Argument { op: o, message } if *o == op && message.contains(needle));
    let e = err(x.index(&idx![2]));
    assert!(
        e.to_string().starts_with("index: ") && e.to_string().contains("[2, 3]"),
        "{e}"
    );
    assert!(shape(e, "index", "out of range"));
    assert!(shape(
        err(x.index(&idx![0, 0, 0])),
        "index",
        "too many indices (3)"
    ));
    assert!(shape(
        err(x.index(&idx![..., 0, ...])),
        "index",
        "one ellipsis"
    ));
    assert!(arg(err(x.index(&idx![..;0])), "index", "step"));
    let f = DynTensor::zeros(&[2], DType::F32).unwrap();
    assert!(matches!(
        err(x.index(&[Index::Tensor(f.clone())])),
        Error::DType {
            op: "index",
            dtype: DType::F32,
            ..
        }
    ));
    let (a, b) = (
        DynTensor::zeros(&[2], DType::I32).unwrap(),
        DynTensor::zeros(&[3], DType::I32).unwrap(),
    );
    assert!(matches!(
        err(x.index(&idx![&a, &b])),
        Error::Broadcast { op: "index", .. }
    ));
    assert!(matches!(
        err(x.setitem(&idx![0], DynTensor::zeros(&[3], DType::I32).unwrap())),
        Error::DTypeMismatch {
            op: "setitem",
            lhs: DType::F32,
            rhs: DType::I32,
            ..
        }
    ));
    assert!(matches!(
        err(x.setitem(&idx![0], DynTensor::zeros(&[2], DType::F32).unwrap())),
        Error::Broadcast { op: "setitem", ref lhs, ref rhs } if lhs == &[2] && rhs == &[3]
    ));
    // select: a position is one integer
    assert!(arg(
        err(x.select(1, 1.5, false)),
        "select",
        "integer position"
    ));
    assert!(matches!(
        err(x.select(1, &f, false)),
        Error::DType {
            op: "select",
            dtype: DType::F32,
            ..
        }
    ));
    assert!(shape(err(x.select(1, &a, false)), "select", "[2]"));
    assert!(matches!(
        err(x.select(2, 0, false)),
        Error::AxisOutOfRange { op: "select", .. }
    ));
    let mut y = x.clone();
    assert!(y.assign_index(&idx![5], 1.0).is_err());
    assert!(arg(err(DynTensor::arange(0, 5, 0, None)), "arange", "step"));
    assert!(arg(
        err(DynTensor::arange(0, 300, 1, Some(DType::U8))),
        "arange",
        "not representable"
    ));
    assert!(matches!(
        err(DynTensor::arange(0.0, 1.0, 0.5, Some(DType::Bool))),
        Error::DType {
            op: "arange",
            dtype: DType::Bool,
            ..
        }
    ));
    assert!(matches!(
        err(DynTensor::linspace(0.0, 1.0, 3, Some(DType::Bool))),
        Error::DType {
            op: "linspace",
            dtype: DType::Bool,
            ..
        }
    ));
    assert!(matches!(
        err(f32_vec().triu(0)),
        Error::RankTooLow {
            op: "triu",
            min: 2,
            ..
        }
    ));
    assert!(matches!(
        err(x.one_hot(3)),
        Error::DType {
            op: "one_hot",
            dtype: DType::F32,
            ..
        }
    ));
    let r = DynTensor::zeros(&[3], DType::F32).unwrap();
    assert!(arg(
        err(r.pad_with(&[(3, 0)], PadMode::Reflect)),
        "pad",
        "smaller than"
    ));
    assert!(arg(
        err(r.pad_with(&[(4, 0)], PadMode::Circular)),
        "pad",
        "more than once"
    ));
    let empty = DynTensor::zeros(&[0], DType::F32).unwrap();
    assert!(arg(
        err(empty.pad_with(&[(1, 0)], PadMode::Replicate)),
        "pad",
        "replicate"
    ));
    assert!(matches!(
        r.pad_with(&[(1, 1), (0, 0)], PadMode::Reflect),
        Err(Error::RankMismatch {
            op: "pad",
            given: 2,
            ..
        })
    ));
    assert!(arg(
        err(r.pad_flat_with(&[1], PadMode::Circular)),
        "pad",
        "pairs"
    ));
}

fn f32_vec() -> DynTensor {
    DynTensor::zeros(&[3], DType::F32).unwrap()
}

/// The index list macro and the `Index` constructors write what numpy writes.
#[test]
fn idx_macro_forms() {
    let t = DynTensor::from_slice(&[2, 5], &(0..10).collect::<Vec<i32>>()).unwrap();
    let get = |i: &[Index]| t.index(i).unwrap().to_vec::<i32>().unwrap();
    assert_eq!(get(&idx![1, 1..3]), vec![6, 7]);
    assert_eq!(get(&idx![0, ..=2]), vec![0, 1, 2]);
    assert_eq!(get(&idx![0, ..=-1]), vec![0, 1, 2, 3, 4]);
    assert_eq!(get(&idx![-1, 2..;2]), vec![7, 9]);
    assert_eq!(get(&idx![.., 4..;-3]), vec![4, 1, 9, 6]);
    assert_eq!(get(&idx![..;-1, 0]), vec![5, 0]);
    let n: usize = 3;
    assert_eq!(get(&idx![1, n..]), vec![8, 9]);
    assert_eq!(get(&[Index::Int(0), Index::slice(-2.., 1)]), vec![3, 4]);
    assert_eq!(
        get(&[Index::Int(1), Index::list(&[4, -5]).unwrap()]),
        vec![9, 5]
    );
    assert_eq!(
        t.index(&idx![None, ..., None]).unwrap().shape(),
        &[1, 2, 5, 1]
    );
    let typed = Tensor::<Rank1<2>, i64>::from_slice(&[1, 0]).unwrap();
    assert_eq!(get(&idx![&typed, 0]), vec![5, 0]);
}

/// Typed indexing: the caller names the result, the run checks it.
#[test]
fn typed_indexing_and_creation() {
    let t =
        Tensor::<Rank3<2, 3, 4>, f32>::from_slice(&(0..24).map(|v| v as f32).collect::<Vec<_>>())
            .unwrap();
    let r: Tensor<Rank2<3, 2>, f32> = t.index(&idx![1, .., 1..;2]);
    assert_eq!(
        r.to_vec().unwrap(),
        vec![13.0, 15.0, 17.0, 19.0, 21.0, 23.0]
    );
    assert!(t.try_index::<Rank2<3, 3>>(&idx![1, .., 1..;2]).is_err());
    let d: Tensor<shape![_, 4], f32> = t.index(&idx![
        0,
        &DynTensor::from_slice(&[3], &[2i32, 2, 0]).unwrap()
    ]);
    assert_eq!(d.dims(), vec![3, 4]);
    let last: Tensor<Rank2<2, 3>, f32> = t.index_axis::<-1>(-1);
    assert_eq!(last.to_vec().unwrap()[..3], [3.0, 7.0, 11.0]);
    let mut m = Tensor::<Rank2<2, 2>, i32>::zeros();
    m.assign_index(&idx![.., 1], 4);
    m.assign_index(&idx![0], Tensor::<Rank1<1>, i32>::from_slice(&[9]).unwrap());
    assert_eq!(m.to_vec().unwrap(), vec![9, 9, 0, 4]);
    assert!(m.try_assign_index(&idx![3], 1).is_err());
    assert_eq!(m.to_vec().unwrap(), vec![9, 9, 0, 4]);

    let a = Tensor::<shape![_], i64>::arange(-2, 7, 3);
    assert_eq!(a.to_vec().unwrap(), vec![-2, 1, 4]);
    assert!(Tensor::<Rank1<4>, i32>::try_arange(0, 3, 1).is_err());
    let l = Tensor::<Rank1<3>, f16>::linspace(0.0, 1.0);
    assert_eq!(
        l.to_vec().unwrap(),
        vec![f16::from_f32(0.0), f16::from_f32(0.5), f16::from_f32(1.0)]
    );
    let e = Tensor::<Rank2<2, 3>, bool>::eye();
    assert_eq!(
        e.to_vec().unwrap(),
        vec![true, false, false, false, true, false]
    );
    let tri = Tensor::<Rank3<1, 2, 2>, f32>::ones().triu(0).tril(0);
    assert_eq!(tri.to_vec().unwrap(), vec![1.0, 0.0, 0.0, 1.0]);
    let oh: Tensor<Rank2<2, 4>, i32> = Tensor::<Rank1<2>, u16>::from_slice(&[3, 9])
        .unwrap()
        .one_hot::<4>();
    assert_eq!(oh.to_vec().unwrap(), vec![0, 0, 0, 1, 0, 0, 0, 0]);
    let p: Tensor<Rank2<4, 5>, i32> = Tensor::<Rank2<2, 3>, i32>::from_slice(&[1, 2, 3, 4, 5, 6])
        .unwrap()
        .pad_with(&[(1, 1), (1, 1)], PadMode::Replicate);
    assert_eq!(p.to_vec().unwrap()[..5], [1, 1, 2, 3, 3]);
    let neg_inf: Tensor<Rank1<3>> = Tensor::<Rank1<1>>::from_slice(&[1.0])
        .unwrap()
        .pad_with(&[(1, 1)], PadMode::constant(f32::NEG_INFINITY));
    assert_eq!(
        neg_inf.to_vec().unwrap(),
        vec![f32::NEG_INFINITY, 1.0, f32::NEG_INFINITY]
    );
}

/// Basic indexing is a view, and assignment a masked merge: each fuses into one kernel with
/// what reads it; a reflect pad is one kernel too.
#[test]
fn indexing_fuses() {
    let x = DynTensor::from_slice(&[6, 8], &(0..48).map(|v| v as f32).collect::<Vec<_>>()).unwrap();
    x.realize().unwrap();
    let kernels = |t: &DynTensor| {
        let before = tg::runtime::thread_stats().kernels;
        t.realize().unwrap();
        tg::runtime::thread_stats().kernels - before
    };
    let v = x
        .index(&idx![1..;2, ..;-3, None])
        .unwrap()
        .add(1.0)
        .unwrap();
    assert_eq!(kernels(&v), 1);
    let s = x
        .setitem(&idx![..;2, 1..7;3], x.index(&idx![1..;2, ..;4]).unwrap())
        .unwrap();
    assert_eq!(kernels(&s), 1);
    let p = x.pad_with(&[(2, 2), (3, 3)], PadMode::Reflect).unwrap();
    assert_eq!(kernels(&p), 1);
    assert_eq!(
        kernels(&DynTensor::arange(0, 100, 3, None).unwrap().add(1).unwrap()),
        1
    );
}

/// `DynTensor::assign_window` takes its axis from the end and its start as a Rust integer, a
/// one-element integer tensor or a var (a `#[kernel]`'s scalar argument), refusing a float;
/// the rows land as numpy's slice assignment puts them.
#[test]
fn dyn_assign_window_takes_integer_starts() {
    let init: Vec<f32> = (0..48).map(|i| i as f32).collect();
    let mut cache = DynTensor::state(&DynTensor::from_slice(&[2, 6, 4], &init).unwrap()).unwrap();
    let rows = DynTensor::from_slice(&[2, 2, 4], &[-1.0f32; 16]).unwrap();
    cache.assign_window(-2, 1, &rows).unwrap();
    let at = DynTensor::from_slice(&[1], &[5i32]).unwrap();
    cache
        .assign_window(1, &at, &rows.mul(2.0).unwrap())
        .unwrap();
    let mut want = init;
    for o in 0..2 {
        for (row, v) in [(1, -1.0), (2, -1.0), (5, -2.0)] {
            want[(o * 6 + row) * 4..][..4].fill(v);
        }
    }
    assert_eq!(cache.to_vec::<f32>().unwrap(), want);
    assert!(matches!(
        cache.assign_window(1, 1.5, &rows),
        Err(tg::runtime::Error::Argument {
            op: "assign_window",
            ..
        })
    ));
}

/// The typed `assign_window`: rows written at a position, the shape checked when it runs.
#[test]
fn typed_assign_window_writes_rows() {
    let mut cache = Tensor::<Rank2<5, 2>>::parameter(&Tensor::zeros());
    let rows = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    cache.assign_window(0, 3, &rows);
    assert_eq!(
        cache.to_vec().unwrap(),
        vec![0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0]
    );
    let long = Tensor::<Rank2<6, 2>>::zeros();
    assert!(cache.try_assign_window(0, 0, &long).is_err());
}
