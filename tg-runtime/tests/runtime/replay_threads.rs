//! Recordings made on several threads at once, of the same body with equal scalars and
//! shared weights: each records only what it computed, so a replay on new inputs, new
//! weights or rebound vars computes from them, whichever thread computed a shared node first.

use std::sync::Barrier;

use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, Scalar, record};

const ROWS: usize = 4;
const COLS: usize = 8;
/// The var the bodies scale by (a `#[kernel]`'s scalar argument).
const VAR: u64 = 0x7467_0002;

/// y = x * (colsum(w) * s): `colsum(w) * s` is a value of the weights and the var alone, so
/// threads with the same weights and an equal `s` build the same node, realized on its own.
/// `meet` runs between building it and realizing it: where a test lines the threads up.
fn body(x: &Lazy, w: &Lazy, s: f32, meet: impl FnOnce()) -> tg_runtime::Result<Vec<Lazy>> {
    let scale = w
        .reduce(ReduceOp::Add, &[0])?
        .reshape(&[COLS])?
        .binary(BinaryOp::Mul, &Lazy::var(VAR, s, DType::F32, &[COLS])?)?;
    meet();
    scale.realize()?;
    let y = x.binary(
        BinaryOp::Mul,
        &scale.reshape(&[1, COLS])?.expand(&[ROWS, COLS])?,
    )?;
    Ok(vec![y])
}

fn reference(x: &[f32], w: &[f32], s: f32) -> Vec<f32> {
    (0..ROWS * COLS)
        .map(|i| {
            let c = i % COLS;
            let sum: f32 = (0..ROWS).map(|r| w[r * COLS + c]).sum();
            x[i] * (sum * s)
        })
        .collect()
}

fn data(seed: usize) -> Vec<f32> {
    (0..ROWS * COLS)
        .map(|i| ((i * 7 + seed * 13) as f32 * 0.37).sin())
        .collect()
}

/// Checks `got` against the reference; the message names what was computed.
fn check(got: &Lazy, x: &[f32], w: &[f32], s: f32, what: &str) -> Result<(), String> {
    let got = got.to_vec::<f32>().map_err(|e| format!("{what}: {e}"))?;
    let want = reference(x, w, s);
    if got.iter().zip(&want).all(|(a, b)| (a - b).abs() <= 1e-5) {
        Ok(())
    } else {
        Err(format!("{what}: {got:?}, want {want:?}"))
    }
}

/// Records the body on `x` with the shared `w` (an input of the recording, as a `#[kernel]`
/// passes its weights), then replays it on new inputs, new weights and a rebound var.
fn record_and_replay(
    thread: usize,
    w: &Lazy,
    w_data: &[f32],
    meet: impl FnOnce(),
) -> Result<(), String> {
    let x_data = data(thread + 1);
    let x = Lazy::from_slice(&[ROWS, COLS], &x_data).unwrap();
    let (outs, rec) = record(&[&x, w], || body(&x, w, 2.0, meet)).map_err(|e| e.to_string())?;
    check(&outs[0], &x_data, w_data, 2.0, "the recorded call")?;
    let x2_data = data(thread + 100);
    let x2 = Lazy::from_slice(&[ROWS, COLS], &x2_data).unwrap();
    let w2_data: Vec<f32> = w_data.iter().map(|v| v * 3.0 - 1.0).collect();
    let w2 = Lazy::from_slice(&[ROWS, COLS], &w2_data).unwrap();
    let outs = rec
        .replay_with(&[&x2, &w2], &[(VAR, Scalar::Float(5.0))])
        .map_err(|e| e.to_string())?;
    check(
        &outs[0],
        &x2_data,
        &w2_data,
        5.0,
        "a replay on new inputs, weights and var",
    )
}

/// Every thread builds the shared `colsum(w) * s` before any realizes it; then one thread
/// (the leader: recording, or an eager thread that is not) realizes it, and only then do
/// the others. A recording must not read the leader's buffer as a fixed one: its replays
/// would return the leader's colsum whatever weights and var they are given.
fn leader_realizes_a_shared_node_first(leader_records: bool) {
    let threads = 4;
    let w_data = data(0);
    let w = Lazy::from_slice(&[ROWS, COLS], &w_data).unwrap();
    w.realize().unwrap();
    let built = Barrier::new(threads);
    let realized = Barrier::new(threads);
    let results: Vec<Result<(), String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (w, w_data, built, realized) = (&w, &w_data, &built, &realized);
                s.spawn(move || {
                    let result = if t == 0 && !leader_records {
                        let x_data = data(1);
                        let x = Lazy::from_slice(&[ROWS, COLS], &x_data).unwrap();
                        body(&x, w, 2.0, || {
                            built.wait();
                        })
                        .map_err(|e| e.to_string())
                        .and_then(|outs| check(&outs[0], &x_data, w_data, 2.0, "eager"))
                    } else {
                        record_and_replay(t, w, w_data, || {
                            built.wait();
                            if t != 0 {
                                // the leader has realized the shared node by now
                                realized.wait();
                            }
                        })
                    };
                    if t == 0 {
                        realized.wait();
                    }
                    result.map_err(|e| format!("thread {t}: {e}"))
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let failures: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_shared_node_another_recording_realizes_first_is_computed_by_each() {
    leader_realizes_a_shared_node_first(true);
}

#[test]
fn a_shared_node_an_eager_thread_realizes_first_is_computed_by_the_recordings() {
    leader_realizes_a_shared_node_first(false);
}
