//! The `tg-bundle` binary on files made with tg-runtime's bundle API (no device needed).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use tg_runtime::bundle::Bundle;

const SPIRV_MAGIC: u32 = 0x0723_0203;

fn tool(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tg-bundle"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run tg-bundle")
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tg-bundle-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn one(key: u128, name: &str, extra: u32) -> Bundle {
    let mut b = Bundle::new();
    let words: Arc<[u32]> = vec![SPIRV_MAGIC, extra].into();
    b.insert(key, name, words);
    b
}

#[test]
fn list_and_merge() {
    let dir = scratch("merge");
    one(1, "E_4_float32", 10).write(&dir.join("a.tgb")).unwrap();
    one(2, "R_16_float32", 20)
        .write(&dir.join("b.tgb"))
        .unwrap();
    one(1, "E_4_float32", 10)
        .write(&dir.join("out.tgb"))
        .unwrap();

    let out = tool(&["merge", "out.tgb", "a.tgb", "b.tgb"], &dir);
    assert!(out.status.success(), "{}", text(&out));
    let merged = Bundle::from_file(&dir.join("out.tgb")).unwrap();
    assert_eq!(merged.len(), 2);
    assert_eq!(merged.get(2).unwrap().name, "R_16_float32");

    let out = tool(&["list", "out.tgb"], &dir);
    assert!(out.status.success(), "{}", text(&out));
    let listed = text(&out);
    assert!(listed.contains("2 kernel(s)"), "{listed}");
    assert!(
        listed.contains(&format!("{:032x}       2 R_16_float32", 2)),
        "{listed}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_damaged_file_is_an_error() {
    let dir = scratch("damaged");
    std::fs::write(dir.join("bad.tgb"), b"not a bundle").unwrap();
    let out = tool(&["list", "bad.tgb"], &dir);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("not a valid tg SPIR-V bundle"),
        "{}",
        text(&out)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn record_runs_the_command_with_an_absolute_record_path() {
    let dir = scratch("record");
    let script = "printf %s \"$TG_BUNDLE_RECORD\" > seen.txt";
    let out = tool(&["record", "k.tgb", "--", "sh", "-c", script], &dir);
    assert!(out.status.success(), "{}", text(&out));
    let seen = std::fs::read_to_string(dir.join("seen.txt")).unwrap();
    assert_eq!(Path::new(&seen), dir.join("k.tgb"));
    assert!(
        text(&out).contains("holds 0 kernel(s), 0 new"),
        "{}",
        text(&out)
    );

    let out = tool(&["record", "k.tgb", "--", "sh", "-c", "exit 3"], &dir);
    assert!(!out.status.success());
    assert!(text(&out).contains("failed"), "{}", text(&out));

    let out = tool(&["record", "k.tgb", "sh"], &dir);
    assert!(!out.status.success());
    assert!(text(&out).contains("usage"), "{}", text(&out));
    let _ = std::fs::remove_dir_all(dir);
}
