//! Graphs built and realized from several threads at once give correct results.

use std::sync::Arc;
use std::thread;

use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, UnaryOp};

#[test]
fn eight_threads_build_and_realize_at_once() {
    let n = 4096;
    let base: Vec<f32> = (0..n).map(|i| (i % 97) as f32 * 0.01).collect();
    let shared = Arc::new(Lazy::from_slice(&[n], &base).unwrap());
    // an unrealized node that every thread also realizes
    let common = Arc::new(
        shared
            .unary(UnaryOp::Sqrt)
            .unwrap()
            .binary(BinaryOp::Add, &shared)
            .unwrap(),
    );
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let shared = shared.clone();
            let common = common.clone();
            let base = base.clone();
            thread::spawn(move || {
                // every thread realizes the same shared node at once; one result wins
                let c = common.to_vec::<f32>().unwrap();
                assert!((c[5] - (base[5].sqrt() + base[5])).abs() < 1e-6);
                for round in 0..6 {
                    let k = (t * 10 + round) as f32;
                    let c = Lazy::constant(k, DType::F32, &[n]).unwrap();
                    let y = shared
                        .binary(BinaryOp::Mul, &c)
                        .unwrap()
                        .binary(BinaryOp::Add, &common)
                        .unwrap();
                    let s = y.reduce(ReduceOp::Add, &[0]).unwrap();
                    let got = y.to_vec::<f32>().unwrap();
                    for i in (0..n).step_by(97) {
                        let want = base[i] * k + (base[i].sqrt() + base[i]);
                        assert!(
                            (got[i] - want).abs() <= 1e-5 * want.abs().max(1.0),
                            "thread {t} round {round} at {i}"
                        );
                    }
                    let want: f64 = base.iter().map(|&v| (v * k + (v.sqrt() + v)) as f64).sum();
                    let got = s.to_vec::<f32>().unwrap()[0] as f64;
                    assert!(
                        (got - want).abs() <= 1e-4 * want.abs(),
                        "thread {t} sum {got} vs {want}"
                    );
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("thread");
    }
    assert!(common.is_realized());
}
