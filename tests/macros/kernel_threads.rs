//! One `#[kernel]` called from several threads at once, with equal scalar arguments and
//! different inputs: every first call of a round records (the threads race to it), and each
//! thread's result, and the replays after it, are its own inputs' values.

use std::cell::Cell;
use std::sync::Barrier;
use std::time::Duration;

use tg::prelude::*;

const THREADS: usize = 4;

thread_local! {
    /// How long this thread's body pauses before and after its realize (`staged`).
    static PAUSES: Cell<(Duration, Duration)> = const { Cell::new((Duration::ZERO, Duration::ZERO)) };
}

/// A step of the body that realizes its value (a layer may), pausing before and after as
/// this thread is told: a test staggers its threads so that one realizes the shared node
/// while the others hold it unrealized, and the others finish their recordings first.
fn staged(x: &Tensor<shape![3, 8]>, scale: &Tensor<shape![1, 8]>) -> Tensor<shape![3, 8]> {
    let (before, after) = PAUSES.with(Cell::get);
    let h = x.clone() * scale.expand::<shape![3, 8]>();
    std::thread::sleep(before);
    h.realize().unwrap();
    std::thread::sleep(after);
    h
}

/// `colsum(w)` is a value of the weights alone: threads with the same weights build the
/// same node, realized as its own kernel. `slope` keys the recordings (a scalar used other
/// than as an operand), so each round records anew with the kernels already compiled.
#[kernel]
fn column_scaled(
    x: Tensor<shape![3, 8]>,
    w: Tensor<shape![4, 8]>,
    k: f32,
    slope: f32,
) -> Tensor<shape![3, 8]> {
    let scale = w.sum(0, true) * k;
    let h: Tensor<shape![3, 8]> = staged(&x, &scale);
    h.leaky_relu(slope)
}

fn reference(x: &[f32], w: &[f32], k: f32, slope: f32) -> Vec<f32> {
    (0..24)
        .map(|i| {
            let c = i % 8;
            let sum: f32 = (0..4).map(|r| w[r * 8 + c]).sum();
            let v = x[i] * (sum * k);
            if v >= 0.0 { v } else { v * slope }
        })
        .collect()
}

fn data(len: usize, seed: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * 7 + seed * 13) as f32 * 0.37).sin())
        .collect()
}

/// One call of the kernel, checked; `what` names it in the message.
fn call(
    x: &[f32],
    w: &Tensor<Rank2<4, 8>>,
    wd: &[f32],
    k: f32,
    slope: f32,
    what: &str,
) -> Result<(), String> {
    let xt = Tensor::<Rank2<3, 8>>::from_slice(x).map_err(|e| e.to_string())?;
    let got = column_scaled(xt, w.clone(), k, slope)
        .to_vec()
        .map_err(|e| format!("{what}: {e}"))?;
    let want = reference(x, wd, k, slope);
    if got.iter().zip(&want).all(|(a, b)| (a - b).abs() <= 1e-5) {
        Ok(())
    } else {
        Err(format!("{what}: {got:?}, want {want:?}"))
    }
}

/// Rounds of racing first calls; `shared` gives every thread the same weights (one tensor,
/// as threads sharing a model's parameters), else each its own.
fn race(shared: bool) {
    let rounds = if std::env::var("TG_LONG_TESTS").is_ok_and(|v| v == "1") {
        400
    } else {
        24
    };
    let wd = data(32, 0);
    let w = Tensor::<Rank2<4, 8>>::from_slice(&wd).unwrap();
    w.realize().unwrap();
    let start = Barrier::new(THREADS);
    // failures are collected, not panicked on, so every thread keeps meeting the barrier
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let (w, wd, start) = (&w, &wd, &start);
                s.spawn(move || {
                    let own_wd = data(32, 1000 + t);
                    let own_w = Tensor::<Rank2<4, 8>>::from_slice(&own_wd).unwrap();
                    let (w, wd) = if shared { (w, wd) } else { (&own_w, &own_wd) };
                    let w2d: Vec<f32> = wd.iter().map(|v| v * 3.0 - 1.0).collect();
                    let w2 = Tensor::<Rank2<4, 8>>::from_slice(&w2d).unwrap();
                    let mut failures = Vec::new();
                    for round in 0..rounds {
                        // the two tests' slopes differ, so each replays its own recordings
                        let slope = 0.01 * (round + 1) as f32 + if shared { 0.0 } else { 0.5 };
                        let seed = (round * THREADS + t) * 3;
                        let name = |what: &str| format!("thread {t} round {round}: {what}");
                        // odd rounds staggered: thread 0 realizes the shared node first and
                        // finishes last, so the first recording kept is another thread's
                        let ms = Duration::from_millis;
                        let pauses = match (round % 2, t) {
                            (0, _) => (Duration::ZERO, Duration::ZERO),
                            (_, 0) => (Duration::ZERO, ms(6)),
                            _ => (ms(2), Duration::ZERO),
                        };
                        PAUSES.with(|p| p.set(pauses));
                        start.wait();
                        let calls = [
                            (seed, w, wd, 2.0, "the racing first call"),
                            (seed + 1, w, wd, 2.0, "a replay"),
                            (seed + 2, &w2, &w2d, -0.5, "a replay on new weights and k"),
                        ];
                        for (seed, w, wd, k, what) in calls {
                            if let Err(e) = call(&data(24, seed), w, wd, k, slope, &name(what)) {
                                failures.push(e);
                            }
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn threads_sharing_weights_race_to_record_a_kernel() {
    race(true);
}

#[test]
fn threads_with_their_own_weights_race_to_record_a_kernel() {
    race(false);
}
