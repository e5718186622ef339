//! Movement ops against numpy (fixtures/ops_movement.json, made by scripts/gen_ops_shape.py),
//! plus the typed API's shapes and errors.

use tg_test_support::fixture;
use tg_test_support::inputs;

use fixture::{Case, arg, usizes};
use serde_json::Value;
use tg::prelude::*;
use tg::runtime::Scalar;
use tg::shape::ops::{Perm3, Perm4};

fn isizes(v: &Value) -> Vec<isize> {
    v.as_array()
        .expect("list")
        .iter()
        .map(|x| x.as_i64().expect("int") as isize)
        .collect()
}

fn pairs<T: TryFrom<i64>>(v: &Value) -> Vec<(T, T)> {
    let conv = |x: &Value| {
        T::try_from(x.as_i64().expect("int"))
            .ok()
            .expect("pad fits")
    };
    v.as_array()
        .expect("pairs")
        .iter()
        .map(|p| (conv(&p[0]), conv(&p[1])))
        .collect()
}

fn opt_axis(v: &Value) -> Option<isize> {
    v.as_i64().map(|a| a as isize)
}

fn pad_value(c: &Case) -> Scalar {
    match arg(c, "value") {
        Value::Bool(b) => Scalar::Bool(*b),
        v if v.is_i64() => Scalar::Int(v.as_i64().expect("int")),
        v => fixture::scalar(v, DType::F64),
    }
}

fn one(c: &Case) -> Result<DynTensor> {
    let x = &inputs(c)[0];
    let i = |k: &str| arg(c, k).as_i64().expect(k) as isize;
    match c.json["op"].as_str().expect("op") {
        "reshape" => x.reshape(&isizes(arg(c, "shape"))),
        "permute" => x.permute(&isizes(arg(c, "order"))),
        "transpose" => x.transpose(i("a"), i("b")),
        "t" => x.t(),
        "flip" => x.flip(&isizes(arg(c, "axes"))),
        "expand" => x.expand(&isizes(arg(c, "shape"))),
        "squeeze" => x.squeeze(opt_axis(arg(c, "axis"))),
        "unsqueeze" => x.unsqueeze(i("axis")),
        "flatten" => x.flatten(i("start"), i("end")),
        "unflatten" => x.unflatten(i("axis"), &isizes(arg(c, "sizes"))),
        "pad" => x.pad(&pairs(arg(c, "pads")), pad_value(c)),
        "pad_flat" => x.pad_flat(&isizes(arg(c, "pads")), pad_value(c)),
        "shrink" => x.shrink(&pairs(arg(c, "ranges"))),
        "pad_to" | "shrink_to" => {
            let shape: Vec<Option<usize>> = arg(c, "shape")
                .as_array()
                .expect("shape")
                .iter()
                .map(|d| d.as_u64().map(|n| n as usize))
                .collect();
            if c.json["op"] == "pad_to" {
                x.pad_to(&shape)
            } else {
                x.shrink_to(&shape)
            }
        }
        "cat" => DynTensor::cat(&inputs(c), i("axis")),
        "stack" => DynTensor::stack(&inputs(c), i("axis")),
        "repeat" => x.repeat(&usizes(arg(c, "repeats"))),
        "repeat_interleave" => x.repeat_interleave(
            arg(c, "repeats").as_u64().expect("repeats") as usize,
            opt_axis(arg(c, "axis")),
        ),
        "roll" => {
            let axes = arg(c, "axes").as_array().map(|_| isizes(arg(c, "axes")));
            x.roll(&isizes(arg(c, "shifts")), axes.as_deref())
        }
        "diagonal" => x.diagonal(i("offset"), i("dim1"), i("dim2")),
        op => panic!("unknown op {op}"),
    }
}

fn pieces(c: &Case) -> Result<Vec<DynTensor>> {
    let x = &inputs(c)[0];
    let axis = arg(c, "axis").as_i64().expect("axis") as isize;
    match c.json["op"].as_str().expect("op") {
        "split" => x.split(&usizes(arg(c, "sizes")), axis),
        "split_every" => x.split_every(arg(c, "size").as_u64().expect("size") as usize, axis),
        "chunk" => x.chunk(arg(c, "chunks").as_u64().expect("chunks") as usize, axis),
        op => panic!("unknown op {op}"),
    }
}

fn is_multi(c: &Case) -> bool {
    c.json.get("outs").is_some()
}

#[test]
fn movement_ops_match_numpy() {
    fixture::run_each("ops_movement.json", |c| {
        if is_multi(c) {
            pieces(c).map_err(|e| e.to_string()).and_then(|got| {
                let got: Vec<_> = got.into_iter().map(DynTensor::into_lazy).collect();
                fixture::compare_outs(&got, c)
            })
        } else {
            one(c)
                .map_err(|e| e.to_string())
                .and_then(|got| fixture::compare(got.lazy(), &c.out, c.rtol, c.atol))
        }
    });
}

/// Every untyped error names the op and the shapes or values involved.
#[test]
fn movement_errors_name_the_op_and_shapes() {
    let x = DynTensor::zeros(&[2, 3], DType::F32).unwrap();
    let err = |r: Result<DynTensor>| r.expect_err("should fail");
    assert!(matches!(
        err(x.reshape(&[4, -1])),
        Error::Shape { op: "reshape", .. }
    ));
    assert!(matches!(
        err(x.reshape(&[4, 2])),
        Error::NumelMismatch { op: "reshape", ref from, ref to } if from == &[2, 3] && to == &[4, 2]
    ));
    assert!(matches!(
        err(x.reshape(&[-1, -1])),
        Error::Argument { op: "reshape", .. }
    ));
    assert!(matches!(
        err(x.permute(&[0, 0])),
        Error::DuplicateAxis {
            op: "permute",
            axis: 0,
            ..
        }
    ));
    assert!(matches!(
        err(x.transpose(0, 2)),
        Error::AxisOutOfRange {
            op: "transpose",
            axis: 2,
            ..
        }
    ));
    assert!(matches!(
        err(DynTensor::zeros(&[3], DType::F32).unwrap().t()),
        Error::RankTooLow {
            op: "t",
            min: 2,
            ..
        }
    ));
    assert!(matches!(
        err(x.expand(&[3, 3])),
        Error::Broadcast { op: "expand", ref lhs, ref rhs } if lhs == &[2, 3] && rhs == &[3, 3]
    ));
    assert!(matches!(
        err(x.pad(&[(0, -4), (0, 0)], 0.0)),
        Error::Shape { op: "pad", .. }
    ));
    assert!(matches!(
        err(x.pad(&[(1, 1)], 0.0)),
        Error::RankMismatch {
            op: "pad",
            given: 1,
            ..
        }
    ));
    assert!(matches!(
        err(x.pad_to(&[Some(1), None])),
        Error::Shape { op: "pad_to", .. }
    ));
    assert!(matches!(
        err(x.shrink_to(&[Some(3), None])),
        Error::Shape {
            op: "shrink_to",
            ..
        }
    ));
    assert!(matches!(
        err(x.unflatten(1, &[2, 2])),
        Error::NumelMismatch {
            op: "unflatten",
            ..
        }
    ));
    assert!(matches!(
        err(x.flatten(1, 0)),
        Error::Argument { op: "flatten", .. }
    ));
    let wide = DynTensor::zeros(&[3, 3], DType::F32).unwrap();
    assert!(matches!(
        err(DynTensor::cat(&[x.clone(), wide.clone()], 1)),
        Error::Shape { op: "cat", .. }
    ));
    assert!(matches!(
        err(DynTensor::cat(&[], 0)),
        Error::Argument { op: "cat", .. }
    ));
    let tall = DynTensor::zeros(&[3, 2], DType::F32).unwrap();
    assert!(matches!(
        err(DynTensor::stack(&[x.clone(), tall], 0)),
        Error::Shape { op: "stack", .. }
    ));
    assert!(matches!(
        x.split(&[1, 2], 0).unwrap_err(),
        Error::Shape { op: "split", .. }
    ));
    assert!(matches!(
        x.chunk(0, 0).unwrap_err(),
        Error::Argument { op: "chunk", .. }
    ));
    assert!(matches!(
        err(x.roll(&[1, 1], Some(&[0, 0]))),
        Error::DuplicateAxis {
            op: "roll",
            axis: 0,
            ..
        }
    ));
    assert!(matches!(
        err(x.roll(&[1, 2], None)),
        Error::Argument { op: "roll", .. }
    ));
    assert!(matches!(
        err(x.diagonal(0, 1, -1)),
        Error::Argument { op: "diagonal", .. }
    ));
    // the messages stay readable: the op first, then the values
    assert_eq!(
        err(x.pad(&[(1, 1)], 0.0)).to_string(),
        "pad: 1 (before, after) pairs for shape [2, 3] of rank 2"
    );
    assert_eq!(
        err(DynTensor::cat(&[x.clone(), wide], 1)).to_string(),
        "cat: along axis 1: shapes [2, 3] and [3, 3] differ at axis 0 (2 vs 3)"
    );
    assert_eq!(
        err(x.transpose(0, 2)).to_string(),
        "transpose: axis 2 is out of range for shape [2, 3] (rank 2)"
    );
}

#[test]
fn typed_views_compute_their_shapes() {
    let x = Tensor::<Rank3<2, 3, 4>, i32>::from_slice(&(0..24).collect::<Vec<_>>()).unwrap();
    let r: Tensor<Rank2<6, 4>, i32> = x.reshape();
    assert_eq!(r.dims(), vec![6, 4]);
    let inferred = x.reshape::<shape![_, 12]>();
    assert_eq!(inferred.dims(), vec![2, 12]);
    let p: Tensor<Rank3<4, 2, 3>, i32> = x.permute::<Perm3<2, 0, 1>>();
    assert_eq!(p.to_vec().unwrap()[..4], [0, 4, 8, 12]);
    let neg: Tensor<Rank3<3, 4, 2>, i32> = x.permute::<Perm3<-2, -1, 0>>();
    assert_eq!(neg.dims(), vec![3, 4, 2]);
    let tr: Tensor<Rank3<2, 4, 3>, i32> = x.t();
    assert_eq!(tr.to_vec().unwrap()[..4], [0, 4, 8, 1]);
    let sw: Tensor<Rank3<4, 3, 2>, i32> = x.transpose::<-1, 0>();
    assert_eq!(sw.dims(), vec![4, 3, 2]);
    let u: Tensor<Rank4<2, 1, 3, 4>, i32> = x.unsqueeze::<1>();
    let s: Tensor<Rank3<2, 3, 4>, i32> = u.squeeze::<-3>();
    assert_eq!(s.to_vec().unwrap(), x.to_vec().unwrap());
    let f: Tensor<(usize,), i32> = x.flatten();
    assert_eq!(f.dims(), vec![24]);
    let f2: Tensor<Rank2<2, 12>, i32> = x.flatten_to();
    let f3: Tensor<Rank2<6, 4>, i32> = x.flatten_to();
    assert_eq!((f2.dims(), f3.dims()), (vec![2, 12], vec![6, 4]));
    let uf: Tensor<Rank4<2, 3, 2, 2>, i32> = x.unflatten_to();
    assert_eq!(uf.to_vec().unwrap(), x.to_vec().unwrap());
    let b: Tensor<Rank4<5, 2, 3, 4>, i32> = x.broadcast_to();
    assert_eq!(b.to_vec().unwrap()[24..28], [0, 1, 2, 3]);
    let e = x.expand_to::<shape![_, 2, 3, 4]>((3, Const, Const, Const));
    assert_eq!(e.dims(), vec![3, 2, 3, 4]);
    let d = x.permute::<Perm3<0, 2, 1>>().flatten_to::<Rank2<8, 3>>();
    assert_eq!(d.dims(), vec![8, 3]);
    let four = Tensor::<Rank4<1, 2, 3, 4>>::from_slice(&[0.0; 24]).unwrap();
    let p4: Tensor<Rank4<4, 3, 2, 1>> = four.permute::<Perm4<3, 2, 1, 0>>();
    assert_eq!(p4.dims(), vec![4, 3, 2, 1]);
}

#[test]
fn typed_dynamic_dims_are_checked_at_run_time() {
    let x = Tensor::<shape![_, 4], f32>::from_slice_shape((3, Const), &[1.0; 12]).unwrap();
    assert!(x.try_reshape::<Rank2<5, 2>>().is_err());
    let r: Tensor<Rank2<6, 2>> = x.reshape();
    assert_eq!(r.dims(), vec![6, 2]);
    assert!(matches!(
        x.try_reshape::<shape![_, _]>(),
        Err(Error::Shape { op: "reshape", ref message }) if message.contains("reshape_to")
    ));
    let r2 = x.reshape_to::<shape![_, _]>((2, 6));
    assert_eq!(r2.dims(), vec![2, 6]);
    let one = Tensor::<shape![2, _], f32>::from_slice_shape((Const, 3), &[0.0; 6]).unwrap();
    let err = one.try_squeeze::<1>().unwrap_err();
    assert!(
        matches!(err, Error::Shape { op: "squeeze", ref message } if message.contains("size 3")),
        "{err:?}"
    );
    let sq = Tensor::<shape![2, _], f32>::from_slice_shape((Const, 1), &[0.0; 2])
        .unwrap()
        .squeeze::<1>();
    assert_eq!(sq.dims(), vec![2]);
    let m = Tensor::<shape![_, _], f32>::from_slice_shape((2, 3), &[0.0; 6]).unwrap();
    assert!(matches!(
        m.try_diagonal(),
        Err(Error::Shape { op: "diagonal", ref message }) if message.contains("square")
    ));
    assert!(x.try_broadcast_to::<Rank2<5, 4>>().is_err());
    assert!(x.try_pad_to::<Rank2<2, 4>>().is_err());
    assert!(x.try_shrink_to::<Rank2<4, 4>>().is_err());
}

#[test]
fn typed_resizes_and_joins() {
    let x = Tensor::<Rank2<2, 3>, i32>::from_slice(&[1, 2, 3, 4, 5, 6]).unwrap();
    let p: Tensor<Rank2<4, 3>, i32> = x.pad(&[(1, 1), (0, 0)], -1);
    assert_eq!(p.to_vec().unwrap()[..4], [-1, -1, -1, 1]);
    let cut: Tensor<Rank2<2, 1>, i32> = x.pad(&[(0, 0), (-1, -1)], 0);
    assert_eq!(cut.to_vec().unwrap(), vec![2, 5]);
    assert!(x.try_pad::<Rank2<9, 9>>(&[(1, 1), (0, 0)], 0).is_err());
    let sh: Tensor<Rank2<1, 2>, i32> = x.shrink(&[(1, 2), (1, 3)]);
    assert_eq!(sh.to_vec().unwrap(), vec![5, 6]);
    let pt: Tensor<Rank2<2, 5>, i32> = x.pad_to();
    assert_eq!(pt.to_vec().unwrap()[..5], [1, 2, 3, 0, 0]);
    let st = x.shrink_to::<shape![1, _]>();
    assert_eq!(st.to_vec().unwrap(), vec![1, 2, 3]);
    assert_eq!(x.flip::<-1>().to_vec().unwrap(), vec![3, 2, 1, 6, 5, 4]);
    assert_eq!(
        x.flip_axes(&[0, 1]).to_vec().unwrap(),
        vec![6, 5, 4, 3, 2, 1]
    );
    assert_eq!(x.roll::<1>(1).to_vec().unwrap(), vec![3, 1, 2, 6, 4, 5]);
    let rep: Tensor<Rank3<2, 2, 6>, i32> = x.repeat(&[2, 1, 2]);
    assert_eq!(rep.to_vec().unwrap()[..6], [1, 2, 3, 1, 2, 3]);
    let ri: Tensor<Rank2<2, 6>, i32> = x.repeat_interleave::<-1, _>(2);
    assert_eq!(ri.to_vec().unwrap()[..6], [1, 1, 2, 2, 3, 3]);
    let c: Tensor<Rank2<4, 3>, i32> = x.cat::<0, _>(&x);
    assert_eq!(c.to_vec().unwrap()[6..], [1, 2, 3, 4, 5, 6]);
    let cd = x.cat::<-1, shape![2, _]>(&x);
    assert_eq!(cd.dims(), vec![2, 6]);
    let many = Tensor::concat::<1, shape![2, _]>(&[x.clone(), x.clone(), x.clone()]);
    assert_eq!(many.dims(), vec![2, 9]);
    let s: Tensor<Rank3<2, 3, 3>, i32> = Tensor::stack::<-1, _>(&[x.clone(), x.clone(), x.clone()]);
    assert_eq!(s.to_vec().unwrap()[..6], [1, 1, 1, 2, 2, 2]);
    assert!(Tensor::try_stack::<0, Rank3<2, 2, 3>>(&[x.clone(), x.clone(), x.clone()]).is_err());
    let parts = x.split::<1>(&[1, 2]);
    let p1: &Tensor<shape![2, _], i32> = &parts[1];
    assert_eq!(p1.to_vec().unwrap(), vec![2, 3, 5, 6]);
    assert!(x.try_split::<1>(&[1, 1]).is_err());
    assert_eq!(x.split_every::<1>(2).len(), 2);
    assert_eq!(x.chunk::<0>(2)[1].to_vec().unwrap(), vec![4, 5, 6]);
    let sq = Tensor::<Rank3<2, 2, 2>, i32>::from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    let dg: Tensor<Rank2<2, 2>, i32> = sq.diagonal();
    assert_eq!(dg.to_vec().unwrap(), vec![1, 4, 5, 8]);
}

/// Views compose into the reading kernel: a chain of movement ops costs one kernel.
#[test]
fn movement_chains_fuse_into_one_kernel() {
    let x = Tensor::<Rank2<4, 6>, f32>::from_slice(&(0..24).map(|v| v as f32).collect::<Vec<_>>())
        .unwrap();
    x.realize().unwrap();
    let y: Tensor<Rank2<6, 4>> = x.t().flip::<0>().roll::<1>(1);
    let z: Tensor<Rank2<8, 5>> = y.pad(&[(1, 1), (0, 1)], 0.5);
    let z: Tensor<Rank1<40>> = z.flatten_to();
    let before = tg::runtime::thread_stats().kernels;
    let v = z.to_vec().unwrap();
    assert_eq!(tg::runtime::thread_stats().kernels - before, 1);
    assert_eq!(v[..5], [0.5; 5]);
    assert_eq!(v[5..10], [23.0, 5.0, 11.0, 17.0, 0.5]);
}
