//! examples/tinygpt's generation (the `tinygpt` package's `generate` module): a window padded
//! to its bucket gives, at its last real position, the exact window's probabilities and, from
//! the same seed, the same drawn id as the eager sample over the exact window; generating from
//! a one-id prompt past the context records one kernel set per window size, the length being a
//! var of the recording and not a key.
//!
//! A binary of its own: the seeded comparisons need the process-wide random stream to
//! themselves, so every test here takes `STREAM` while it draws (tests/nn's draw freely).

use std::sync::{Mutex, MutexGuard};

use tg::nn::Module;
use tg::prelude::*;

use tinygpt::generate::{bucket, generate, next_padded};
use tinygpt::{Config, Gpt};

const CONFIG: Config = Config {
    vocab: 11,
    context: 32,
    dim: 16,
    heads: 2,
    layers: 2,
};

/// Each test's turn with the process-wide random stream.
static STREAM: Mutex<()> = Mutex::new(());

fn turn() -> MutexGuard<'static, ()> {
    STREAM.lock().unwrap_or_else(|p| p.into_inner())
}

fn ids(len: usize) -> Vec<i32> {
    (0..len as i32).map(|i| (i * 7 + 3) % 11).collect()
}

#[test]
fn a_padded_window_samples_as_the_exact_window() {
    let _turn = turn();
    DynTensor::manual_seed(5);
    let model = Gpt::new(&CONFIG).unwrap();
    let temperature = 0.7f32;
    // lengths in each bucket, at a bucket's edges, and past the context (the window slides)
    for (k, len) in [1usize, 2, 7, 8, 9, 16, 17, 31, 32, 40]
        .into_iter()
        .enumerate()
    {
        let all = ids(len);
        let exact = &all[all.len().saturating_sub(CONFIG.context)..];
        let seed = 100 + k as u32;
        DynTensor::manual_seed(seed);
        let (probs, id) = next_padded(&model, CONFIG.context, &all, temperature).unwrap();
        DynTensor::manual_seed(seed);
        let x = DynTensor::from_slice(&[1, exact.len()], exact).unwrap();
        let want_id = model.sample(&x, temperature as f64).unwrap();

        let logits = model.forward(&x).unwrap().to_vec::<f32>().unwrap();
        let last = &logits[(exact.len() - 1) * 11..exact.len() * 11];
        let top = last.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let e: Vec<f64> = last
            .iter()
            .map(|&l| (((l - top) / temperature) as f64).exp())
            .collect();
        let total: f64 = e.iter().sum();
        let got = probs.to_vec::<f32>().unwrap();
        assert_eq!(got.len(), 11);
        for (v, (&g, &w)) in got.iter().zip(&e).enumerate() {
            let w = w / total;
            assert!(
                (g as f64 - w).abs() <= 1e-5 + 1e-4 * w,
                "length {len}, id {v}: {g} vs {w}"
            );
        }
        assert_eq!(id, want_id.to_vec::<i32>().unwrap()[0], "length {len}");
    }
}

#[test]
fn the_buckets_grow_by_powers_of_two_up_to_the_context() {
    let got: Vec<usize> = [1, 8, 9, 16, 17, 33, 64, 65, 200]
        .iter()
        .map(|&n| bucket(n, 64))
        .collect();
    assert_eq!(got, vec![8, 8, 16, 16, 32, 64, 64, 64, 64]);
    assert_eq!(bucket(5, 4), 4);
}

#[test]
fn generating_past_the_context_records_one_kernel_set_per_window_size() {
    let _turn = turn();
    DynTensor::manual_seed(9);
    let model = Gpt::new(&CONFIG).unwrap();
    let params = model.tensors().unwrap();
    tg::runtime::realize(&params.iter().map(|(_, t)| t.lazy()).collect::<Vec<_>>()).unwrap();
    let before = tg::runtime::thread_stats();
    let out = generate(&model, CONFIG.context, &[4], 50, 0.8).unwrap();
    let after = tg::runtime::thread_stats();
    assert_eq!(out.len(), 50);
    assert!(out.iter().all(|&id| (0..11).contains(&id)), "{out:?}");
    // windows of 1 to 32 ids, then sliding: buckets 8, 16 and 32, one recording each at most
    // (fewer if another test here recorded one first); with the length a key, the 32 lengths
    // would record up to 32. Each window's upload is a schedule of its own: the recordings
    // are the others.
    let recorded = (after.schedules - before.schedules) - (after.uploads - before.uploads);
    assert!(recorded <= 3, "{recorded} recordings");
    // a second run replays them all
    let again = tg::runtime::thread_stats();
    generate(&model, CONFIG.context, &[1, 2, 3], 40, 0.8).unwrap();
    let end = tg::runtime::thread_stats();
    assert_eq!(end.schedules - again.schedules, end.uploads - again.uploads);
}

#[test]
fn an_empty_prompt_is_an_argument_error() {
    let _turn = turn();
    let model = Gpt::new(&CONFIG).unwrap();
    let e = next_padded(&model, CONFIG.context, &[], 1.0).unwrap_err();
    assert!(
        matches!(
            e,
            tg::Error::Argument {
                op: "tinygpt::generate",
                ..
            }
        ),
        "{e:?}"
    );
}
