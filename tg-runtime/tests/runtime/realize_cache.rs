//! Realizing a graph again compiles nothing: the second time in a process (memory cache) and
//! in a new process (disk cache in TG_CACHE_DIR). The children are this test binary, re-run
//! (`device_common::run_child`).

use crate::device_common::{child_value, run_child, temp_dir};
use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, UnaryOp, thread_stats};

/// A graph with a constant no other test uses, so its kernels are new to a fresh cache.
fn graph() -> Lazy {
    let x = Lazy::from_slice(&[3, 5], &(0..15).map(|i| i as f32).collect::<Vec<_>>()).unwrap();
    let k = Lazy::constant(0.123_456_7f32, DType::F32, &[3, 5]).unwrap();
    x.binary(BinaryOp::Mul, &k)
        .unwrap()
        .unary(UnaryOp::Sin)
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
}

fn compiles_of_one_realize() -> (u64, Vec<f32>) {
    let before = thread_stats().compiles;
    let v = graph().to_vec::<f32>().unwrap();
    (thread_stats().compiles - before, v)
}

#[test]
#[ignore = "run by realizing_again_compiles_nothing"]
fn child_realize() {
    let (first, v1) = compiles_of_one_realize();
    let (second, v2) = compiles_of_one_realize();
    assert_eq!(v1, v2);
    println!("FIRST={first} SECOND={second}");
}

fn child(cache: &std::path::Path) -> (u64, u64) {
    let cache = cache.to_str().expect("temp dir path");
    let out = run_child("child_realize", &[("TG_CACHE_DIR", cache)]);
    let field = |k: &str| child_value(&out, k).parse().expect("a count");
    (field("FIRST"), field("SECOND"))
}

#[test]
fn realizing_again_compiles_nothing() {
    let dir = temp_dir("realize-cache");
    let (first, second) = child(&dir);
    assert!(first >= 1, "a fresh cache compiles the kernel");
    assert_eq!(
        second, 0,
        "the same graph again in one process compiles nothing"
    );
    let (first, second) = child(&dir);
    assert_eq!(
        (first, second),
        (0, 0),
        "a new process finds the kernels in the disk cache"
    );
    assert!(std::fs::read_dir(&dir).unwrap().count() > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Outputs of one realize that are kernels of different structures (two reductions over
/// different axes and lengths, a max, an elementwise chain), with constants no other test
/// uses, and their values computed on the host.
fn several_kernels() -> (Vec<Lazy>, Vec<Vec<f32>>) {
    let (r, c) = (6, 7);
    let xs: Vec<f32> = (0..r * c).map(|i| (i as f32 * 0.37).sin()).collect();
    let x = Lazy::from_slice(&[r, c], &xs).unwrap();
    let k = Lazy::constant(0.765_432_1f32, DType::F32, &[r, c]).unwrap();
    let scaled = x.binary(BinaryOp::Mul, &k).unwrap();
    let outs = vec![
        scaled.reduce(ReduceOp::Add, &[0]).unwrap(),
        scaled.reduce(ReduceOp::Add, &[1]).unwrap(),
        x.reduce(ReduceOp::Max, &[1]).unwrap(),
        scaled.unary(UnaryOp::Exp2).unwrap(),
    ];
    let at = |i: usize, j: usize| xs[i * c + j] * 0.765_432_1;
    let want = vec![
        (0..c).map(|j| (0..r).map(|i| at(i, j)).sum()).collect(),
        (0..r).map(|i| (0..c).map(|j| at(i, j)).sum()).collect(),
        (0..r)
            .map(|i| (0..c).map(|j| xs[i * c + j]).fold(f32::MIN, f32::max))
            .collect(),
        (0..r * c).map(|f| at(f / c, f % c).exp2()).collect(),
    ];
    (outs, want)
}

#[test]
#[ignore = "run by kernels_new_to_a_realize_are_prepared_together"]
fn child_several() {
    let (outs, want) = several_kernels();
    let (kernels, shaderc) = (
        thread_stats().compiles,
        tg_runtime::compile::compile_count(),
    );
    tg_runtime::realize(&outs.iter().collect::<Vec<_>>()).unwrap();
    let kernels = thread_stats().compiles - kernels;
    let shaderc = tg_runtime::compile::compile_count() - shaderc;
    for (o, w) in outs.iter().zip(&want) {
        let got = o.to_vec::<f32>().unwrap();
        assert_eq!(got.len(), w.len());
        for (a, b) in got.iter().zip(w) {
            assert!((a - b).abs() <= 1e-5 * (1.0 + b.abs()), "{got:?} vs {w:?}");
        }
    }
    println!("KERNELS={kernels} SHADERC={shaderc}");
}

/// The kernels a realize has not prepared before are compiled on several threads at once
/// (`prepare::prepare_each`): the values are right, and the kernels the realize counts as
/// compiled are exactly the times shaderc ran, however the threads interleaved.
#[test]
fn kernels_new_to_a_realize_are_prepared_together() {
    let dir = temp_dir("several-kernels");
    let out = run_child("child_several", &[("TG_CACHE_DIR", dir.to_str().unwrap())]);
    let field = |k: &str| -> u64 { child_value(&out, k).parse().expect("a count") };
    assert!(field("KERNELS") >= 3, "{out}");
    assert_eq!(field("KERNELS"), field("SHADERC"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
