//! GLSL compilation and its memory and disk caches.

use std::path::{Path, PathBuf};

use crate::device_common::*;
use tg_runtime::Error;
use tg_runtime::compile::{
    ShaderCache, compile_count, compile_glsl, stable_hash, thread_compile_count,
};
use tg_runtime::device::{Device, KernelLayout};

fn spv_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read cache dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    files.sort();
    files
}

/// The lines in which tg said it turned the disk cache off.
fn warnings(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("tg: disk cache off:"))
        .collect()
}

#[cfg(unix)]
fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn same_source_compiles_once() {
    let cache = ShaderCache::new(None);
    let a = cache.compile(ADD).unwrap();
    let b = cache.compile(ADD).unwrap();
    assert_eq!(cache.compiles(), 1);
    assert_eq!(a, b);
    assert_eq!(a[0], 0x0723_0203);
    cache.compile(AXPB).unwrap();
    assert_eq!(cache.compiles(), 2);
}

/// Whether preparing one kernel compiled is read from the thread's own count: a realize
/// prepares its new kernels on several threads, and another thread's compile must not make
/// a kernel found in the cache look compiled.
#[test]
fn a_thread_counts_only_its_own_compiles() {
    let cache = ShaderCache::new(None);
    let before = thread_compile_count();
    std::thread::scope(|s| {
        s.spawn(|| {
            let mine = thread_compile_count();
            cache.compile(ADD).unwrap();
            assert_eq!(thread_compile_count(), mine + 1);
        });
    });
    assert_eq!(thread_compile_count(), before, "another thread's compile");
    cache.compile(AXPB).unwrap();
    assert_eq!(thread_compile_count(), before + 1);
}

#[test]
fn disk_cache_serves_a_cleared_memory_and_a_new_cache() {
    let dir = temp_dir("disk");
    let cache = ShaderCache::new(Some(dir.clone()));
    let first = cache.compile(AXPB).unwrap();
    assert_eq!(cache.compiles(), 1);
    assert_eq!(spv_files(&dir).len(), 1);

    cache.clear_memory();
    assert_eq!(cache.compile(AXPB).unwrap(), first);
    assert_eq!(cache.compiles(), 1, "loaded from disk");

    let fresh = ShaderCache::new(Some(dir.clone()));
    assert_eq!(fresh.compile(AXPB).unwrap(), first);
    assert_eq!(
        fresh.compiles(),
        0,
        "another cache on the same folder compiles nothing"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn damaged_cache_files_are_recompiled_and_rewritten() {
    let dir = temp_dir("damaged");
    let good = ShaderCache::new(Some(dir.clone())).compile(ADD).unwrap();
    let file = spv_files(&dir).pop().expect("cache file");
    let intact = std::fs::read(&file).unwrap();
    let damages: [Vec<u8>; 4] = [
        intact[..intact.len() / 2].to_vec(),
        Vec::new(),
        b"not a cache file at all".to_vec(),
        {
            let mut flipped = intact.clone();
            let last = flipped.len() - 1;
            flipped[last] ^= 0x40;
            flipped
        },
    ];
    for damaged in damages {
        std::fs::write(&file, &damaged).unwrap();
        let cache = ShaderCache::new(Some(dir.clone()));
        assert_eq!(cache.compile(ADD).unwrap(), good);
        assert_eq!(cache.compiles(), 1, "damaged file must not be trusted");
        assert_eq!(std::fs::read(&file).unwrap(), intact, "file rewritten");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_folder_that_cannot_be_made_only_disables_the_disk_cache() {
    let root = temp_dir("blocker");
    let blocker = root.join("file");
    std::fs::write(&blocker, b"x").unwrap();
    let cache = ShaderCache::new(Some(blocker.join("sub")));
    assert_eq!(cache.dir(), None);
    cache.compile(ADD).unwrap();
    cache.compile(ADD).unwrap();
    assert_eq!(cache.compiles(), 1);
    std::fs::remove_dir_all(&root).ok();
}

#[test]
fn compile_errors_carry_the_source() {
    let bad = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { undefined_thing = 1; }\n";
    match compile_glsl(bad) {
        Err(Error::Compile {
            message,
            source_text,
        }) => {
            assert!(message.contains("undefined_thing"), "{message}");
            assert_eq!(source_text, bad);
        }
        other => panic!("expected a compile error, got {other:?}"),
    }
    assert!(matches!(
        compile_glsl("#version 450\0"),
        Err(Error::Compile { .. })
    ));
}

#[test]
fn stable_hash_is_stable() {
    // FNV-1a 64; these values must never change (they name cached pipelines).
    assert_eq!(stable_hash(""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(stable_hash("foobar"), 0x8594_4171_f739_67e8);
}

#[test]
fn a_second_process_compiles_nothing() {
    let dir = temp_dir("process");
    let dir_s = dir.to_str().expect("utf-8 temp path");
    let env = [("TG_CACHE_DIR", dir_s)];
    let (first, stderr) = run_child_output("child_compile", &env);
    assert_eq!(
        child_value(&first, "COMPILES"),
        "1",
        "first process compiles once"
    );
    assert_eq!(
        warnings(&stderr),
        Vec::<&str>::new(),
        "a good folder is used quietly"
    );
    let pipelines: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("pipelines-"))
        .collect();
    assert_eq!(pipelines.len(), 1, "pipeline cache saved");

    let second = run_child("child_compile", &env);
    assert_eq!(
        child_value(&second, "COMPILES"),
        "0",
        "second process loads from disk"
    );

    for file in spv_files(&dir) {
        std::fs::write(file, b"garbage").unwrap();
    }
    let third = run_child("child_compile", &env);
    assert_eq!(
        child_value(&third, "COMPILES"),
        "1",
        "damaged file recompiled"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Makes AXPB's pipeline (from its SPIR-V `spirv`) on the default device and saves the
/// pipeline cache: what a child process does to fill or try the caches.
fn axpb_pipeline_saved(spirv: &[u32]) {
    let device = Device::get().unwrap();
    device
        .pipeline(
            stable_hash(AXPB),
            spirv,
            KernelLayout {
                bindings: 2,
                texels: 0,
                push_constant_bytes: 12,
            },
        )
        .unwrap();
    device.save_pipeline_cache().unwrap();
}

#[test]
#[ignore = "run by a_second_process_compiles_nothing"]
fn child_compile() {
    let before = compile_count();
    let spirv = compile_glsl(AXPB).unwrap();
    compile_glsl(AXPB).unwrap();
    println!("COMPILES={}", compile_count() - before);
    axpb_pipeline_saved(&spirv);
}

#[cfg(unix)]
#[test]
fn an_unusable_cache_folder_is_reported_once_and_left_alone() {
    let open = temp_dir("open");
    chmod(&open, 0o777);
    let open_s = open.to_str().expect("utf-8 temp path");
    let mut cases = vec![(open_s, "is writable by group/others (mode 0777)")];
    if cfg!(target_os = "linux") {
        cases.push(("/proc/x", "cannot be created ("));
    }
    for (dir, reason) in cases {
        let (out, stderr) = run_child_output("child_compile", &[("TG_CACHE_DIR", dir)]);
        assert_eq!(
            child_value(&out, "COMPILES"),
            "1",
            "memory cache still works"
        );
        let said = warnings(&stderr);
        assert_eq!(said.len(), 1, "one warning for {dir}:\n{stderr}");
        assert!(
            said[0].contains(&format!(" {dir} {reason}")),
            "names the folder and the reason: {}",
            said[0]
        );
    }
    assert_eq!(
        std::fs::read_dir(&open).unwrap().count(),
        0,
        "nothing written into a refused folder"
    );
    let (_, stderr) = run_child_output("child_compile", &[("TG_CACHE_DIR", "off")]);
    assert_eq!(warnings(&stderr), Vec::<&str>::new(), "off is quiet");
    std::fs::remove_dir_all(&open).ok();
}

#[cfg(unix)]
#[test]
fn a_folder_opened_up_while_running_stops_both_caches_with_one_warning() {
    let dir = temp_dir("opened");
    let dir_s = dir.to_str().expect("utf-8 temp path");
    let (_, stderr) = run_child_output("child_open_up", &[("TG_CACHE_DIR", dir_s)]);
    let said = warnings(&stderr);
    assert_eq!(said.len(), 1, "{stderr}");
    assert!(said[0].contains("(mode 0777)"), "{}", said[0]);
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 1, "only the SPIR-V written before: {names:?}");
    assert!(names[0].ends_with(".spv"), "{names:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(unix)]
#[test]
#[ignore = "run by a_folder_opened_up_while_running_stops_both_caches_with_one_warning"]
fn child_open_up() {
    let dir = PathBuf::from(std::env::var_os("TG_CACHE_DIR").expect("TG_CACHE_DIR"));
    let spirv = compile_glsl(AXPB).unwrap();
    chmod(&dir, 0o777);
    assert_eq!(ShaderCache::new(Some(dir.clone())).dir(), None);
    axpb_pipeline_saved(&spirv);
}

/// Independent kernels of structures no realize prepared before: reductions over `rows`
/// rows of 1..=6 columns, offset by `salt` (a constant's value is part of the structure).
fn fresh_kernels(salt: f32) -> Vec<tg_runtime::kernel::Kernel> {
    use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp};
    let dev = Device::get().unwrap();
    let outs: Vec<Lazy> = (1..=6usize)
        .map(|cols| {
            let x = Lazy::from_slice(&[37, cols], &vec![1.0f32; 37 * cols]).unwrap();
            x.binary(
                BinaryOp::Add,
                &Lazy::constant(salt, DType::F32, &[37, cols]).unwrap(),
            )
            .unwrap()
            .reduce(ReduceOp::Add, &[0])
            .unwrap()
        })
        .collect();
    tg_runtime::realize::plan(&outs.iter().collect::<Vec<_>>(), dev.info())
        .unwrap()
        .into_iter()
        .map(|p| p.kernel)
        .collect()
}

/// A realize's kernels reach it in kernel order, each once, however the threads preparing
/// them finish (it submits what it has whenever the next is not ready, so the order is
/// the kernels'); an error from the realize's side stops the rest and comes back.
#[test]
fn prepared_kernels_are_handed_on_in_order() {
    let dev = Device::get().unwrap();
    let salt = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as f32;
    let kernels = fresh_kernels(salt);
    assert!(kernels.len() >= 6, "{}", kernels.len());
    let ks: Vec<&tg_runtime::kernel::Kernel> = kernels.iter().collect();
    let mut order = Vec::new();
    tg_runtime::prepare::prepare_each(
        dev,
        &ks,
        |i, p, _| {
            assert!(!p.name.is_empty());
            order.push(i);
            Ok(())
        },
        || Ok(()),
    )
    .unwrap();
    assert_eq!(order, (0..ks.len()).collect::<Vec<_>>());

    let kernels = fresh_kernels(salt + 0.5);
    let ks: Vec<&tg_runtime::kernel::Kernel> = kernels.iter().collect();
    let mut handed = 0;
    let stopped = tg_runtime::prepare::prepare_each(
        dev,
        &ks,
        |i, _, _| {
            handed += 1;
            match i {
                2 => Err(Error::internal("test", "stop at 2")),
                _ => Ok(()),
            }
        },
        || Ok(()),
    );
    assert!(
        matches!(
            stopped,
            Err(Error::Internal {
                context: "test",
                ..
            })
        ),
        "{stopped:?}"
    );
    assert_eq!(handed, 3);
}
