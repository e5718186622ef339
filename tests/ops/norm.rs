//! Normalization against numpy (fixtures/ops_norm.json, made by scripts/gen_ops_conv.py),
//! errors, the typed API, and layernorm's kernel count.

use tg_test_support::fixture;

use fixture::{Case, arg};
use tg::prelude::*;
use tg::runtime::Lazy;

fn axes(c: &Case) -> Vec<isize> {
    arg(c, "axes")
        .as_array()
        .expect("axes")
        .iter()
        .map(|a| a.as_i64().expect("axis") as isize)
        .collect()
}

fn run(c: &Case) -> Result<Lazy, String> {
    let t = tg_test_support::inputs(c);
    let r = match c.json["op"].as_str().expect("op") {
        "layernorm" => t[0].layernorm(&axes(c), arg(c, "eps").as_f64().expect("eps")),
        "batchnorm" => {
            // inputs: x, mean, invstd, then weight and bias where the case has them
            let mut rest = t[3..].iter();
            let weight = if arg(c, "weight").as_bool().expect("weight") {
                rest.next()
            } else {
                None
            };
            let bias = if arg(c, "bias").as_bool().expect("bias") {
                rest.next()
            } else {
                None
            };
            t[0].batchnorm(weight, bias, &t[1], &t[2], &axes(c))
        }
        op => panic!("unknown op {op}"),
    };
    r.map(DynTensor::into_lazy).map_err(|e| e.to_string())
}

#[test]
fn normalization_matches_numpy() {
    fixture::run_all("ops_norm.json", run);
}

/// Many rows: with a CPU device's kernels a subgroup shares each row of light work
/// (layernorm) and an invocation computes a whole row of heavy work (softmax's exponentials,
/// kept for the output loop), elsewhere a workgroup shares one; one value a row (var,
/// logsumexp) is an invocation's 4 rows on a CPU. All give what the host computes.
#[test]
fn row_ops_over_many_rows() {
    use tg::runtime::codegen::program::Strategy;
    use tg::runtime::device::{Device, KernelClass};
    let (rows, cols) = (8192usize, 64usize);
    let data: Vec<f32> = (0..rows * cols)
        .map(|i| ((i * 7919 % 1000) as f32) / 100.0 - 5.0)
        .collect();
    let x = DynTensor::from_slice(&[rows, cols], &data).unwrap();
    let info = Device::get().unwrap().info().clone();
    let soft = x.softmax(-1, None).unwrap();
    let logs = x.log_softmax(-1, None).unwrap();
    let norm = x.layernorm(&[-1], 1e-5).unwrap();
    // one value a row: serial on a CPU, each invocation keeping its 4 rows
    let var = x.var(Some(&[-1]), false, 1.0).unwrap();
    let lse = x.logsumexp(Some(&[-1]), false).unwrap();
    // (ties: the values repeat every 1000, so some rows hold their maximum twice)
    let arg = x.argmax(Some(-1), false).unwrap();
    for y in [&var, &lse, &arg] {
        let planned = tg::runtime::realize::plan(&[y.lazy()], &info).unwrap();
        if info.kernel_class() == KernelClass::Cpu {
            assert!(
                planned.iter().any(|k| k.strategy == Strategy::Serial),
                "{planned:?}"
            );
        }
    }
    let (var_rows, lse) = (var.to_vec::<f32>().unwrap(), lse.to_vec::<f32>().unwrap());
    let arg = arg.cast(DType::I64).to_vec::<i64>().unwrap();
    for y in [&soft, &logs, &norm] {
        let planned = tg::runtime::realize::plan(&[y.lazy()], &info).unwrap();
        assert_eq!(planned.len(), 1, "{planned:?}");
        let (threads, rows) = match planned[0].strategy {
            Strategy::Row { threads, rows, .. } => (threads, rows),
            other => panic!("not a row kernel: {other:?}"),
        };
        // 8192 rows keep up to 32 cores busy: a subgroup a row, a workgroup of 64
        // invocations taking as many rows as it has subgroups
        if info.kernel_class() == KernelClass::Cpu {
            if info.subgroup_arithmetic && info.subgroup_size < 64 {
                assert_eq!((threads, rows), (info.subgroup_size, 64 / threads));
            } else if !info.subgroup_arithmetic {
                assert_eq!((threads, rows), (1, 256));
            }
        }
    }
    let (soft, norm) = (soft.to_vec::<f32>().unwrap(), norm.to_vec::<f32>().unwrap());
    let logs = logs.to_vec::<f32>().unwrap();
    for r in 0..rows {
        let row: Vec<f64> = data[r * cols..(r + 1) * cols]
            .iter()
            .map(|&v| f64::from(v))
            .collect();
        let max = row.iter().cloned().fold(f64::MIN, f64::max);
        let total: f64 = row.iter().map(|v| (v - max).exp()).sum();
        let mean = row.iter().sum::<f64>() / cols as f64;
        let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / cols as f64;
        let got = f64::from(var_rows[r]);
        let want = var * cols as f64 / (cols - 1) as f64;
        assert!(
            (got - want).abs() <= 1e-5 * (1.0 + want),
            "var[{r}] {got} {want}"
        );
        let first = row.iter().position(|&v| v == max).unwrap();
        assert_eq!(arg[r], first as i64, "argmax[{r}]");
        let got = f64::from(lse[r]);
        let want = max + total.ln();
        assert!(
            (got - want).abs() <= 1e-5 * (1.0 + want.abs()),
            "logsumexp[{r}] {got} {want}"
        );
        for c in 0..cols {
            let want = (row[c] - max).exp() / total;
            let got = f64::from(soft[r * cols + c]);
            assert!(
                (got - want).abs() <= 1e-6 + 1e-5 * want,
                "softmax[{r},{c}] {got} {want}"
            );
            let want = row[c] - max - total.ln();
            let got = f64::from(logs[r * cols + c]);
            assert!(
                (got - want).abs() <= 1e-5,
                "log_softmax[{r},{c}] {got} {want}"
            );
            let want = (row[c] - mean) / (var + 1e-5).sqrt();
            let got = f64::from(norm[r * cols + c]);
            assert!(
                (got - want).abs() <= 1e-4,
                "layernorm[{r},{c}] {got} {want}"
            );
        }
    }
}

#[test]
fn layernorm_of_trailing_axes_is_one_kernel() {
    let x = DynTensor::from_slice(
        &[4, 64],
        &(0..256).map(|i| (i % 17) as f32).collect::<Vec<_>>(),
    )
    .unwrap();
    x.realize().unwrap();
    let before = tg::runtime::thread_stats().kernels;
    x.layernorm(&[-1], 1e-5).unwrap().realize().unwrap();
    assert_eq!(
        tg::runtime::thread_stats().kernels - before,
        1,
        "both means and the normalization in one row kernel"
    );
}

#[test]
fn normalization_errors_name_the_op() {
    let x = DynTensor::zeros(&[2, 3, 4], DType::F32).unwrap();
    assert!(matches!(
        x.layernorm(&[3], 1e-5),
        Err(Error::AxisOutOfRange {
            op: "layernorm",
            axis: 3,
            ..
        })
    ));
    let m = DynTensor::zeros(&[4], DType::F32).unwrap();
    let e = x.batchnorm(None, None, &m, &m, &[1]).unwrap_err();
    assert!(
        matches!(e, Error::Shape { op: "batchnorm", ref message } if message.contains("mean") && message.contains("[4]")),
        "{e:?}"
    );
    assert!(matches!(
        x.batchnorm(None, None, &m, &m, &[2, -1]),
        Err(Error::DuplicateAxis {
            op: "batchnorm",
            axis: -1,
            ..
        })
    ));
}

#[test]
fn typed_normalization_keeps_the_shape() {
    let x =
        Tensor::<Rank3<2, 2, 2>>::from_slice(&[1.0, 3.0, 5.0, 9.0, 0.0, 4.0, 2.0, -2.0]).unwrap();
    let n: Tensor<Rank3<2, 2, 2>> = x.layernorm::<-1>(0.0);
    assert_eq!(
        n.to_vec().unwrap(),
        vec![-1.0, 1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0]
    );
    let all = x.layernorm_axes(&[0, 1, 2], 1e-5);
    assert_eq!(all.dims(), vec![2, 2, 2]);
    assert!(x.try_layernorm_axes(&[5], 0.0).is_err());
    let i = Tensor::<Rank1<2>, i32>::from_slice(&[1, 3]).unwrap();
    let f: Tensor<Rank1<2>, f32> = i.layernorm::<0>(0.0);
    assert_eq!(f.to_vec().unwrap(), vec![-1.0, 1.0]);
    let mean = Tensor::<Rank1<2>>::from_slice(&[1.0, 1.0]).unwrap();
    let inv = Tensor::<Rank1<2>>::from_slice(&[2.0, 0.5]).unwrap();
    let w = Tensor::<Rank1<2>>::from_slice(&[1.0, -1.0]).unwrap();
    let y = x.batchnorm::<1>(Some(&w), Some(&mean), &mean, &inv);
    assert_eq!(y.to_vec().unwrap()[..4], [1.0, 5.0, -1.0, -3.0]);
}
