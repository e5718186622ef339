//! The three kernels from templates, against the host. Sorts and merges of sorted runs
//! (`Lazy::sort_runs`, `Lazy::merge_runs`): a merge sort (runs of 32 sorted, then every
//! merge level) over rows of every length class (one record, odd lengths, a power of two, a
//! row not a multiple of an invocation's records, rows shorter than a sorted run), records of
//! 1 to 4 words with repeated leading words, runs of every length sorted alone, and one merge
//! level alone on runs it did not sort. Scans of runs (`Lazy::scan_runs`, and from carries,
//! `Lazy::scan_runs_from`): sums, products and (of integers) maxima of every dtype they take,
//! runs that divide the row, do not, and are longer than it, against the host's (floats of
//! eighths, whose sums are exact in any order; integers wrap alike).

use tg_runtime::{DType, Element, Error, Lazy, ReduceOp};

/// Deterministic words with many repeats in the leading word (`spread` values).
fn words(n: usize, seed: u64, spread: u64) -> Vec<u32> {
    (0..n as u64)
        .map(|i| {
            let h = (i.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ seed.wrapping_mul(0xBF58_476D_1CE4_E5B9))
            .wrapping_mul(0x94D0_49BB_1331_11EB);
            ((h >> 29) % spread) as u32
        })
        .collect()
}

/// Sorts each row of `data` (rows of `len` records of `w` words) by `Lazy::merge_sort`: runs
/// sorted in registers, then merged level by level.
fn merge_sort(data: &[u32], rows: usize, len: usize, w: usize) -> Vec<u32> {
    let x = Lazy::from_slice(&[rows, len, w], data).unwrap();
    x.merge_sort().unwrap().to_vec::<u32>().unwrap()
}

fn host_sorted(data: &[u32], rows: usize, len: usize, w: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(data.len());
    for r in 0..rows {
        let mut recs: Vec<&[u32]> = data[r * len * w..(r + 1) * len * w].chunks(w).collect();
        recs.sort();
        out.extend(recs.into_iter().flatten());
    }
    out
}

#[test]
fn merging_level_by_level_sorts_every_row() {
    for (rows, len) in [
        (1, 1),
        (1, 2),
        (2, 3),
        (3, 7),
        (1, 8),
        (2, 9),
        (5, 100),
        (1, 1000),
        (2, 4097),
        (7, 5),
    ] {
        for w in 1..=4 {
            let data = words(rows * len * w, (rows * 31 + len * 7 + w) as u64, 5);
            let got = merge_sort(&data, rows, len, w);
            let want = host_sorted(&data, rows, len, w);
            assert_eq!(got, want, "rows {rows} of {len} records of {w} words");
        }
    }
}

/// One level alone: runs of 3 sorted on the host, merged in pairs (the last run short, the
/// last pair without a partner), against the host's merge.
#[test]
fn one_level_merges_runs_in_pairs() {
    let (len, w, run) = (17, 2, 3);
    let mut data = words(len * w, 5, 4);
    for chunk in data.chunks_mut(run * w) {
        let mut recs: Vec<Vec<u32>> = chunk.chunks(w).map(|r| r.to_vec()).collect();
        recs.sort();
        chunk.copy_from_slice(&recs.concat());
    }
    let got = Lazy::from_slice(&[len, w], &data)
        .unwrap()
        .merge_runs(run)
        .unwrap()
        .to_vec::<u32>()
        .unwrap();
    let mut want: Vec<u32> = Vec::new();
    for pair in data.chunks(2 * run * w) {
        let mut recs: Vec<&[u32]> = pair.chunks(w).collect();
        recs.sort();
        want.extend(recs.into_iter().flatten());
    }
    assert_eq!(got, want);
}

/// Runs of every length a sort takes, alone: each row's runs sorted (the last one short where
/// the run does not divide the row, the only one where the row is shorter), against the host.
#[test]
fn sorting_runs_sorts_each_run() {
    for run in [2, 4, 8, 16, 32] {
        for (rows, len) in [(1, 2), (3, 7), (2, 32), (2, 33), (4, 100), (1, 1000)] {
            for w in 1..=4 {
                let data = words(rows * len * w, (run * 131 + len * 7 + w) as u64, 5);
                let got = Lazy::from_slice(&[rows, len, w], &data)
                    .unwrap()
                    .sort_runs(run)
                    .unwrap()
                    .to_vec::<u32>()
                    .unwrap();
                let mut want: Vec<u32> = Vec::new();
                for row in data.chunks(len * w) {
                    for chunk in row.chunks(run * w) {
                        let mut recs: Vec<&[u32]> = chunk.chunks(w).collect();
                        recs.sort();
                        want.extend(recs.into_iter().flatten());
                    }
                }
                assert_eq!(got, want, "runs of {run}, rows {rows} of {len} x {w} words");
            }
        }
    }
    // all-ones records, which the missing records of a short run equal, stay where they sort
    let ones = vec![u32::MAX; 5 * 2];
    let got = Lazy::from_slice(&[5, 2], &ones)
        .unwrap()
        .sort_runs(8)
        .unwrap()
        .to_vec::<u32>()
        .unwrap();
    assert_eq!(got, ones);
}

#[test]
fn sort_errors_name_the_mistake() {
    let f = Lazy::from_slice(&[4, 1], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    assert!(matches!(
        f.sort_runs(2),
        Err(Error::DType {
            op: "sort_runs",
            ..
        })
    ));
    let flat = Lazy::from_slice(&[4], &[1u32, 2, 3, 4]).unwrap();
    assert!(matches!(
        flat.sort_runs(2),
        Err(Error::Shape {
            op: "sort_runs",
            ..
        })
    ));
    let x = Lazy::from_slice(&[2, 2], &[1u32, 2, 3, 4]).unwrap();
    for run in [0, 3, 64] {
        assert!(matches!(
            x.sort_runs(run),
            Err(Error::Argument {
                op: "sort_runs",
                ..
            })
        ));
    }
    // runs of one record are sorted: no node
    assert_eq!(x.sort_runs(1).unwrap().id(), x.id());
}

#[test]
fn merge_errors_name_the_mistake() {
    let f = Lazy::from_slice(&[4, 1], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    assert!(matches!(
        f.merge_runs(1),
        Err(Error::DType {
            op: "merge_runs",
            ..
        })
    ));
    let flat = Lazy::from_slice(&[4], &[1u32, 2, 3, 4]).unwrap();
    assert!(matches!(
        flat.merge_runs(1),
        Err(Error::Shape {
            op: "merge_runs",
            ..
        })
    ));
    let wide = Lazy::constant(0u32, DType::U32, &[4, 5]).unwrap();
    assert!(matches!(
        wide.merge_runs(1),
        Err(Error::Shape {
            op: "merge_runs",
            ..
        })
    ));
    let x = Lazy::from_slice(&[2, 2], &[1u32, 2, 3, 4]).unwrap();
    assert!(matches!(
        x.merge_runs(0),
        Err(Error::Argument {
            op: "merge_runs",
            ..
        })
    ));
    // one run per row is already sorted: no node
    assert_eq!(x.merge_runs(2).unwrap().id(), x.id());
}

/// How two values combine (a sum or a product).
type Combine<'a, T> = dyn Fn(T, T) -> T + 'a;

/// The host's scan of runs, in the kernel's order.
fn host_scan<T: Copy>(x: &[T], len: usize, run: usize, id: T, f: impl Fn(T, T) -> T) -> Vec<T> {
    let runs = x.len() / len.max(1) * len.div_ceil(run);
    host_scan_from(x, &vec![id; runs], len, run, f)
}

/// Checks every scan in `cases` (op, identity, the host's combine) of `make`'s values.
fn check_scans<T: Element + Copy + PartialEq + std::fmt::Debug>(
    make: impl Fn(usize) -> T,
    cases: &[(ReduceOp, T, &Combine<'_, T>)],
) {
    for (rows, len) in [(1, 1), (3, 5), (2, 300), (1, 1000)] {
        let data: Vec<T> = (0..rows * len).map(&make).collect();
        let x = Lazy::from_slice(&[rows, len], &data).unwrap();
        for run in [1, 2, 3, 7, 256, 300, 2000] {
            for &(op, id, f) in cases {
                let got = x.scan_runs(op, run).unwrap().to_vec::<T>().unwrap();
                let want = host_scan(&data, len, run, id, f);
                let dt = x.dtype();
                assert_eq!(
                    got, want,
                    "{dt:?} {op:?} of rows {rows} x {len}, runs of {run}"
                );
            }
        }
    }
}

#[test]
fn scans_of_runs_match_the_host_in_every_dtype() {
    use ReduceOp::{Add, Max, Mul};
    let small = |i: usize| ((i * 7919) % 13) as f64 / 8.0 + 0.5;
    let (add32, mul32) = (|a: f32, b: f32| a + b, |a: f32, b: f32| a * b);
    check_scans(
        |i| small(i) as f32,
        &[(Add, 0.0, &add32), (Mul, 1.0, &mul32)],
    );
    let (add64, mul64) = (|a: f64, b: f64| a + b, |a: f64, b: f64| a * b);
    check_scans(small, &[(Add, 0.0, &add64), (Mul, 1.0, &mul64)]);
    let int = |i: usize| ((i * 7919) % 2001) as i64 - 1000;
    check_scans(
        |i| int(i) as i32,
        &[
            (Add, 0, &i32::wrapping_add),
            (Mul, 1, &i32::wrapping_mul),
            (Max, i32::MIN, &i32::max),
        ],
    );
    check_scans(
        |i| int(i) as u32,
        &[
            (Add, 0, &u32::wrapping_add),
            (Mul, 1, &u32::wrapping_mul),
            (Max, 0, &u32::max),
        ],
    );
    check_scans(
        |i| int(i) * 1_000_003,
        &[
            (Add, 0, &i64::wrapping_add),
            (Mul, 1, &i64::wrapping_mul),
            (Max, i64::MIN, &i64::max),
        ],
    );
    check_scans(
        |i| (int(i) * 1_000_003) as u64,
        &[
            (Add, 0, &u64::wrapping_add),
            (Mul, 1, &u64::wrapping_mul),
            (Max, 0, &u64::max),
        ],
    );
}

/// Scans from carries, one a run: sums of f32 eighths (exact in any order) and wrapping i32
/// sums and maxima, runs that divide the row, do not, and are longer than it, against the
/// host's scan started from each run's carry.
#[test]
fn scans_from_carries_match_the_host() {
    use ReduceOp::{Add, Max};
    for (rows, len, run) in [
        (3usize, 12usize, 4usize),
        (2, 10, 4),
        (2, 5, 8),
        (4, 1000, 256),
    ] {
        let runs = len.div_ceil(run);
        let carry_of = |r: usize| ((r * 37) % 11) as i64 - 5;
        let xs: Vec<f32> = (0..rows * len)
            .map(|i| ((i * 7919) % 13) as f32 / 8.0 - 0.75)
            .collect();
        let cs: Vec<f32> = (0..rows * runs).map(|r| carry_of(r) as f32 / 4.0).collect();
        let got = Lazy::from_slice(&[rows, len], &xs)
            .unwrap()
            .scan_runs_from(Add, run, &Lazy::from_slice(&[rows, runs], &cs).unwrap())
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        assert_eq!(
            got,
            host_scan_from(&xs, &cs, len, run, |a, b| a + b),
            "f32 sums"
        );
        let xs: Vec<i32> = (0..rows * len)
            .map(|i| ((i * 7919) % 2001) as i32 * 1_000_003)
            .collect();
        let cs: Vec<i32> = (0..rows * runs).map(|r| carry_of(r) as i32 * 999).collect();
        for (op, f) in [
            (Add, &i32::wrapping_add as &dyn Fn(i32, i32) -> i32),
            (Max, &i32::max),
        ] {
            let got = Lazy::from_slice(&[rows, len], &xs)
                .unwrap()
                .scan_runs_from(op, run, &Lazy::from_slice(&[rows, runs], &cs).unwrap())
                .unwrap()
                .to_vec::<i32>()
                .unwrap();
            assert_eq!(got, host_scan_from(&xs, &cs, len, run, f), "i32 {op:?}");
        }
    }
}

/// The host's scan of runs, each run from its carry.
fn host_scan_from<T: Copy>(
    x: &[T],
    carries: &[T],
    len: usize,
    run: usize,
    f: impl Fn(T, T) -> T,
) -> Vec<T> {
    let mut out = Vec::with_capacity(x.len());
    let mut c = carries.iter();
    for row in x.chunks(len) {
        for part in row.chunks(run) {
            let mut acc = *c.next().expect("a carry a run");
            for &v in part {
                acc = f(acc, v);
                out.push(acc);
            }
        }
    }
    out
}

#[test]
fn scan_errors_name_the_mistake() {
    let narrow = Lazy::from_slice(&[3], &[1u8, 2, 3]).unwrap();
    assert!(matches!(
        narrow.scan_runs(ReduceOp::Add, 2),
        Err(Error::DType {
            op: "scan_runs",
            ..
        })
    ));
    let x = Lazy::from_slice(&[3], &[1.0f32, 2.0, 3.0]).unwrap();
    assert!(matches!(
        x.scan_runs(ReduceOp::Max, 2),
        Err(Error::DType {
            op: "scan_runs",
            ..
        })
    ));
    assert!(matches!(
        x.scan_runs(ReduceOp::Add, 0),
        Err(Error::Argument {
            op: "scan_runs",
            ..
        })
    ));
    let too_long = tg_runtime::graph::lazy::MAX_SCAN_RUN + 1;
    assert!(matches!(
        x.scan_runs(ReduceOp::Add, too_long),
        Err(Error::Argument { .. })
    ));
    let scalar = Lazy::constant(1.0f32, DType::F32, &[]).unwrap();
    assert!(matches!(
        scalar.scan_runs(ReduceOp::Add, 2),
        Err(Error::RankTooLow { .. })
    ));
    // runs of one are the values themselves: no node
    assert_eq!(x.scan_runs(ReduceOp::Mul, 1).unwrap().id(), x.id());
    // carries: sums and maxima alone, one a run, in the scan's dtype
    let two = Lazy::from_slice(&[2], &[0.0f32, 1.0]).unwrap();
    assert!(matches!(
        x.scan_runs_from(ReduceOp::Mul, 2, &two),
        Err(Error::Argument {
            op: "scan_runs",
            ..
        })
    ));
    let three = Lazy::from_slice(&[3], &[0.0f32, 1.0, 2.0]).unwrap();
    assert!(matches!(
        x.scan_runs_from(ReduceOp::Add, 2, &three),
        Err(Error::Shape {
            op: "scan_runs",
            ..
        })
    ));
    let ints = Lazy::from_slice(&[2], &[0i32, 1]).unwrap();
    assert!(matches!(
        x.scan_runs_from(ReduceOp::Add, 2, &ints),
        Err(Error::DType {
            op: "scan_runs",
            ..
        })
    ));
}
