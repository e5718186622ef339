//! Links shaderc when the `compiler` feature is on; without it tg links no compiler at all.
//!
//! tg declares the shaderc C functions it calls itself (`src/compile/ffi.rs`), so this script
//! alone decides how shaderc is linked, and a crate depending on tg needs no configuration:
//!
//! - Debian and Ubuntu ship `libshaderc_combined.a` with shaderc's own objects only; glslang and
//!   SPIRV-Tools come as separate static archives, linked here after it. Their shared
//!   `libshaderc.so` is built against an older glslang than the one they ship and crashes, so
//!   it is never used when the static archive is there.
//! - A complete `libshaderc_combined.a` (Vulkan SDK, shaderc built from source) is linked alone.
//! - Elsewhere, a shared `libshaderc_shared` or `libshaderc` is linked dynamically.
//!
//! `SHADERC_LIB_DIR` names the folder to use; `VULKAN_SDK` is tried next, then the system's
//! library folders.

use std::env;
use std::path::{Path, PathBuf};

/// In dependency order: each archive only needs symbols from those after it.
const ARCHIVES: [&str; 7] = [
    "SPIRV",
    "MachineIndependent",
    "OSDependent",
    "GenericCodeGen",
    "OGLCompiler",
    "SPIRV-Tools-opt",
    "SPIRV-Tools",
];

fn candidate_dirs() -> Vec<PathBuf> {
    if let Ok(dir) = env::var("SHADERC_LIB_DIR") {
        return vec![PathBuf::from(dir)];
    }
    let mut dirs = Vec::new();
    if let Ok(sdk) = env::var("VULKAN_SDK") {
        dirs.push(PathBuf::from(sdk).join("lib"));
    }
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let arch = if arch == "x86" { "i386".into() } else { arch };
    dirs.extend([
        PathBuf::from(format!("/usr/lib/{arch}-linux-gnu")),
        PathBuf::from("/usr/lib64"),
        PathBuf::from("/usr/lib"),
        PathBuf::from("/usr/local/lib"),
    ]);
    dirs
}

fn has(dir: &Path, file: &str) -> bool {
    dir.join(file).is_file()
}

/// The C++ runtime shaderc's static archives need.
fn link_cplusplus() {
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let lib = if matches!(os.as_str(), "macos" | "ios" | "freebsd" | "openbsd") {
        "c++"
    } else {
        "stdc++"
    };
    println!("cargo:rustc-link-lib=dylib={lib}");
}

fn main() {
    println!("cargo:rerun-if-env-changed=SHADERC_LIB_DIR");
    println!("cargo:rerun-if-env-changed=VULKAN_SDK");
    println!("cargo:rerun-if-changed=build.rs");
    if env::var_os("CARGO_FEATURE_COMPILER").is_none() {
        return;
    }
    let dirs = candidate_dirs();
    let shared = [
        "libshaderc_shared.so",
        "libshaderc.so",
        "libshaderc_shared.dylib",
    ];
    let Some(dir) = dirs.iter().find(|d| {
        has(d, "libshaderc_combined.a")
            || has(d, "shaderc_combined.lib")
            || shared.iter().any(|s| has(d, s))
    }) else {
        panic!(
            "tg-runtime: no shaderc library found (looked in {dirs:?}).\n\
             On Debian or Ubuntu: apt-get install libshaderc-dev glslang-dev spirv-tools\n\
             Elsewhere: install shaderc or the Vulkan SDK, or set SHADERC_LIB_DIR to the folder \
             holding libshaderc_combined.a.\n\
             Or build without a shader compiler (default-features = false, the `compiler` \
             feature off) and install a SPIR-V bundle made on another machine."
        );
    };
    println!("cargo:rustc-link-search=native={}", dir.display());
    if !(has(dir, "libshaderc_combined.a") || has(dir, "shaderc_combined.lib")) {
        // A shared shaderc is self-contained on distributions other than Debian's.
        let name = if has(dir, "libshaderc_shared.so") || has(dir, "libshaderc_shared.dylib") {
            "shaderc_shared"
        } else {
            "shaderc"
        };
        println!("cargo:rustc-link-lib=dylib={name}");
        return;
    }
    println!("cargo:rustc-link-lib=static=shaderc_combined");
    let missing: Vec<_> = ARCHIVES
        .iter()
        .filter(|a| !has(dir, &format!("lib{a}.a")))
        .collect();
    if missing.len() == ARCHIVES.len() && !has(dir, "libglslang.a") {
        // A complete combined archive (Vulkan SDK, shaderc built from source) needs nothing more.
        link_cplusplus();
        return;
    }
    if !missing.is_empty() {
        panic!(
            "tg-runtime: {} has libshaderc_combined.a but not the static archives it needs: {missing:?}.\n\
             On Debian or Ubuntu: apt-get install glslang-dev spirv-tools",
            dir.display()
        );
    }
    for a in ARCHIVES {
        println!("cargo:rustc-link-lib=static={a}");
    }
    link_cplusplus();
}
