//! Creation ops and random streams against numpy (fixtures/ops_creation*.json, made by
//! scripts/gen_ops_creation.py), plus statistical sanity of the distributions.

use tg_test_support::fixture;

use std::sync::Mutex;

use fixture::{Case, arg, dtype, usizes};
use serde_json::Value;
use tg::prelude::*;
use tg::runtime::{Lazy, Scalar};
use tg::untyped::random::Generator;

/// Tests that use the process-wide stream take turns, so their counters do not interleave.
pub(crate) static GLOBAL_STREAM: Mutex<()> = Mutex::new(());

fn fill_value(v: &Value) -> Scalar {
    let value = &v["value"];
    match v["kind"].as_str().expect("kind") {
        "bool" => Scalar::Bool(value.as_bool().expect("bool")),
        "int" => Scalar::Int(value.as_i64().expect("int")),
        _ => fixture::scalar(value, DType::F64),
    }
}

fn creation(c: &Case) -> Result<Lazy, String> {
    let op = arg(c, "op").as_str().expect("op");
    let input = || DynTensor::from_lazy(fixture::lazy(&c.inputs[0]));
    let made = match op {
        "zeros_like" => input().zeros_like(),
        "ones_like" => input().ones_like(),
        "full_like" => input().full_like(fill_value(arg(c, "fill"))),
        _ => {
            let (shape, dt) = (usizes(arg(c, "shape")), dtype(arg(c, "dtype")));
            match op {
                "zeros" => DynTensor::zeros(&shape, dt).unwrap(),
                "ones" => DynTensor::ones(&shape, dt).unwrap(),
                "empty" => DynTensor::empty(&shape, dt).unwrap(),
                "full" => DynTensor::full(&shape, fill_value(arg(c, "fill")), dt).unwrap(),
                _ => panic!("unknown op {op}"),
            }
        }
    };
    Ok(made.into_lazy())
}

#[test]
fn creation_matches_numpy() {
    fixture::run_all("ops_creation.json", creation);
}

fn f(call: &Value, key: &str) -> f64 {
    call[key].as_f64().unwrap_or_else(|| panic!("{key}"))
}

fn i(call: &Value, key: &str) -> i64 {
    call[key].as_i64().unwrap_or_else(|| panic!("{key}"))
}

/// Replays a case's calls on a fresh generator.
fn stream(c: &Case) -> Result<Vec<Lazy>, String> {
    let seed = arg(c, "seed").as_u64().expect("seed") as u32;
    let mut g = Generator::with_counter(seed, arg(c, "counter").as_u64().expect("counter"));
    let calls = arg(c, "calls").as_array().expect("calls");
    let mut outs = Vec::new();
    for call in calls {
        let op = call["op"].as_str().expect("op");
        let shape = usizes(&call["shape"]);
        let dt = call.get("dtype").map(dtype).unwrap_or(DType::F32);
        let t = match op {
            "random_bits" => g.random_bits(call["num"].as_u64().expect("num") as usize),
            "rand" => g.rand(&shape, dt),
            "randn" => g.randn(&shape, dt),
            "uniform" => g.uniform(&shape, f(call, "low"), f(call, "high"), dt),
            "randint" => g.randint(&shape, i(call, "low"), i(call, "high"), dt),
            "normal" => g.normal(&shape, f(call, "mean"), f(call, "std"), dt),
            "kaiming_uniform" => g.kaiming_uniform(&shape, f(call, "a"), dt),
            "kaiming_normal" => g.kaiming_normal(&shape, f(call, "a"), dt),
            "glorot_uniform" => g.glorot_uniform(&shape, dt),
            "scaled_uniform" => g.scaled_uniform(&shape, dt),
            _ => panic!("unknown op {op}"),
        };
        outs.push(t.map_err(|e| format!("{op}: {e}"))?.into_lazy());
    }
    Ok(outs)
}

#[test]
fn random_streams_match_reference() {
    fixture::run_all_multi("ops_creation_random.json", stream);
}

#[test]
fn manual_seed_restarts_the_global_stream() {
    let _turn = GLOBAL_STREAM.lock().unwrap_or_else(|p| p.into_inner());
    DynTensor::manual_seed(1337);
    let first = DynTensor::rand(&[20], DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let second = DynTensor::rand(&[20], DType::F32)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_ne!(first, second, "the counter advances between calls");
    // tinygrad's published first value for seed 1337
    assert_eq!(first[0], 0.457_359_3);
    DynTensor::manual_seed(1337);
    let again = Tensor::<Rank1<20>>::rand().to_vec().unwrap();
    assert_eq!(first, again);
    let like = Tensor::<Rank1<20>>::zeros().rand_like().to_vec().unwrap();
    assert_eq!(second, like);
}

#[test]
fn manual_seed_is_thread_safe() {
    let _turn = GLOBAL_STREAM.lock().unwrap_or_else(|p| p.into_inner());
    DynTensor::manual_seed(5);
    // graphs built concurrently take distinct slices of the stream, in some order
    let mut got: Vec<Vec<f32>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| s.spawn(|| DynTensor::rand(&[4], DType::F32).unwrap()))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap().to_vec::<f32>().unwrap())
            .collect()
    });
    let mut g = Generator::new(5);
    let mut want: Vec<Vec<f32>> = (0..4)
        .map(|_| g.rand(&[4], DType::F32).unwrap().to_vec::<f32>().unwrap())
        .collect();
    let key = |v: &Vec<f32>| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    got.sort_by_key(key);
    want.sort_by_key(key);
    assert_eq!(got, want);
}

fn mean_std(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    (mean, var.sqrt())
}

#[test]
fn rand_is_uniform_on_unit_interval() {
    let mut g = Generator::new(2024);
    for dt in [DType::F32, DType::F16] {
        let xs = g.rand(&[256, 256], dt).unwrap().to_vec::<f64>().unwrap();
        assert!(
            xs.iter().all(|&x| (0.0..1.0).contains(&x)),
            "{dt}: outside [0, 1)"
        );
        let (mean, std) = mean_std(&xs);
        // 64k samples: the standard error of the mean is 0.0011
        assert!((mean - 0.5).abs() < 0.006, "{dt}: mean {mean}");
        assert!(
            (std - (1.0f64 / 12.0).sqrt()).abs() < 0.006,
            "{dt}: std {std}"
        );
        let mut bins = [0usize; 10];
        for x in &xs {
            bins[(x * 10.0) as usize] += 1;
        }
        assert!(
            bins.iter().all(|&b| (6000..7100).contains(&b)),
            "{dt}: bins {bins:?}"
        );
    }
}

#[test]
fn randn_is_standard_normal() {
    let mut g = Generator::new(77);
    let xs = g
        .randn(&[65536], DType::F32)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    assert!(xs.iter().all(|x| x.is_finite()));
    let (mean, std) = mean_std(&xs);
    assert!(mean.abs() < 0.02, "mean {mean}");
    assert!((std - 1.0).abs() < 0.02, "std {std}");
    let within_one = xs.iter().filter(|x| x.abs() < 1.0).count() as f64 / xs.len() as f64;
    assert!(
        (within_one - 0.6827).abs() < 0.01,
        "P(|x| < 1) = {within_one}"
    );
    let n = g
        .normal(&[65536], 3.0, 0.5, DType::F32)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let (mean, std) = mean_std(&n);
    assert!(
        (mean - 3.0).abs() < 0.01 && (std - 0.5).abs() < 0.01,
        "normal: {mean} {std}"
    );
}

#[test]
fn randint_covers_its_range() {
    let mut g = Generator::new(9);
    let xs = g
        .randint(&[65536], -2, 5, DType::I32)
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    let mut counts = [0usize; 7];
    for &x in &xs {
        assert!((-2..5).contains(&x), "{x} outside [-2, 5)");
        counts[(x + 2) as usize] += 1;
    }
    // 65536 / 7 = 9362 each
    assert!(
        counts.iter().all(|&c| (9000..9730).contains(&c)),
        "{counts:?}"
    );
    let one = g
        .randint(&[16], 5, 6, DType::I64)
        .unwrap()
        .to_vec::<i64>()
        .unwrap();
    assert_eq!(one, vec![5; 16]);
}

#[test]
fn initialisers_stay_in_bounds() {
    let mut g = Generator::new(1);
    let w = g
        .kaiming_uniform(&[64, 32, 3, 3], 0.01, DType::F32)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let b = (6.0 / (1.0 + 0.0001) / 288.0f64).sqrt();
    assert!(w.iter().all(|&x| -b <= x && x < b));
    let (_, std) = mean_std(&w);
    assert!((std - b / 3f64.sqrt()).abs() < 0.01 * b, "std {std}");
    let w = g
        .glorot_uniform(&[100, 200], DType::F32)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let b = (6.0 / 300.0f64).sqrt();
    assert!(w.iter().all(|&x| -b <= x && x < b));
    let w = g
        .kaiming_normal(&[200, 100], 0.0, DType::F32)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    let (_, std) = mean_std(&w);
    assert!((std - (2.0 / 100.0f64).sqrt()).abs() < 0.003, "std {std}");
}

#[test]
fn bad_arguments_are_errors() {
    let mut g = Generator::new(0);
    let err = |r: tg::Result<DynTensor>| r.expect_err("should fail");
    assert!(matches!(
        err(g.rand(&[2], DType::I32)),
        Error::DType {
            op: "rand",
            dtype: DType::I32,
            ..
        }
    ));
    assert!(matches!(
        err(g.uniform(&[2], 1.0, 1.0, DType::F32)),
        Error::Argument { op: "uniform", .. }
    ));
    assert!(matches!(
        err(g.uniform(&[2], f64::NAN, 1.0, DType::F32)),
        Error::Argument { op: "uniform", .. }
    ));
    let e = err(g.randint(&[2], 3, 2, DType::I32));
    assert!(matches!(e, Error::Argument { op: "randint", .. }));
    assert_eq!(
        e.to_string(),
        "randint: needs low < high, got low=3, high=2"
    );
    assert!(matches!(
        err(g.randint(&[2], 0, 2, DType::F32)),
        Error::DType {
            op: "randint",
            dtype: DType::F32,
            ..
        }
    ));
    assert!(matches!(
        err(g.normal(&[2], 0.0, -1.0, DType::F32)),
        Error::Argument { op: "normal", .. }
    ));
    assert!(matches!(
        err(g.randn(&[2], DType::U8)),
        Error::DType {
            op: "randn",
            dtype: DType::U8,
            ..
        }
    ));
    assert!(matches!(
        err(g.glorot_uniform(&[], DType::F32)),
        Error::RankTooLow {
            op: "glorot_uniform",
            min: 1,
            ..
        }
    ));
    assert!(matches!(
        err(g.uniform(&[2], 0.0, 1.0, DType::Bool)),
        Error::DType {
            op: "uniform",
            dtype: DType::Bool,
            ..
        }
    ));
    assert_eq!(g.counter(), 0, "failed calls use no words");
    let empty = g.kaiming_uniform(&[0, 3], 0.01, DType::F32).unwrap();
    assert_eq!(empty.shape(), &[0, 3]);
    let r = std::panic::catch_unwind(|| Tensor::<Rank1<2>>::uniform(2.0, 1.0));
    assert!(r.is_err());
    assert!(Tensor::<Rank1<2>, u8>::try_randint_shape((Const,), 9, 9).is_err());
}

#[test]
fn typed_creation_keeps_shapes_and_types() {
    let z = Tensor::<Rank3<2, 1, 3>, f16>::zeros();
    assert_eq!((z.dims(), z.dtype()), (vec![2, 1, 3], DType::F16));
    let f = Tensor::<shape![_, 2], i16>::full_shape((3, Const), -4);
    assert_eq!(f.to_vec().unwrap(), vec![-4; 6]);
    let o = f.ones_like();
    assert_eq!(o.to_vec().unwrap(), vec![1; 6]);
    let v = Tensor::<Rank1<3>, u64>::from_vec(vec![1, 2, u64::MAX]).unwrap();
    assert_eq!(v.to_vec().unwrap(), vec![1, 2, u64::MAX]);
    assert!(Tensor::<Rank1<3>, u64>::from_vec(vec![1]).is_err());
    let e = Tensor::<Rank0, bool>::empty();
    assert_eq!(e.to_vec().unwrap(), vec![false]);
}
