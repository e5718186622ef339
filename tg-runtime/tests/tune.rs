//! The tile search (`TG_TUNE`): it runs only when asked, checks every candidate against the
//! default bit for bit, keeps its choice in the cache folder, and a later process uses the
//! choice without searching. The children are this test binary, re-run with the variables.

use std::process::Command;

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
    for s in &searches {
        println!("{}", tune::describe(s));
        let timed = s.trials.iter().filter(|t| t.ns.is_some()).count();
        assert!(timed >= 2, "{}", tune::describe(s));
        assert!(matches!(s.chosen, Strategy::Tile { .. }));
    }
    println!("SEARCHES={} MODE={:?}", searches.len(), tune::mode());
}

/// Runs the child with `TG_TUNE` set to `mode` (unset with `None`) and the cache in `dir`;
/// returns how many searches it ran.
fn child(dir: &std::path::Path, mode: Option<&str>) -> usize {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "--exact",
        "child_matmul",
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ])
    .env("TG_CACHE_DIR", dir)
    .env_remove("TG_TUNE");
    if let Some(mode) = mode {
        cmd.env("TG_TUNE", mode);
    }
    let out = cmd.output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{text}");
    let at = text.find("SEARCHES=").unwrap_or_else(|| panic!("{text}"));
    text[at + 9..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn a_search_runs_once_and_its_choice_is_kept() {
    let dir = std::env::temp_dir().join(format!("tg-tune-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(child(&dir, None), 0, "no search unless asked");
    assert_eq!(child(&dir, Some("cached")), 0, "cached never searches");
    assert_eq!(child(&dir, Some("1")), 1, "the matmul's class is searched");
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
