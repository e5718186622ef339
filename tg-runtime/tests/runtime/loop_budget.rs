//! The loop budget: lavapipe ends an invocation's loops silently after 65,535 back-edges, so
//! the scheduler must split any kernel that would loop longer. A child process runs with
//! `TG_LOOP_BUDGET=1500`, which makes every strategy (serial, cooperative, row kernels, split
//! reductions, helper loops inside a reduction, a matmul's K loop, a fused attention's keys
//! and queries) pass the budget at sizes
//! that run in milliseconds, and checks each result exactly against arithmetic on the host.
//! The real budget at real sizes is covered by the root package's size tests.

use crate::device_common::{child_value, row_shares, run_child};
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, UnaryOp, process_stats};

#[test]
fn every_strategy_fits_a_small_loop_budget() {
    let out = run_child("child_small_budget", &[("TG_LOOP_BUDGET", "1500")]);
    assert_eq!(child_value(&out, "BUDGET"), "1500");
    assert_eq!(child_value(&out, "CHECKED"), "11");
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
    // a fused attention of 1,600 queries and keys, causal and with an additive mask: each pass
    // loops over 1,600 keys (or queries), so each is split into chunks and joined (the
    // forward's chunks by their logsumexps), forward and gradients against f64 on the host
    for causal in [true, false] {
        attention_matches_the_host(causal);
        checked += 1;
    }
    println!("CHECKED={checked}");
    println!("MAX_LOOPS={}", process_stats().max_loops);
}

/// Values in [-1, 1) from a hash of the index and `seed`.
fn wave(n: usize, seed: usize) -> Vec<f32> {
    (0..n)
        .map(|i| (((i * 2654435761 + seed * 40503) % 4096) as f32 / 2048.0) - 1.0)
        .collect()
}

/// The fused attention of `[2, 1600, 4]` queries and keys and `[2, 1600, 3]` values (causal,
/// or with an additive mask of one row of keys a head: some hidden, the rest offset) and the
/// gradients of q, k and v of `sum(out * r)`, against f64 on the host.
fn attention_matches_the_host(causal: bool) {
    let (h, t, d, dv) = (2, 1600, 4, 3);
    let (qv, kv, vv, rv) = (
        wave(h * t * d, 1),
        wave(h * t * d, 2),
        wave(h * t * dv, 3),
        wave(h * t * dv, 4),
    );
    let mv: Vec<f32> = (0..h * t)
        .map(|i| match i % 7 {
            0 => f32::NEG_INFINITY,
            c => c as f32 * 0.25 - 1.0,
        })
        .collect();
    let q = Lazy::from_slice(&[h, t, d], &qv).unwrap();
    let k = Lazy::from_slice(&[h, t, d], &kv).unwrap();
    let v = Lazy::from_slice(&[h, t, dv], &vv).unwrap();
    let m = Lazy::from_slice(&[h, 1, t], &mv).unwrap();
    let out = q
        .attention(&k, &v, causal, (!causal).then_some(&m))
        .unwrap();
    // the values' gradient `r`, the logsumexp's 0
    let mut seed = Vec::with_capacity(h * t * (dv + 1));
    for row in rv.chunks(dv) {
        seed.extend_from_slice(row);
        seed.push(0.0);
    }
    let seed = Lazy::from_slice(&[h, t, dv + 1], &seed).unwrap();
    let grads = out.gradient(&[&q, &k, &v], Some(&seed)).unwrap();
    let got_out = out.to_vec::<f32>().unwrap();
    let got: Vec<Vec<f32>> = grads.iter().map(|g| g.to_vec::<f32>().unwrap()).collect();

    let scale = 1.0 / (d as f64).sqrt();
    let (mut out_w, mut dq, mut dk, mut dvw) = (
        vec![0f64; h * t * (dv + 1)],
        vec![0f64; h * t * d],
        vec![0f64; h * t * d],
        vec![0f64; h * t * dv],
    );
    for hh in 0..h {
        let at = |x: &[f32], w: usize, i: usize, c: usize| x[(hh * t + i) * w + c] as f64;
        for i in 0..t {
            let seen = if causal { i + 1 } else { t };
            let s: Vec<f64> = (0..seen)
                .map(|j| {
                    let dot: f64 = (0..d).map(|c| at(&qv, d, i, c) * at(&kv, d, j, c)).sum();
                    dot * scale + if causal { 0.0 } else { mv[hh * t + j] as f64 }
                })
                .collect();
            let most = s.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let e: Vec<f64> = s.iter().map(|x| (x - most).exp()).collect();
            let total: f64 = e.iter().sum();
            let p: Vec<f64> = e.iter().map(|x| x / total).collect();
            for c in 0..dv {
                out_w[(hh * t + i) * (dv + 1) + c] =
                    (0..seen).map(|j| p[j] * at(&vv, dv, j, c)).sum();
            }
            out_w[(hh * t + i) * (dv + 1) + dv] = most + total.ln();
            let dp: Vec<f64> = (0..seen)
                .map(|j| (0..dv).map(|c| at(&rv, dv, i, c) * at(&vv, dv, j, c)).sum())
                .collect();
            let delta: f64 = (0..seen).map(|j| p[j] * dp[j]).sum();
            for j in 0..seen {
                let ds = p[j] * (dp[j] - delta);
                for c in 0..d {
                    dq[(hh * t + i) * d + c] += ds * at(&kv, d, j, c) * scale;
                    dk[(hh * t + j) * d + c] += ds * at(&qv, d, i, c) * scale;
                }
                for c in 0..dv {
                    dvw[(hh * t + j) * dv + c] += p[j] * at(&rv, dv, i, c);
                }
            }
        }
    }
    let name = if causal { "causal" } else { "masked" };
    for (what, g, w) in [
        ("out", &got_out, &out_w),
        ("dq", &got[0], &dq),
        ("dk", &got[1], &dk),
        ("dv", &got[2], &dvw),
    ] {
        assert_eq!(g.len(), w.len(), "{name} {what}: length");
        let most = w.iter().fold(0f64, |a, x| a.max(x.abs()));
        for (i, (a, b)) in g.iter().zip(w.iter()).enumerate() {
            assert!(
                (*a as f64 - b).abs() <= 1e-4 * most + 1e-6,
                "{name} attention {what}: [{i}] = {a}, want {b}"
            );
        }
    }
}
