//! The compositions over sorted rows (`graph/sorted.rs`) against the host: binary searches,
//! writes grouped by position, running combinations within groups, and sums into positions,
//! with positions outside the axis, narrow and 64-bit positions, and their errors.

use tg_runtime::{BinaryOp, DType, Error, Lazy};

/// Deterministic positions in `lo..hi`.
fn positions(n: usize, seed: i64, lo: i64, hi: i64) -> Vec<i64> {
    (0..n as i64)
        .map(|i| lo + (i * 7919 + seed * 104_729 + i * i * 31) % (hi - lo))
        .collect()
}

#[test]
fn lower_bound_finds_the_first_not_below() {
    let sorted: Vec<i32> = vec![0, 0, 2, 2, 2, 5, 9, 9, 12, 40];
    let targets: Vec<i32> = vec![-3, 0, 1, 2, 3, 9, 10, 40, 41, 1000];
    let s = Lazy::from_slice(&[1, sorted.len()], &sorted).unwrap();
    let t = Lazy::from_slice(&[1, targets.len()], &targets).unwrap();
    let got = s.lower_bound(&t).unwrap().to_vec::<i32>().unwrap();
    let want: Vec<i32> = targets
        .iter()
        .map(|&v| sorted.partition_point(|&x| x < v) as i32)
        .collect();
    assert_eq!(got, want);
}

#[test]
fn writes_group_by_position_and_sums_land_like_the_host() {
    let (rows, k, n) = (3usize, 700usize, 90usize);
    let pos = positions(rows * k, 3, -5, n as i64 + 7);
    let vals: Vec<f64> = (0..rows * k).map(|i| (i % 13) as f64 - 6.25).collect();
    let p = Lazy::from_slice(&[rows, k], &pos).unwrap();
    let runs = p.writes_by_position(n).unwrap();
    let order = runs.order.to_vec::<i32>().unwrap();
    let sorted = runs.sorted.to_vec::<i32>().unwrap();
    let end = runs.end.to_vec::<i32>().unwrap();
    let found = runs.found.to_vec::<bool>().unwrap();
    for r in 0..rows {
        let row = &pos[r * k..(r + 1) * k];
        let key = |p: i64| {
            if (0..n as i64).contains(&p) {
                p
            } else {
                n as i64
            }
        };
        // a stable order of the positions, outside ones last
        let mut want: Vec<usize> = (0..k).collect();
        want.sort_by_key(|&i| key(row[i]));
        let got: Vec<usize> = order[r * k..(r + 1) * k]
            .iter()
            .map(|&i| i as usize)
            .collect();
        assert_eq!(got, want, "row {r}: order");
        let keys: Vec<i64> = want.iter().map(|&i| key(row[i])).collect();
        let got_keys: Vec<i64> = sorted[r * k..(r + 1) * k]
            .iter()
            .map(|&v| v as i64)
            .collect();
        assert_eq!(got_keys, keys, "row {r}: sorted positions");
        for slot in 0..n {
            let last = keys.iter().rposition(|&v| v == slot as i64);
            assert_eq!(found[r * n + slot], last.is_some(), "row {r} slot {slot}");
            if let Some(e) = last {
                assert_eq!(end[r * n + slot] as usize, e, "row {r} slot {slot}: end");
            }
        }
    }
    // the values summed into the positions, along axis 1 and (transposed) axis 0
    let v = Lazy::from_slice(&[rows, k], &vals).unwrap();
    let mut want = vec![0.0; rows * n];
    for (i, (&p, &x)) in pos.iter().zip(&vals).enumerate() {
        if (0..n as i64).contains(&p) {
            want[(i / k) * n + p as usize] += x;
        }
    }
    let got = v.sum_at(1, &p, n).unwrap().to_vec::<f64>().unwrap();
    assert_eq!(got, want);
    // this size is summed as a one-hot mask; the sort and scan give the same sums
    let (sums, found) = v
        .combine_at(1, &p, n, &|a, b| a.binary(BinaryOp::Add, b))
        .unwrap();
    let zero = Lazy::constant(0.0f64, DType::F64, sums.shape()).unwrap();
    let sorted_sums = found.where_(&sums, &zero).unwrap().to_vec::<f64>().unwrap();
    assert_eq!(sorted_sums, want);
    let t = |l: &Lazy| l.permute(&[1, 0]).unwrap();
    let got = t(&v.sum_at(1, &p, n).unwrap()).to_vec::<f64>().unwrap();
    let got0 = v
        .permute(&[1, 0])
        .unwrap()
        .sum_at(0, &t(&p), n)
        .unwrap()
        .to_vec::<f64>()
        .unwrap();
    assert_eq!(got0, got);
}

#[test]
fn group_scan_combines_within_runs_of_equal_keys() {
    let keys: Vec<i32> = vec![0, 0, 0, 3, 3, 4, 7, 7, 7, 7, 9];
    let x: Vec<i32> = vec![5, -2, 9, 1, 1, 8, -4, 6, 2, 11, 3];
    let k = Lazy::from_slice(&[1, keys.len()], &keys).unwrap();
    let v = Lazy::from_slice(&[1, x.len()], &x).unwrap();
    let sums = v
        .group_scan(&k, &|a, b| a.binary(BinaryOp::Add, b))
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    let maxes = v
        .group_scan(&k, &|a, b| a.binary(BinaryOp::Max, b))
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    let (mut want_sum, mut want_max) = (Vec::new(), Vec::new());
    for i in 0..x.len() {
        let start = keys[..=i]
            .iter()
            .rposition(|&q| q != keys[i])
            .map_or(0, |p| p + 1);
        want_sum.push(x[start..=i].iter().sum::<i32>());
        want_max.push(*x[start..=i].iter().max().unwrap());
    }
    assert_eq!(sums, want_sum);
    assert_eq!(maxes, want_max);
}

#[test]
fn sums_into_positions_take_narrow_positions_and_name_their_mistakes() {
    // u8 positions into an axis of 300 (compared where 300 fits)
    let pos: Vec<u8> = vec![255, 3, 0, 255, 7];
    let v = Lazy::from_slice(&[5], &[1.0f32, 2.0, 3.0, 4.0, 5.0]).unwrap();
    let p = Lazy::from_slice(&[5], &pos).unwrap();
    let got = v.sum_at(0, &p, 300).unwrap().to_vec::<f32>().unwrap();
    let mut want = vec![0.0f32; 300];
    for (&q, x) in pos.iter().zip([1.0f32, 2.0, 3.0, 4.0, 5.0]) {
        want[q as usize] += x;
    }
    assert_eq!(got, want);
    // nothing to sum, or nowhere to put it
    let empty = Lazy::constant(1.0f32, DType::F32, &[0, 3]).unwrap();
    let none = Lazy::constant(0i32, DType::I32, &[0, 3]).unwrap();
    assert_eq!(empty.sum_at(0, &none, 4).unwrap().shape(), &[4, 3]);
    assert_eq!(v.sum_at(0, &p, 0).unwrap().shape(), &[0]);
    let f = Lazy::from_slice(&[5], &[0.0f32; 5]).unwrap();
    assert!(matches!(
        v.sum_at(0, &f, 4),
        Err(Error::DType { op: "sum_at", .. })
    ));
    let short = Lazy::from_slice(&[4], &[0i32; 4]).unwrap();
    assert!(matches!(
        v.sum_at(0, &short, 4),
        Err(Error::Shape { op: "sum_at", .. })
    ));
    assert!(matches!(
        v.sum_at(1, &p, 4),
        Err(Error::AxisOutOfRange { op: "sum_at", .. })
    ));
}

#[test]
fn no_writes_or_no_positions() {
    let none = Lazy::constant(0i32, DType::I32, &[2, 0]).unwrap();
    let runs = none.writes_by_position(5).unwrap();
    assert_eq!(runs.found.shape(), &[2, 5]);
    assert_eq!(runs.found.to_vec::<bool>().unwrap(), vec![false; 10]);
    assert_eq!(runs.order.shape(), &[2, 0]);
    let some = Lazy::from_slice(&[1, 3], &[0i32, 2, 1]).unwrap();
    let runs = some.writes_by_position(0).unwrap();
    assert_eq!(runs.found.shape(), &[1, 0]);
    assert_eq!(runs.order.to_vec::<i32>().unwrap(), vec![0, 1, 2]);
}

#[test]
fn rank_zero_rows_are_errors() {
    let s = Lazy::constant(1i32, DType::I32, &[]).unwrap();
    assert!(matches!(
        s.lower_bound(&s),
        Err(Error::RankTooLow {
            op: "lower_bound",
            ..
        })
    ));
    assert!(matches!(
        s.writes_by_position(3),
        Err(Error::RankTooLow {
            op: "writes_by_position",
            ..
        })
    ));
    assert!(matches!(
        s.group_scan(&s, &|a, b| a.binary(BinaryOp::Add, b)),
        Err(Error::RankTooLow {
            op: "group_scan",
            ..
        })
    ));
}

/// A sum of 4096 values into 8192 positions is sorted and scanned, one into 64 positions a
/// single one-hot reduction (`sum_at`'s choice by size); both land like the host.
#[test]
fn sums_into_positions_choose_the_sort_or_a_one_hot_by_size() {
    let k = 4096usize;
    let vals: Vec<f32> = (0..k).map(|i| (i % 11) as f32 - 5.5).collect();
    let v = Lazy::from_slice(&[k], &vals).unwrap();
    for (n, kernels) in [(8192usize, 10u64..=u64::MAX), (64, 1..=1)] {
        let pos = positions(k, 5, -3, n as i64 + 3);
        let p = Lazy::from_slice(&[k], &pos).unwrap();
        p.realize().unwrap();
        v.realize().unwrap();
        let before = tg_runtime::thread_stats().kernels;
        let got = v.sum_at(0, &p, n).unwrap().to_vec::<f32>().unwrap();
        let ran = tg_runtime::thread_stats().kernels - before;
        assert!(kernels.contains(&ran), "{n} positions: {ran} kernels");
        let mut want = vec![0.0f64; n];
        for (&q, &x) in pos.iter().zip(&vals) {
            if (0..n as i64).contains(&q) {
                want[q as usize] += f64::from(x);
            }
        }
        for (slot, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                (f64::from(*g) - w).abs() < 1e-3,
                "{n} positions, slot {slot}: {g} vs {w}"
            );
        }
    }
}

/// A one-hot sum past lavapipe's loop budget (65,535 iterations an invocation) and at 2^24
/// mask elements: 2^20 values into 16 positions, split into reductions that fit, landing
/// like the host; the sort would take dozens of kernels.
#[test]
fn a_one_hot_sum_past_the_loop_budget_lands_like_the_host() {
    let (k, n) = (1usize << 20, 16usize);
    let vals: Vec<f32> = (0..k).map(|i| ((i * 7) % 13) as f32 - 6.0).collect();
    let pos: Vec<i32> = positions(k, 11, -1, n as i64 + 1)
        .into_iter()
        .map(|p| p as i32)
        .collect();
    let v = Lazy::from_slice(&[k], &vals).unwrap();
    let p = Lazy::from_slice(&[k], &pos).unwrap();
    v.realize().unwrap();
    p.realize().unwrap();
    let before = tg_runtime::thread_stats();
    let got = v.sum_at(0, &p, n).unwrap().to_vec::<f32>().unwrap();
    let after = tg_runtime::thread_stats();
    assert!(
        after.kernels - before.kernels < 10,
        "{} kernels",
        after.kernels - before.kernels
    );
    let mut want = vec![0.0f64; n];
    for (&q, &x) in pos.iter().zip(&vals) {
        if (0..n as i32).contains(&q) {
            want[q as usize] += f64::from(x);
        }
    }
    // integers, so every order of the sum is exact
    let got: Vec<f64> = got.iter().map(|&g| f64::from(g)).collect();
    assert_eq!(got, want);
}
