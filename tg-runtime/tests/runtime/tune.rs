//! The tile search (`TG_TUNE`): it runs only when asked, checks every candidate against the
//! default bit for bit, keeps its choice in the cache folder, and a later process uses the
//! choice without searching. The children are this test binary, re-run with the variables
//! (`device_common::run_child`).

use crate::device_common::{child_value, run_child, temp_dir};
use tg_runtime::codegen::program::Strategy;
use tg_runtime::tune;
use tg_runtime::{BinaryOp, Lazy, ReduceOp};

/// A matmul of (n, k) by (k, m), checked against the host.
fn matmul_checked(n: usize, k: usize, m: usize) {
    let a: Vec<f32> = (0..n * k)
        .map(|i| ((i * 7919) % 61) as f32 / 61.0 - 0.5)
        .collect();
    let b: Vec<f32> = (0..k * m)
        .map(|i| ((i * 104_729) % 53) as f32 / 53.0 - 0.5)
        .collect();
    let la = Lazy::from_slice(&[n, k, 1], &a).unwrap();
    let lb = Lazy::from_slice(&[1, k, m], &b).unwrap();
    let c = la
        .expand(&[n, k, m])
        .unwrap()
        .binary(BinaryOp::Mul, &lb.expand(&[n, k, m]).unwrap())
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    for i in 0..n {
        for j in 0..m {
            let want: f64 = (0..k)
                .map(|l| f64::from(a[i * k + l]) * f64::from(b[l * m + j]))
                .sum();
            let got = f64::from(c[i * m + j]);
            assert!(
                (got - want).abs() <= 1e-4,
                "c[{i},{j}] = {got}, want {want}"
            );
        }
    }
}

#[test]
#[ignore = "run by a_search_runs_once_and_its_choice_is_kept"]
fn child_matmul() {
    matmul_checked(256, 192, 128);
    let searches = tune::searches();
    let mut timed = 0;
    for s in &searches {
        println!("{}", tune::describe(s));
        timed += s.trials.iter().filter(|t| t.ns.is_some()).count();
        assert!(matches!(s.chosen, Strategy::Tile { .. }));
    }
    println!(
        "SEARCHES={} TIMED={timed} MODE={:?}",
        searches.len(),
        tune::mode()
    );
}

/// Runs the child with `TG_TUNE` set to `mode` (empty, which is unset, with `None`), the
/// cache in `dir` and the variables `env`; returns how many searches it ran and how many
/// candidates it timed.
fn child_with(dir: &std::path::Path, mode: Option<&str>, env: &[(&str, &str)]) -> (usize, usize) {
    let dir = dir.to_str().expect("temp dir path");
    let mut vars = vec![("TG_CACHE_DIR", dir), ("TG_TUNE", mode.unwrap_or(""))];
    vars.extend_from_slice(env);
    let out = run_child("child_matmul", &vars);
    let field = |k: &str| child_value(&out, k).parse().expect("a count");
    (field("SEARCHES"), field("TIMED"))
}

/// [`child_with`], returning how many searches ran.
fn child(dir: &std::path::Path, mode: Option<&str>) -> usize {
    child_with(dir, mode, &[]).0
}

#[test]
fn a_search_runs_once_and_its_choice_is_kept() {
    let dir = temp_dir("tune");
    assert_eq!(child(&dir, None), 0, "no search unless asked");
    assert_eq!(child(&dir, Some("cached")), 0, "cached never searches");
    let (searches, timed) = child_with(&dir, Some("1"), &[]);
    assert_eq!(searches, 1, "the matmul's class is searched");
    assert!(timed >= 2, "{timed} candidates timed");
    let file = std::fs::read_to_string(dir.join(tune::cache::FILE)).unwrap();
    assert_eq!(file.lines().count(), 1, "{file}");
    assert!(file.contains(" tile "), "{file}");
    assert_eq!(
        child(&dir, Some("1")),
        0,
        "the cache file answers a new process"
    );
    assert_eq!(child(&dir, Some("cached")), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where nothing may compile (`TG_BUNDLE_ONLY`, as a build without the compiler), a search
/// times the candidates the bundle holds (here the default alone) and keeps a choice.
#[test]
fn a_search_without_the_compiler_times_what_the_bundles_hold() {
    let dir = temp_dir("tune-bundle");
    let bundle = dir.join("kernels.tgb");
    let bundle = bundle.to_str().unwrap();
    let cache = dir.join("cache");
    child_with(&cache, None, &[("TG_BUNDLE_RECORD", bundle)]);
    let only = [("TG_BUNDLE", bundle), ("TG_BUNDLE_ONLY", "1")];
    let (searches, timed) = child_with(&cache, Some("1"), &only);
    assert_eq!(
        (searches, timed),
        (1, 1),
        "the default alone is in the bundle"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
