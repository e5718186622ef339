//! SPIR-V bundles on the device: kernels recorded by one process run in another that may not
//! compile (`TG_BUNDLE_ONLY`, as a build without the compiler), a missing kernel is an error
//! naming it and its key, and a damaged bundle is refused at the first kernel.
//!
//! The environment variables are read once per process, so each setting runs in a child
//! process (an `#[ignore]`d test of this binary, see `device_common::run_child`).

use crate::device_common::{AXPB, axpb, child_value, run_child, temp_dir, upload};
use tg_runtime::bundle::{self, Bundle};
use tg_runtime::compile::{Opt, ShaderCache, compile_count};
use tg_runtime::device::{Device, KernelLayout};
use tg_runtime::{BinaryOp, Error, Lazy, ReduceOp, UnaryOp, thread_stats};

fn data() -> Vec<f32> {
    (0..32).map(|i| i as f32 / 8.0 - 2.0).collect()
}

/// Row sums of squares of a [4, 8] input: the program the bundle is recorded for.
fn squares() -> Lazy {
    let x = Lazy::from_slice(&[4, 8], &data()).unwrap();
    x.binary(BinaryOp::Mul, &x)
        .unwrap()
        .reduce(ReduceOp::Add, &[1])
        .unwrap()
}

fn squares_expected() -> Vec<f32> {
    data()
        .chunks(8)
        .map(|row| row.iter().map(|v| v * v).sum())
        .collect()
}

/// A program the bundle was not recorded for.
fn sines() -> Lazy {
    Lazy::from_slice(&[4, 8], &data())
        .unwrap()
        .unary(UnaryOp::Sin)
        .unwrap()
}

#[test]
fn a_bundle_only_cache_runs_installed_kernels() {
    let source = format!("{AXPB}// a_bundle_only_cache_runs_installed_kernels\n");
    let words = ShaderCache::new(None).compile(&source).unwrap();
    let mut b = Bundle::new();
    assert!(b.insert(bundle::key(&source, Opt::from_env()), "axpb", words.clone()));
    let bytes = b.to_bytes();
    assert_eq!(&bytes[..8], b"TGBUNDLE");
    bundle::install(Bundle::from_bytes(&bytes, "test").unwrap());

    let cache = ShaderCache::new(None).bundle_only();
    let found = cache.compile_named("axpb", &source).unwrap();
    assert_eq!(found, words);
    assert_eq!(cache.compiles(), 0);

    // The bundled SPIR-V runs.
    let device = Device::get().unwrap();
    let layout = KernelLayout {
        bindings: 2,
        texels: 0,
        push_constant_bytes: 12,
    };
    let pipeline = device.pipeline(0xb0d1e, &found, layout).unwrap();
    let x = upload(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    let y = device.alloc(16).unwrap();
    device
        .execute(&[axpb(&pipeline, &x, &y, 4, 2.0, 0.5)], false)
        .unwrap();
    assert_eq!(
        crate::device_common::download(&y).unwrap(),
        [2.5, 4.5, 6.5, 8.5]
    );
}

#[test]
fn a_missing_kernel_names_itself_and_its_key() {
    let source = format!("{AXPB}// a_missing_kernel_names_itself_and_its_key\n");
    let cache = ShaderCache::new(None).bundle_only();
    let key = bundle::key(&source, Opt::from_env());
    match cache.compile_named("E_mine", &source) {
        Err(Error::KernelNotInBundle {
            kernel,
            key: missed,
            compiler,
            ..
        }) => {
            assert_eq!(kernel, "E_mine");
            assert_eq!(missed, format!("{key:032x}"));
            assert_eq!(compiler, tg_runtime::compile::HAS_COMPILER);
        }
        other => panic!("expected KernelNotInBundle, got {other:?}"),
    }
    assert_eq!(cache.compiles(), 0);

    // The miss is not remembered: once a bundle has the kernel, the same cache finds it.
    let words = ShaderCache::new(None).compile(&source).unwrap();
    let mut b = Bundle::new();
    b.insert(key, "E_mine", words.clone());
    bundle::install(b);
    assert_eq!(cache.compile_named("E_mine", &source).unwrap(), words);
}

#[test]
fn the_key_follows_source_and_flags() {
    let a = bundle::key("void main() {}", Opt::Zero);
    assert_eq!(a, bundle::key("void main() {}", Opt::Zero));
    assert_ne!(a, bundle::key("void main() { }", Opt::Zero));
    assert_ne!(a, bundle::key("void main() {}", Opt::Performance));
}

#[test]
fn recorded_kernels_run_without_compiling() {
    let dir = temp_dir("bundle");
    let file = dir.join("kernels.tgb");
    let file_s = file.to_str().unwrap();

    let out = run_child(
        "child_record",
        &[("TG_BUNDLE_RECORD", file_s), ("TG_CACHE_DIR", "off")],
    );
    let kernels: usize = child_value(&out, "kernels").parse().unwrap();
    let recorded = Bundle::from_file(&file).unwrap();
    assert!(kernels >= 1);
    assert_eq!(recorded.len(), kernels, "one entry per kernel compiled");
    for (_, entry) in recorded.entries() {
        assert!(!entry.name.is_empty());
        assert_eq!(entry.words[0], 0x0723_0203);
    }

    // A second recording run adds nothing: the file was read back and the keys are the same.
    run_child(
        "child_record",
        &[("TG_BUNDLE_RECORD", file_s), ("TG_CACHE_DIR", "off")],
    );
    assert_eq!(Bundle::from_file(&file).unwrap().len(), kernels);

    let only = [
        ("TG_BUNDLE", file_s),
        ("TG_BUNDLE_ONLY", "1"),
        ("TG_CACHE_DIR", "off"),
    ];
    let out = run_child("child_replay", &only);
    assert_eq!(child_value(&out, "compiles"), "0");

    let out = run_child("child_miss", &only);
    assert!(!child_value(&out, "missing").is_empty());

    std::fs::write(&file, b"TGBUNDLE\x01\0\0\0").unwrap();
    run_child("child_damaged", &only);
    // Recording into a file that is not a bundle is refused, never overwritten.
    run_child(
        "child_damaged",
        &[("TG_BUNDLE_RECORD", file_s), ("TG_CACHE_DIR", "off")],
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"TGBUNDLE\x01\0\0\0");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
#[ignore = "child of recorded_kernels_run_without_compiling"]
fn child_record() {
    let before = thread_stats().kernels;
    assert_eq!(squares().to_vec::<f32>().unwrap(), squares_expected());
    println!("kernels={}", thread_stats().kernels - before);
}

#[test]
#[ignore = "child of recorded_kernels_run_without_compiling"]
fn child_replay() {
    assert_eq!(squares().to_vec::<f32>().unwrap(), squares_expected());
    println!("compiles={}", compile_count());
}

#[test]
#[ignore = "child of recorded_kernels_run_without_compiling"]
fn child_miss() {
    match sines().to_vec::<f32>().map_err(|e| e.root().clone()) {
        Err(Error::KernelNotInBundle { kernel, key, .. }) => {
            assert_eq!(key.len(), 32);
            println!("missing={kernel}");
        }
        other => panic!("expected KernelNotInBundle, got {other:?}"),
    }
}

#[test]
#[ignore = "child of recorded_kernels_run_without_compiling"]
fn child_damaged() {
    match squares().to_vec::<f32>().map_err(|e| e.root().clone()) {
        Err(Error::BundleInvalid { origin, reason }) => {
            assert!(origin.ends_with("kernels.tgb"), "{origin}");
            assert!(reason.contains("header"), "{reason}");
        }
        other => panic!("expected BundleInvalid, got {other:?}"),
    }
}
