//! Matrix products against numpy (fixtures/ops_matmul.json, made by scripts/gen_ops_shape.py),
//! the typed API's shapes, and fusion of the product into the reduction.

use tg_test_support::fixture;

use fixture::{Case, arg, dtype};
use tg::prelude::*;
use tg::runtime::Lazy;

fn product(c: &Case) -> std::result::Result<Lazy, String> {
    let t = tg_test_support::inputs(c);
    let r = match c.json["op"].as_str().expect("op") {
        "matmul" => t[0].matmul(&t[1]),
        "dot" => t[0].dot(&t[1], Some(dtype(arg(c, "acc")))),
        "linear" => t[0].linear(&t[1], t.get(2)),
        op => panic!("unknown op {op}"),
    };
    r.map(DynTensor::into_lazy).map_err(|e| e.to_string())
}

#[test]
fn matmul_matches_numpy() {
    fixture::run_all("ops_matmul.json", product);
}

#[test]
fn matmul_errors_name_both_shapes() {
    let z = |shape: &[usize]| DynTensor::zeros(shape, DType::F32).unwrap();
    let e = z(&[2, 3]).matmul(&z(&[4, 5])).unwrap_err();
    assert!(matches!(e, Error::Shape { op: "matmul", .. }));
    assert_eq!(
        e.to_string(),
        "matmul: inner dimensions differ: [2, 3] @ [4, 5]: 3 (last axis of the left) vs 4 (second-to-last axis of the right)"
    );
    let e = z(&[2, 2, 3]).matmul(&z(&[3, 3, 4])).unwrap_err();
    assert!(
        matches!(e, Error::Shape { op: "matmul", ref message } if message.contains("batch axes"))
    );
    let e = z(&[2, 3]).matmul(&z(&[])).unwrap_err();
    assert!(
        matches!(e, Error::Shape { op: "matmul", ref message } if message.contains("at least one axis"))
    );
}

#[test]
fn typed_matmul_computes_shapes_and_dtypes() {
    let m = Tensor::<Rank2<2, 3>, f32>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let v = Tensor::<Rank1<3>, f32>::from_slice(&[1.0, 0.0, -1.0]).unwrap();
    let mv: Tensor<Rank1<2>> = m.matmul(&v);
    assert_eq!(mv.to_vec().unwrap(), vec![-2.0, -2.0]);
    let vv: Tensor<()> = v.matmul(&v);
    assert_eq!(vv.item().unwrap(), 2.0);
    let w = Tensor::<Rank2<3, 4>, i32>::from_slice(&[1; 12]).unwrap();
    let mw: Tensor<Rank2<2, 4>, f32> = m.matmul(&w);
    assert_eq!(mw.to_vec().unwrap()[..2], [6.0, 6.0]);
    let vw: Tensor<Rank1<4>, f32> = v.matmul(&w);
    assert_eq!(vw.dims(), vec![4]);
    let batch = Tensor::<Rank3<5, 2, 3>, f32>::from_slice(&[1.0; 30]).unwrap();
    let bw: Tensor<Rank3<5, 2, 4>, f32> = batch.matmul(&w);
    assert_eq!(bw.to_vec().unwrap()[0], 3.0);
    let wb = Tensor::<Rank3<5, 3, 7>, f32>::from_slice(&[1.0; 105]).unwrap();
    let bb: Tensor<Rank3<5, 2, 7>, f32> = batch.matmul(&wb);
    let mb: Tensor<Rank3<5, 2, 7>, f32> = m.matmul(&wb);
    assert_eq!((bb.dims(), mb.dims()), (vec![5, 2, 7], vec![5, 2, 7]));
    let four = Tensor::<Rank4<2, 5, 2, 3>, f32>::from_slice(&[1.0; 60]).unwrap();
    let fw: Tensor<Rank4<2, 5, 2, 7>, f32> = four.matmul(&wb);
    let fv: Tensor<Rank3<2, 5, 2>, f32> = four.matmul(&v);
    assert_eq!((fw.dims(), fv.dims()), (vec![2, 5, 2, 7], vec![2, 5, 2]));
    let i8s = Tensor::<Rank2<1, 2>, i8>::from_slice(&[100, 100]).unwrap();
    let u8s = Tensor::<Rank2<2, 1>, u8>::from_slice(&[2, 2]).unwrap();
    let mixed: Tensor<Rank2<1, 1>, i16> = i8s.matmul(&u8s);
    assert_eq!(mixed.item().unwrap(), 400);
    let dynk = Tensor::<shape![2, _], f32>::from_slice_shape((Const, 3), &[1.0; 6]).unwrap();
    let dm: Tensor<Rank2<2, 4>, f32> = dynk.matmul(&w);
    assert_eq!(dm.dims(), vec![2, 4]);
    let bad = Tensor::<shape![2, _], f32>::from_slice_shape((Const, 2), &[1.0; 4]).unwrap();
    let e = bad.try_matmul(&w).unwrap_err();
    assert!(
        matches!(e, Error::Shape { op: "matmul", ref message } if message.contains("inner dimensions differ")),
        "{e:?}"
    );
    let x = Tensor::<Rank2<1, 2>>::from_slice(&[1.0, 2.0]).unwrap();
    let wl = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 0.0, 1.0, 0.0, 1.0, 1.0]).unwrap();
    let b = Tensor::<Rank1<3>>::from_slice(&[0.5, 0.5, 0.5]).unwrap();
    let y: Tensor<Rank2<1, 3>> = x.linear(&wl, Some(&b));
    assert_eq!(y.to_vec().unwrap(), vec![1.5, 2.5, 3.5]);
}

/// The product is fused into the reduction: one kernel, no `M x N x K` intermediate.
#[test]
fn matmul_is_one_kernel() {
    let a = Tensor::<Rank2<8, 16>>::from_slice(&[0.5; 128]).unwrap();
    let b = Tensor::<Rank2<16, 4>>::from_slice(&[2.0; 64]).unwrap();
    a.realize().unwrap();
    b.realize().unwrap();
    let c: Tensor<Rank2<8, 4>> = a.matmul(&b);
    let before = tg::runtime::thread_stats().kernels;
    let v = c.to_vec().unwrap();
    assert_eq!(tg::runtime::thread_stats().kernels - before, 1);
    assert_eq!(v, vec![16.0; 32]);
}
