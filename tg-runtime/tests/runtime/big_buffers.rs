//! Tensors larger than one storage-buffer binding's range (`maxStorageBufferRange`, 128 MiB on
//! lavapipe): kernels reach them through buffer device addresses. The default run adds, sums
//! and reduces rows of 132 MiB tensors and writes windows of rows into one; `TG_LONG_TESTS=1`
//! runs an add, a sum, a softmax over rows and a matrix-vector product on 512 MiB tensors,
//! and a window write of 2^26 + 2^22 elements.

use tg_runtime::device::Device;
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, UnaryOp};

use crate::device_common::row_shares;

fn long_tests() -> bool {
    tg_runtime::config::switch(tg_runtime::config::Var::LongTests)
}

/// Small integers, so sums are exact in f32 below 2^24 per output.
fn values(n: usize, modulo: usize) -> Vec<f32> {
    (0..n).map(|i| ((i * 13 + 5) % modulo) as f32).collect()
}

fn past_the_range(bytes: u64) -> Option<&'static Device> {
    let device = Device::get().unwrap();
    let info = device.info();
    if !info.buffer_device_address {
        eprintln!("skipped: {} has no buffer device addresses", info.name);
        return None;
    }
    assert!(
        bytes > info.max_storage_buffer_range,
        "the test must pass the range"
    );
    Some(device)
}

fn add_and_sum(n: usize) {
    let a = values(n, 7);
    let b = values(n, 5);
    let la = Lazy::from_slice(&[n], &a).unwrap();
    let lb = Lazy::from_slice(&[n], &b).unwrap();
    let sum = la.binary(BinaryOp::Add, &lb).unwrap();
    sum.realize().unwrap();
    let got = sum.to_vec::<f32>().unwrap();
    for i in [0, 1, n / 3, n / 2 + 7, n - 2, n - 1] {
        assert_eq!(got[i], a[i] + b[i], "add at {i}");
    }
    let rows = 64;
    let by_row = la
        .reshape(&[rows, n / rows])
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    for (r, got) in by_row.iter().enumerate() {
        let want: f64 = a[r * (n / rows)..(r + 1) * (n / rows)]
            .iter()
            .map(|&v| v as f64)
            .sum();
        assert_eq!(*got as f64, want, "row {r}");
    }
    let whole = la
        .reduce(ReduceOp::Max, &[0])
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert_eq!(whole, vec![6.0]);
}

/// Writes `value` (`[outer, len, 4]`, from `rows`) at `start` into a parameter holding
/// `init` (`[outer, cap, 4]`) and checks the rows at `at` (and each row's neighbours)
/// against numpy's slice assignment, done on the host.
fn window_write(outer: usize, cap: usize, rows: &[f32], start: usize, at: &[usize]) {
    let len = rows.len() / (4 * outer);
    let init = values(outer * cap * 4, 11);
    let target = Lazy::parameter(&Lazy::from_slice(&[outer, cap, 4], &init).unwrap()).unwrap();
    let value = Lazy::from_slice(&[outer, len, 4], rows).unwrap();
    let s = Lazy::constant(start as u32, DType::U32, &[]).unwrap();
    let got = target
        .assign_window(1, &s, &value)
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    for o in 0..outer {
        for &r in at {
            for row in r.saturating_sub(1)..(r + 2).min(cap) {
                let want = match row.checked_sub(start) {
                    Some(t) if t < len => &rows[(o * len + t) * 4..][..4],
                    _ => &init[(o * cap + row) * 4..][..4],
                };
                assert_eq!(&got[(o * cap + row) * 4..][..4], want, "[{o}, {row}]");
            }
        }
    }
}

/// Window writes into a target past one binding's range: three rows at its end (the last
/// past it, dropped) and at its start, stored through the buffer's address.
#[test]
fn window_writes_past_one_bindings_range() {
    let cap = (1 << 22) + (1 << 17); // [2, cap, 4]: 132 MiB of f32
    if past_the_range(32 * cap as u64).is_none() {
        return;
    }
    let rows: Vec<f32> = (0..24).map(|i| -(i as f32) - 1.0).collect();
    window_write(2, cap, &rows, cap - 2, &[0, cap - 3, cap - 1]);
    window_write(2, cap, &rows, 0, &[0, 2, 3, cap - 1]);
}

/// A window of 2^26 + 2^22 elements (285 MB of f32), past 2^24 and 2^26: its vectors' group
/// index and every store index past f32's exact integers, into a target past one binding's
/// range.
#[test]
fn a_window_write_of_past_two_to_the_26_elements() {
    if !long_tests() {
        return;
    }
    let len = (1 << 24) + (1 << 20);
    let cap = len + 16;
    if past_the_range(16 * cap as u64).is_none() {
        return;
    }
    let rows = values(4 * len, 5);
    window_write(1, cap, &rows, 9, &[0, 9, len / 2, len + 8, cap - 1]);
}

#[test]
fn tensors_past_one_bindings_range() {
    let n = (1 << 25) + (1 << 20); // 132 MiB of f32
    if past_the_range(4 * n as u64).is_none() {
        return;
    }
    add_and_sum(n);
}

#[test]
fn add_sum_softmax_and_matvec_on_512_mib() {
    if !long_tests() {
        return;
    }
    let n = 128 << 20; // 512 MiB of f32
    if past_the_range(4 * n as u64).is_none() {
        return;
    }
    add_and_sum(n);
    // softmax over rows of 2^20: each row sums to 1
    let (rows, cols) = (128, 1 << 20);
    let x = Lazy::from_slice(&[rows, cols], &values(n, 9)).unwrap();
    let m = x
        .reduce(ReduceOp::Max, &[1])
        .unwrap()
        .expand(&[rows, cols])
        .unwrap();
    let log2e = Lazy::constant(std::f32::consts::LOG2_E, DType::F32, &[rows, cols]).unwrap();
    let e = x
        .binary(BinaryOp::Add, &m.unary(UnaryOp::Neg).unwrap())
        .unwrap()
        .binary(BinaryOp::Mul, &log2e)
        .unwrap()
        .unary(UnaryOp::Exp2)
        .unwrap();
    let soft = row_shares(&e);
    soft.realize().unwrap();
    let sums = soft
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    assert!(sums.iter().all(|s| (s - 1.0).abs() < 1e-3), "{sums:?}");
    drop((soft, e, x));
    // a matrix-vector product: [16384, 8192] x [8192]
    let (r, c) = (16384, 8192);
    let mat = Lazy::from_slice(&[r, c], &values(r * c, 3)).unwrap();
    let v: Vec<f32> = (0..c).map(|j| (j % 2) as f32).collect();
    let vec = Lazy::from_slice(&[1, c], &v)
        .unwrap()
        .expand(&[r, c])
        .unwrap();
    let y = mat
        .binary(BinaryOp::Mul, &vec)
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let m = values(r * c, 3);
    for i in [0, 1, r / 2, r - 1] {
        let want: f64 = (0..c).map(|j| m[i * c + j] as f64 * v[j] as f64).sum();
        assert_eq!(y[i] as f64, want, "row {i}");
    }
}
