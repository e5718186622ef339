//! QR, SVD and Newton-Schulz against numpy (fixtures/ops_linalg.json, made by
//! scripts/gen_ops_loss_linalg.py). Factors are not unique (signs, order among equal singular
//! values), so QR and SVD are checked by what defines them: the reconstruction, orthogonality,
//! `R`'s triangle and magnitudes, and the singular values.

use tg_test_support::fixture;

use fixture::{Case, arg};
use tg::prelude::*;
use tg::runtime::Lazy;

/// `x` with the last two axes swapped.
fn t(x: &DynTensor) -> DynTensor {
    x.transpose(-2, -1).unwrap()
}

/// The last two axes of `x` cut to `rows` x `cols`.
fn block(x: &DynTensor, rows: usize, cols: usize) -> DynTensor {
    let mut ranges: Vec<(usize, usize)> = x.shape().iter().map(|&d| (0, d)).collect();
    let r = ranges.len();
    ranges[r - 2] = (0, rows);
    ranges[r - 1] = (0, cols);
    x.shrink(&ranges).unwrap()
}

fn linalg(c: &Case) -> std::result::Result<Vec<Lazy>, String> {
    let a = DynTensor::from_lazy(fixture::lazy(&c.inputs[0]));
    let (m, n) = (a.shape()[a.ndim() - 2], a.shape()[a.ndim() - 1]);
    let run = || -> tg::Result<Vec<DynTensor>> {
        Ok(match c.json["op"].as_str().expect("op") {
            "qr" => {
                let (q, r) = a.qr()?;
                let lower = r.tril(-1)?;
                vec![q.matmul(&r)?, t(&q).matmul(&q)?, r.abs()?, lower]
            }
            "svd" => {
                let full = arg(c, "full_matrices").as_bool().expect("full_matrices");
                let (u, s, vh) = a.svd(full)?;
                let k = m.min(n);
                let (uk, vk) = (block(&u, m, k), block(&vh, k, n));
                let rebuilt = uk.mul(&s.unsqueeze(-2)?)?.matmul(&vk)?;
                let mut outs = vec![rebuilt, s];
                if c.outs.len() > 2 {
                    outs.push(t(&u).matmul(&u)?);
                    outs.push(vh.matmul(&t(&vh))?);
                }
                outs
            }
            "newton_schulz" => {
                let params: Vec<f64> = arg(c, "params")
                    .as_array()
                    .expect("params")
                    .iter()
                    .map(|p| p.as_f64().expect("param"))
                    .collect();
                let steps = arg(c, "steps").as_u64().expect("steps") as usize;
                vec![a.newton_schulz(steps, &params, arg(c, "eps").as_f64().expect("eps"))?]
            }
            op => panic!("unknown op {op}"),
        })
    };
    run()
        .map(|v| v.into_iter().map(DynTensor::into_lazy).collect())
        .map_err(|e| e.to_string())
}

#[test]
fn linalg_matches_numpy() {
    fixture::run_all_multi("ops_linalg.json", linalg);
}

#[test]
fn linalg_errors_name_the_op() {
    let v = DynTensor::zeros(&[3], DType::F32).unwrap();
    for (op, e) in [
        ("qr", v.qr().map(|_| ())),
        ("svd", v.svd(true).map(|_| ())),
        (
            "newton_schulz",
            v.newton_schulz(1, &[1.0], 1e-7).map(|_| ()),
        ),
    ] {
        let e = e.unwrap_err();
        assert!(
            matches!(e, Error::RankTooLow { op: o, min: 2, ref shape } if o == op && shape == &[3]),
            "{e:?}"
        );
    }
    let e = DynTensor::zeros(&[2, 2], DType::F32)
        .unwrap()
        .newton_schulz(1, &[], 1e-7)
        .unwrap_err();
    assert!(
        matches!(e, Error::Argument { op: "newton_schulz", ref message } if message.contains("params")),
        "{e:?}"
    );
}

#[test]
fn typed_linalg_computes_shapes() {
    let a = Tensor::<Rank3<2, 3, 2>>::from_slice(&[
        1.0, 2.0, 0.0, 1.0, 3.0, -1.0, 2.0, 0.0, 1.0, 1.0, 0.0, 4.0,
    ])
    .unwrap();
    let (q, r): (Tensor<Rank3<2, 3, 3>>, Tensor<Rank3<2, 3, 2>>) = a.qr();
    let back = q.matmul(&r).to_vec().unwrap();
    assert!(
        back.iter()
            .zip(a.to_vec().unwrap())
            .all(|(x, y)| (x - y).abs() < 1e-5)
    );
    let (u, s, vh): (
        Tensor<Rank3<2, 3, 3>>,
        Tensor<shape![2, _]>,
        Tensor<Rank3<2, 2, 2>>,
    ) = a.svd();
    assert_eq!(
        (u.dims(), s.dims(), vh.dims()),
        (vec![2, 3, 3], vec![2, 2], vec![2, 2, 2])
    );
    type Reduced = (
        Tensor<shape![2, 3, _]>,
        Tensor<shape![2, _]>,
        Tensor<shape![2, _, 2]>,
    );
    let (u, s, vh): Reduced = a.svd_reduced();
    assert_eq!(
        (u.dims(), s.dims(), vh.dims()),
        (vec![2, 3, 2], vec![2, 2], vec![2, 2, 2])
    );
    let ints = Tensor::<Rank2<2, 2>, i32>::from_slice(&[2, 0, 0, 3]).unwrap();
    let o: Tensor<Rank2<2, 2>, f32> = ints.newton_schulz(25, &[1.5, -0.5], 1e-7);
    let o = o.to_vec().unwrap();
    assert!((o[0] - 1.0).abs() < 1e-3 && (o[3] - 1.0).abs() < 1e-3 && o[1].abs() < 1e-6);
    assert!(ints.try_newton_schulz(1, &[], 1e-7).is_err());
}
