//! einsum against numpy (fixtures/ops_stats_einsum.json, made by scripts/gen_ops_stats.py):
//! explicit and implicit outputs, ellipsis, traces and diagonals, several operands, the
//! dot/matmul forms; the typed API; errors; sequential.

use tg_test_support::fixture;

use fixture::{Case, arg, dtype};
use tg::prelude::*;
use tg::runtime::Lazy;

fn run(c: &Case) -> Result<Lazy, String> {
    let xs = tg_test_support::inputs(c);
    let acc = arg(c, "acc").as_str().map(|_| dtype(arg(c, "acc")));
    DynTensor::einsum(arg(c, "formula").as_str().expect("formula"), &xs, acc)
        .map(DynTensor::into_lazy)
        .map_err(|e| e.to_string())
}

#[test]
fn einsum_matches_numpy() {
    fixture::run_all("ops_stats_einsum.json", run);
}

#[test]
fn einsum_errors_name_the_formula_and_shapes() {
    let a = DynTensor::zeros(&[2, 3], DType::F32).unwrap();
    let b = DynTensor::zeros(&[4, 5], DType::F32).unwrap();
    let err = |f: &str, xs: &[DynTensor]| DynTensor::einsum(f, xs, None).unwrap_err();
    // a formula einsum cannot read is an argument error naming it, operands whose sizes the
    // letters cannot agree on a shape error naming the letter and the sizes
    let arg = |e: Error, needle: &str| matches!(&e, Error::Argument { op: "einsum", message } if message.contains(needle));
    let shape = |e: Error, needle: &str| matches!(&e, Error::Shape { op: "einsum", message } if message.contains(needle));
    let e = err("ij,jk->ik", &[a.clone(), b.clone()]);
    assert_eq!(
        e.to_string(),
        "einsum: letter 'j' of \"ij,jk->ik\" is 3 in operand 0 (shape [2, 3]) and 4 in operand 1 (shape [4, 5])"
    );
    assert!(shape(e, "'j'"));
    let one = std::slice::from_ref(&a);
    assert!(arg(err("ij,jk->ik", one), "2 operand(s), 1 given"));
    assert!(arg(err("ijk->i", one), "[2, 3]"));
    assert!(arg(err("ij->iz", one), "'z'"));
    assert!(arg(err("ij->ii", one), "twice"));
    assert!(arg(err("i1->i", one), "letters"));
    assert!(shape(err("ii->i", one), "sizes 2 and 3"));
    let e = err(
        "...i,...i",
        &[
            DynTensor::zeros(&[2, 3], DType::F32).unwrap(),
            DynTensor::zeros(&[4, 3], DType::F32).unwrap(),
        ],
    );
    assert!(shape(e, "`...`"));
    assert!(DynTensor::einsum("i", &[], None).is_err());
}

#[test]
fn typed_einsum_and_sequential() {
    let a = Tensor::<Rank3<2, 2, 3>, i8>::from_slice(&[1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6])
        .unwrap();
    let b = Tensor::<Rank3<2, 3, 1>, i8>::from_slice(&[1, 1, 1, 2, 2, 2]).unwrap();
    // products form in i8, the sum widens to i32 (tinygrad's sum dtype)
    let c: Tensor<Rank3<2, 2, 1>, i32> = a.einsum_with("bij,bjk->bik", &b);
    assert_eq!(c.to_vec().unwrap(), vec![6, 15, -12, -30]);
    let t: Tensor<Rank1<2>, i32> = a.einsum("bij->b");
    assert_eq!(t.to_vec().unwrap(), vec![21, -21]);
    let d = Tensor::<shape![_, 3]>::from_slice_shape((2, Const), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
        .unwrap();
    let g: Tensor<shape![_, _]> = d.einsum_with("ik,jk->ij", &d);
    assert_eq!(g.to_vec().unwrap(), vec![14.0, 32.0, 32.0, 77.0]);
    assert!(d.try_einsum::<Rank1<3>>("ij->i").is_err());
    let v = Tensor::<Rank1<3>>::from_slice(&[1.0, 1.0, 2.0]).unwrap();
    let w: Tensor<Rank1<2>> = d.einsum3("ij,j,j->i", &v, &v);
    assert_eq!(w.to_vec().unwrap(), vec![15.0, 33.0]);
    let s = v.sequential(&[&|x| x.clone() * 2.0, &|x| x.clone() - 1.0]);
    assert_eq!(s.to_vec().unwrap(), vec![1.0, 1.0, 3.0]);
    let fail = |_: &DynTensor| DynTensor::zeros(&[1], DType::F32).unwrap().reshape(&[2]);
    let ok = |x: &DynTensor| x.neg();
    assert!(v.as_dyn().sequential(&[&ok, &fail, &ok]).is_err());
}
