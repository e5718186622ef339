//! Kernel counts of fused graphs, compared with the values numpy gives.

use crate::graphs;

use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, UnaryOp, thread_stats};

fn data(n: usize, seed: u32) -> Vec<f32> {
    (0..n)
        .map(|i| {
            ((i as u32).wrapping_mul(2654435761).wrapping_add(seed) % 1000) as f32 / 250.0 - 2.0
        })
        .collect()
}

/// Kernels dispatched by this thread while realizing `x`, and its values.
fn run(x: &Lazy) -> (u64, Vec<f32>) {
    let before = thread_stats().kernels;
    let v = x.to_vec::<f32>().expect("realize");
    (thread_stats().kernels - before, v)
}

fn input(shape: &[usize], seed: u32) -> (Lazy, Vec<f32>) {
    let n = shape.iter().product();
    let d = data(n, seed);
    let l = Lazy::from_slice(shape, &d).expect("input");
    l.realize().expect("upload");
    (l, d)
}

#[test]
fn add_mul_sum_is_one_kernel() {
    let (a, da) = input(&[16, 40], 1);
    let (b, db) = input(&[16, 40], 2);
    let (c, dc) = input(&[16, 40], 3);
    let s = a
        .binary(BinaryOp::Add, &b)
        .unwrap()
        .binary(BinaryOp::Mul, &c)
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap();
    let (kernels, got) = run(&s);
    assert_eq!(kernels, 1);
    for r in 0..16 {
        let want: f32 = (0..40)
            .map(|j| (da[r * 40 + j] + db[r * 40 + j]) * dc[r * 40 + j])
            .sum();
        assert!(
            (got[r] - want).abs() < 1e-4 * want.abs().max(1.0),
            "row {r}: {} vs {want}",
            got[r]
        );
    }
}

#[test]
fn twenty_elementwise_ops_are_one_kernel() {
    let (a, da) = input(&[1000], 4);
    let mut x = a.clone();
    let mut want = da.clone();
    for i in 0..20 {
        x = match i % 4 {
            0 => x.binary(BinaryOp::Add, &a).unwrap(),
            1 => x
                .binary(
                    BinaryOp::Mul,
                    &Lazy::constant(0.5f32, DType::F32, &[1000]).unwrap(),
                )
                .unwrap(),
            2 => x.unary(UnaryOp::Neg).unwrap(),
            _ => x.binary(BinaryOp::Max, &a).unwrap(),
        };
        for (w, &v) in want.iter_mut().zip(&da) {
            *w = match i % 4 {
                0 => *w + v,
                1 => *w * 0.5,
                2 => -*w,
                _ => w.max(v),
            };
        }
    }
    let (kernels, got) = run(&x);
    assert_eq!(kernels, 1);
    assert_eq!(got, want);
}

#[test]
fn views_fuse_into_the_consumer() {
    // a permuted, padded, flipped, shrunk expand, added to another view: one kernel
    let (a, da) = input(&[3, 1, 4], 5);
    let v = a
        .expand(&[3, 5, 4])
        .unwrap()
        .permute(&[1, 0, 2])
        .unwrap()
        .pad(&[(1, 1), (0, 1), (2, 0)])
        .unwrap()
        .flip(&[0, 2])
        .unwrap()
        .shrink(&[(1, 6), (0, 3), (1, 6)])
        .unwrap();
    let w = v.binary(BinaryOp::Add, &v.flip(&[1]).unwrap()).unwrap();
    let (kernels, got) = run(&w);
    assert_eq!(kernels, 1);
    // reference by direct indexing: V[i][j][k] = D[5 - i][j][4 - k] of the padded (7, 4, 6)
    // D[p][q][r] = P[p - 1][q][r - 2] inside the padding, P[e][t][u] = a[t][0][u]
    let view = |i: usize, j: usize, k: usize| -> f32 {
        let (p, q, r) = (5 - i, j, 4 - k);
        if !(1..6).contains(&p) || q >= 3 || !(2..6).contains(&r) {
            0.0
        } else {
            da[q * 4 + (r - 2)]
        }
    };
    for i in 0..5 {
        for j in 0..3 {
            for k in 0..5 {
                let want = view(i, j, k) + view(i, 2 - j, k);
                assert_eq!(got[(i * 3 + j) * 5 + k], want, "at {i},{j},{k}");
            }
        }
    }
}

/// Builds a base-2 softmax over the rows of a `rows x cols` input, checks it against the host,
/// and returns how many kernels it took.
fn softmax_kernels(rows: usize, cols: usize, seed: u32) -> u64 {
    let (x, dx) = input(&[rows, cols], seed);
    let (kernels, got) = run(&graphs::base2_softmax(&x));
    for (r, row) in dx.chunks(cols).enumerate() {
        let mx = row.iter().cloned().fold(f32::MIN, f32::max);
        let sum: f32 = row.iter().map(|v| (v - mx).exp2()).sum();
        for (j, v) in row.iter().enumerate() {
            let want = (v - mx).exp2() / sum;
            let g = got[r * cols + j];
            assert!((g - want).abs() < 1e-6, "{r},{j}: {g} vs {want}");
        }
    }
    kernels
}

#[test]
fn a_broadcast_reduction_gets_its_own_kernel() {
    // rows of 50 are no whole number of vectors, so no row kernel: max and sum, consumed
    // through a broadcast, each get a kernel and are computed once
    assert_eq!(softmax_kernels(8, 50, 6), 3);
}

#[test]
fn realized_results_are_not_recomputed() {
    let (a, _) = input(&[64], 7);
    let b = a.unary(UnaryOp::Sin).unwrap();
    b.realize().unwrap();
    let c = b.binary(BinaryOp::Add, &b).unwrap();
    let (kernels, _) = run(&c);
    assert_eq!(kernels, 1, "b is read from its buffer");
    let (kernels, _) = run(&c);
    assert_eq!(kernels, 0, "c is realized already");
    // hash-consing: building the same graph again gives the same, realized node
    let c2 = a.unary(UnaryOp::Sin).unwrap();
    assert_eq!(c2.id(), b.id());
    assert!(c2.is_realized());
}

#[test]
fn a_reduction_used_by_two_kernels_is_computed_once() {
    let (a, _) = input(&[4, 32], 8);
    let s = a.reduce(ReduceOp::Add, &[1]).unwrap();
    let x = s.unary(UnaryOp::Sqrt).unwrap().contiguous();
    let y = s.unary(UnaryOp::Neg).unwrap().contiguous();
    let report = tg_runtime::realize_report(&[&x, &y], false).unwrap();
    // one reduction; x and y after it (one multi-output kernel where the device binds three
    // buffers, `schedule/multi.rs`)
    let reductions = report.kernels.iter().filter(|k| k.starts_with('R')).count();
    assert_eq!(reductions, 1, "{:?}", report.kernels);
    assert!(report.kernels.len() <= 3, "{:?}", report.kernels);
}

#[test]
fn a_long_sum_splits_into_two_kernels_and_stays_exact() {
    let n = 1 << 20;
    let ones = Lazy::constant(1.0f32, DType::F32, &[n])
        .unwrap()
        .contiguous();
    ones.realize().unwrap();
    let (kernels, got) = run(&ones.reduce(ReduceOp::Add, &[0]).unwrap());
    assert_eq!(kernels, 2);
    assert_eq!(got, vec![n as f32]);
}

#[test]
fn softmax_over_long_rows_is_one_kernel() {
    assert_eq!(softmax_kernels(6, 256, 9), 1);
}

#[test]
fn layernorm_is_one_kernel() {
    // mean, then the variance of the centred values (a reduction of a reduction), then scale
    let (x, dx) = input(&[5, 3, 128], 10);
    let shape = [5, 3, 128];
    let inv_n = Lazy::constant(1.0f32 / 128.0, DType::F32, &[5, 3, 1]).unwrap();
    let mean = x
        .reduce(ReduceOp::Add, &[2])
        .unwrap()
        .binary(BinaryOp::Mul, &inv_n)
        .unwrap();
    let xc = x
        .binary(
            BinaryOp::Add,
            &mean.expand(&shape).unwrap().unary(UnaryOp::Neg).unwrap(),
        )
        .unwrap();
    let var = xc
        .binary(BinaryOp::Mul, &xc)
        .unwrap()
        .reduce(ReduceOp::Add, &[2])
        .unwrap()
        .binary(BinaryOp::Mul, &inv_n)
        .unwrap();
    let rstd = crate::graphs::reciprocal_deviation(&var);
    let y = xc
        .binary(BinaryOp::Mul, &rstd.expand(&shape).unwrap())
        .unwrap();
    let (kernels, got) = run(&y);
    assert_eq!(kernels, 1);
    for r in 0..15 {
        let row = &dx[r * 128..(r + 1) * 128];
        let mean: f32 = row.iter().sum::<f32>() / 128.0;
        let var: f32 = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f32>() / 128.0;
        for j in 0..128 {
            let want = (row[j] - mean) / (var + 1e-5).sqrt();
            assert!(
                (got[r * 128 + j] - want).abs() < 1e-4,
                "{r},{j}: {} vs {want}",
                got[r * 128 + j]
            );
        }
    }
}

#[test]
fn a_value_read_through_many_views_is_realized() {
    // 12 stages, each adding the previous stage to its own reversal: fused whole, the first
    // stage would be evaluated 2^12 times per output
    let (a, da) = input(&[64], 11);
    let mut x = a.clone();
    let mut want = da.clone();
    for _ in 0..12 {
        x = x.unary(UnaryOp::Sin).unwrap();
        x = x.binary(BinaryOp::Add, &x.flip(&[0]).unwrap()).unwrap();
        let s: Vec<f32> = want.iter().map(|v| v.sin()).collect();
        want = (0..64).map(|i| s[i] + s[63 - i]).collect();
    }
    let (kernels, got) = run(&x);
    assert!((3..=6).contains(&kernels), "{kernels} kernels");
    for i in 0..64 {
        assert!(
            (got[i] - want[i]).abs() < 1e-4,
            "{i}: {} vs {}",
            got[i],
            want[i]
        );
    }
}

#[test]
fn a_reduction_of_a_broadcast_reduction_is_one_kernel() {
    // logsumexp over rows: max, then the sum of exp2(x - max) reads it through a broadcast
    let (x, dx) = input(&[8, 300], 12);
    let (m, e) = graphs::base2_shifted_exps(&x);
    let lse = e
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .unary(UnaryOp::Log2)
        .unwrap()
        .binary(BinaryOp::Add, &m)
        .unwrap();
    let (kernels, got) = run(&lse);
    assert_eq!(kernels, 1);
    for r in 0..8 {
        let row = &dx[r * 300..(r + 1) * 300];
        let mx = row.iter().cloned().fold(f32::MIN, f32::max);
        let want = row.iter().map(|v| (v - mx).exp2()).sum::<f32>().log2() + mx;
        assert!((got[r] - want).abs() < 1e-5, "{r}: {} vs {want}", got[r]);
    }
    // over the whole tensor (rank 0 result) too
    let m = x.reduce(ReduceOp::Max, &[0, 1]).unwrap();
    let d = x
        .binary(
            BinaryOp::Add,
            &m.expand(&[8, 300]).unwrap().unary(UnaryOp::Neg).unwrap(),
        )
        .unwrap();
    let var = d
        .binary(BinaryOp::Mul, &d)
        .unwrap()
        .reduce(ReduceOp::Add, &[0, 1])
        .unwrap()
        .reshape(&[])
        .unwrap();
    let (kernels, got) = run(&var);
    assert_eq!(kernels, 1);
    let mx = dx.iter().cloned().fold(f32::MIN, f32::max);
    let want: f32 = dx.iter().map(|v| (v - mx) * (v - mx)).sum();
    assert!((got[0] - want).abs() < 1e-3 * want, "{} vs {want}", got[0]);
}

/// Row kernels over enough rows to keep a CPU busy, where a subgroup shares each row (on
/// lavapipe): a row whose vectors do not fill the last round (260 = 65 vectors for 8
/// invocations), a read of the row at other elements than the loop's own (a flip: another
/// invocation's), and a row over two axes; each one kernel, each as the host computes it.
#[test]
fn rows_shared_by_invocations_match_the_host() {
    let (x, dx) = input(&[4096, 260], 11);
    let total = x
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .expand(&[4096, 260])
        .unwrap();
    let y = x.flip(&[1]).unwrap().binary(BinaryOp::Mul, &total).unwrap();
    let (kernels, got) = run(&y);
    assert_eq!(kernels, 1);
    for r in 0..4096 {
        let row = &dx[r * 260..(r + 1) * 260];
        let sum: f64 = row.iter().map(|&v| f64::from(v)).sum();
        for j in 0..260 {
            let want = f64::from(row[259 - j]) * sum;
            let g = f64::from(got[r * 260 + j]);
            assert!(
                (g - want).abs() <= 1e-4 * (1.0 + want.abs()),
                "{r},{j}: {g} vs {want}"
            );
        }
    }
    let (x, dx) = input(&[1024, 6, 20], 12);
    let total = x
        .reduce(ReduceOp::Add, &[1, 2])
        .unwrap()
        .expand(&[1024, 6, 20])
        .unwrap();
    let y = x.binary(BinaryOp::Mul, &total).unwrap();
    let (kernels, got) = run(&y);
    assert_eq!(kernels, 1);
    for r in 0..1024 {
        let row = &dx[r * 120..(r + 1) * 120];
        let sum: f64 = row.iter().map(|&v| f64::from(v)).sum();
        for j in 0..120 {
            let want = f64::from(row[j]) * sum;
            let g = f64::from(got[r * 120 + j]);
            assert!(
                (g - want).abs() <= 1e-4 * (1.0 + want.abs()),
                "{r},{j}: {g} vs {want}"
            );
        }
    }
}

/// A sum of 40 tensors fuses into kernels that each bind at most the device's storage
/// buffers (lavapipe: 32). One kernel reading all 40 crashed lavapipe's compiler, which
/// indexes past its table of buffers.
#[test]
fn a_sum_of_more_tensors_than_the_device_binds_is_cut_into_kernels_that_fit() {
    let n = 37;
    let inputs: Vec<(Lazy, Vec<f32>)> = (0..40).map(|i| input(&[n], 100 + i)).collect();
    let mut sum = inputs[0].0.clone();
    for (x, _) in &inputs[1..] {
        sum = sum.binary(BinaryOp::Add, x).unwrap();
    }
    let (kernels, got) = run(&sum);
    assert!((2..=3).contains(&kernels), "{kernels} kernels");
    for (j, g) in got.iter().enumerate() {
        let want: f64 = inputs.iter().map(|(_, d)| f64::from(d[j])).sum();
        assert!(
            (f64::from(*g) - want).abs() < 1e-4,
            "{j}: {g} against {want}"
        );
    }
}
