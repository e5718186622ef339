//! A soak test for `scripts/soak.sh`: for `TG_SOAK_SECONDS` (0 in the default run, which
//! then checks one round), several threads realize reductions of random lengths across the
//! loop budget, each checked exactly, and tg's device memory returns to where it started. In
//! a child process: memory stats are the process's, and the binary's other tests run beside it.

use std::time::{Duration, Instant};

use tg_runtime::device::Device;
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp};

use crate::device_common::run_child;

/// xorshift64*: a seeded sequence of lengths, the same on every run with the same seed.
fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// One round: a sum and a max over `n` small integers (sums stay exact in f32, below 2^24),
/// whole and by rows.
fn round(n: usize, seed: u64) {
    let v: Vec<f32> = (0..n)
        .map(|i| ((i as u64 * 2_654_435_761 + seed) % 4) as f32)
        .collect();
    let x = Lazy::from_slice(&[n], &v).unwrap();
    let sum = x.reduce(ReduceOp::Add, &[0]).unwrap().reshape(&[]).unwrap();
    let want: f64 = v.iter().map(|&a| a as f64).sum();
    assert_eq!(
        sum.to_vec::<f32>().unwrap(),
        vec![want as f32],
        "sum of {n}"
    );
    let rows = if n.is_multiple_of(8) { 8 } else { 1 };
    let m = x
        .reshape(&[rows, n / rows])
        .unwrap()
        .binary(
            BinaryOp::Mul,
            &Lazy::constant(2.0f32, DType::F32, &[rows, n / rows]).unwrap(),
        )
        .unwrap()
        .reduce(ReduceOp::Max, &[1])
        .unwrap();
    let want: Vec<f32> = v
        .chunks(n / rows)
        .map(|c| c.iter().fold(f32::MIN, |a, &b| a.max(2.0 * b)))
        .collect();
    assert_eq!(m.to_vec::<f32>().unwrap(), want, "row max of {n}");
}

#[test]
fn soak() {
    let out = run_child("child_soak", &[]);
    // the child's harness prints its test's name on the same line
    if let Some(at) = out.find("soak: ") {
        println!("{}", out[at..].lines().next().unwrap_or_default());
    }
}

#[test]
#[ignore = "run by soak"]
fn child_soak() {
    let seconds = tg_runtime::config::number(tg_runtime::config::Var::SoakSeconds).unwrap_or(0);
    let device = Device::get().unwrap();
    let before = device.memory_stats().live_bytes;
    let until = Instant::now() + Duration::from_secs(seconds);
    let threads: Vec<_> = (0..4u64)
        .map(|t| {
            std::thread::spawn(move || {
                let mut state = 0x9e37_79b9_7f4a_7c15 ^ (t + 1);
                let mut rounds = 0;
                while rounds == 0 || Instant::now() < until {
                    // 1 to 2^22 elements: most past lavapipe's loop budget in one invocation
                    let n = 1 + (next(&mut state) % (1 << 22)) as usize;
                    round(n, next(&mut state));
                    rounds += 1;
                }
                rounds
            })
        })
        .collect();
    let rounds: u64 = threads.into_iter().map(|t| t.join().unwrap()).sum();
    println!("soak: {rounds} rounds in {seconds} s");
    assert_eq!(
        device.memory_stats().live_bytes,
        before,
        "device memory held after {rounds} rounds"
    );
}
