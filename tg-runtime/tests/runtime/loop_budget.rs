//! The loop budget: lavapipe ends an invocation's loops silently after 65,535 back-edges, so
//! the scheduler must split any kernel that would loop longer. A child process runs with
//! `TG_LOOP_BUDGET=1500`, which makes every strategy (serial, cooperative, row kernels, split
//! reductions, helper loops inside a reduction, a matmul's K loop, a fused attention's keys
//! and queries) pass the budget at sizes
//! that run in milliseconds, and checks each result exactly against arithmetic on the host.
//! The real budget at real sizes is covered by the root package's size tests.

use crate::attention::{Masking, attention_matches_the_host};
use crate::device_common::{child_value, row_shares, run_child};
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, UnaryOp, process_stats};

#[test]
fn every_strategy_fits_a_small_loop_budget() {
    let out = run_child("child_small_budget", &[("TG_LOOP_BUDGET", "1500")]);
    assert_eq!(child_value(&out, "BUDGET"), "1500");
    assert_eq!(child_value(&out, "CHECKED"), "14");
    let loops: u64 = child_value(&out, "MAX_LOOPS").parse().unwrap();
    assert!(
        loops <= 1500,
        "a kernel took {loops} back-edges per invocation"
    );
}

/// Integers as f32, exact in sums below 2^24.
fn ints(n: usize, modulo: usize) -> Vec<f32> {
    (0..n).map(|i| ((i * 7 + 3) % modulo) as f32).collect()
}

fn check(name: &str, got: Vec<f32>, want: Vec<f64>) {
    assert_eq!(got.len(), want.len(), "{name}: length");
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert!(
            (*g as f64 - w).abs() <= 1e-6 * w.abs().max(1.0),
            "{name}: [{i}] = {g}, want {w}"
        );
    }
}

#[test]
#[ignore = "run by every_strategy_fits_a_small_loop_budget"]
fn child_small_budget() {
    let device = tg_runtime::device::Device::get().unwrap();
    println!("BUDGET={}", device.info().loop_budget.unwrap_or(0));
    let mut checked = 0;

    // a whole-tensor sum: a reduction under a reshape, as `sum(None)` builds it
    let n = 100_003;
    let v = ints(n, 11);
    let x = Lazy::from_slice(&[n], &v).unwrap();
    let s = x.reduce(ReduceOp::Add, &[0]).unwrap().reshape(&[]).unwrap();
    let want: f64 = v.iter().map(|&a| a as f64).sum();
    check("whole sum", s.to_vec::<f32>().unwrap(), vec![want]);
    checked += 1;

    // sums along a long leading axis and a long trailing axis of many rows (serial kernels)
    let (rows, cols) = (64, 5_000);
    let v = ints(rows * cols, 13);
    let x = Lazy::from_slice(&[rows, cols], &v).unwrap();
    let by_col = x.reduce(ReduceOp::Add, &[0]).unwrap();
    let want: Vec<f64> = (0..cols)
        .map(|c| (0..rows).map(|r| v[r * cols + c] as f64).sum())
        .collect();
    check("sum axis 0", by_col.to_vec::<f32>().unwrap(), want);
    let by_row = x.reduce(ReduceOp::Add, &[1]).unwrap();
    let want: Vec<f64> = (0..rows)
        .map(|r| v[r * cols..(r + 1) * cols].iter().map(|&a| a as f64).sum())
        .collect();
    check("sum axis 1", by_row.to_vec::<f32>().unwrap(), want);
    checked += 2;

    // max over an odd length: the chunks leave a remainder the final pass reduces
    let n = 70_001;
    let mut v = ints(n, 1000);
    v[n - 1] = 5000.0;
    let x = Lazy::from_slice(&[n], &v).unwrap();
    let m = x.reduce(ReduceOp::Max, &[0]).unwrap();
    check(
        "max with remainder",
        m.to_vec::<f32>().unwrap(),
        vec![5000.0],
    );
    checked += 1;

    // a row kernel: x / sum(x) over each row, the sum broadcast back over the row
    let (rows, cols) = (3, 40_000);
    let v: Vec<f32> = (0..rows * cols).map(|i| (i % 5 + 1) as f32).collect();
    let x = Lazy::from_slice(&[rows, cols], &v).unwrap();
    let share = row_shares(&x);
    let back = share.reduce(ReduceOp::Add, &[1]).unwrap();
    check("row shares", back.to_vec::<f32>().unwrap(), vec![1.0; rows]);
    checked += 1;

    // a matmul's K loop: [4, K] x [K, 4] as a reduction of broadcast products
    let k = 30_000;
    let a = ints(4 * k, 3);
    let b = ints(k * 4, 2);
    let la = Lazy::from_slice(&[4, k], &a).unwrap();
    let lb = Lazy::from_slice(&[k, 4], &b).unwrap();
    let prod = la
        .reshape(&[4, k, 1])
        .unwrap()
        .expand(&[4, k, 4])
        .unwrap()
        .binary(
            BinaryOp::Mul,
            &lb.reshape(&[1, k, 4]).unwrap().expand(&[4, k, 4]).unwrap(),
        )
        .unwrap();
    let c = prod.reduce(ReduceOp::Add, &[1]).unwrap();
    let want: Vec<f64> = (0..16)
        .map(|ij| {
            let (i, j) = (ij / 4, ij % 4);
            (0..k)
                .map(|kk| a[i * k + kk] as f64 * b[kk * 4 + j] as f64)
                .sum()
        })
        .collect();
    check("matmul K loop", c.to_vec::<f32>().unwrap(), want);
    checked += 1;

    // helper loops inside a reduction: an integer power's squaring loop runs per element
    let n = 20_000;
    let v: Vec<i32> = (0..n as i32).map(|i| i % 7).collect();
    let x = Lazy::from_slice(&[n], &v).unwrap();
    let three = Lazy::constant(3, DType::I32, &[n]).unwrap();
    let cubes = x.binary(BinaryOp::Pow, &three).unwrap();
    let s = cubes.reduce(ReduceOp::Add, &[0]).unwrap();
    let want: i64 = v.iter().map(|&a| (a as i64).pow(3)).sum();
    assert_eq!(
        s.to_vec::<i32>().unwrap(),
        vec![want as i32],
        "sum of cubes"
    );
    checked += 1;

    // f64 exp2 (tg's own polynomial, a loop per call) inside a reduction
    if device.info().shader_float64 {
        let n = 5_000;
        let v: Vec<f64> = (0..n).map(|i| (i % 4) as f64).collect();
        let x = Lazy::from_slice(&[n], &v).unwrap();
        let s = x
            .unary(UnaryOp::Exp2)
            .unwrap()
            .reduce(ReduceOp::Add, &[0])
            .unwrap();
        let want: f64 = v.iter().map(|a| a.exp2()).sum();
        let got = s.to_vec::<f64>().unwrap()[0];
        assert!(
            (got - want).abs() < 1e-9 * want,
            "exp2 sum {got}, want {want}"
        );
    }
    checked += 1;

    // a kernel with two dependent long reductions over one row (argmax's shape)
    let n = 50_000;
    let mut v = ints(n, 100);
    v[31_337] = 1000.0;
    let x = Lazy::from_slice(&[n], &v).unwrap();
    let best = x.reduce(ReduceOp::Max, &[0]).unwrap().expand(&[n]).unwrap();
    let hit = x.binary(BinaryOp::CmpEq, &best).unwrap();
    let idx: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let pos = hit
        .where_(
            &Lazy::from_slice(&[n], &idx).unwrap(),
            &Lazy::constant(-1.0, DType::F32, &[n]).unwrap(),
        )
        .unwrap()
        .reduce(ReduceOp::Max, &[0])
        .unwrap();
    check(
        "dependent reductions",
        pos.to_vec::<f32>().unwrap(),
        vec![31_337.0],
    );
    checked += 1;

    assert!(process_stats().kernels > 9, "the budget split the work");
    // a fused attention of 1,600 queries and keys, causal, with an additive mask, with ends
    // and with dropout: each pass loops over 1,600 keys (or queries), so each is split into
    // chunks and joined (the forward's chunks by their logsumexps; a chunk of keys takes its
    // bits packed again from bit 0), forward and gradients against f64 on the host
    for mask in Masking::ALL {
        attention_matches_the_host(mask, 1600, 4, 3);
        checked += 1;
    }
    println!("CHECKED={checked}");
    println!("MAX_LOOPS={}", process_stats().max_loops);
}
