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
