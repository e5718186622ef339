//! Links the compiler libraries that a distribution's static `libshaderc_combined.a` leaves out.
//!
//! Debian and Ubuntu ship `libshaderc_combined.a` with shaderc's own objects only; glslang and
//! SPIRV-Tools come as separate static archives. Their shared `libshaderc.so` is built against an
//! older glslang than the one they ship and crashes, so tg links statically (see
//! `.cargo/config.toml`, which keeps shaderc-sys away from pkg-config's dynamic answer).

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
    let arch = env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let arch = if arch == "x86" {
        "i386".to_string()
    } else {
        arch
    };
    vec![
        PathBuf::from(format!("/usr/lib/{arch}-linux-gnu")),
        PathBuf::from("/usr/lib64"),
        PathBuf::from("/usr/lib"),
        PathBuf::from("/usr/local/lib"),
    ]
}

fn has(dir: &Path, file: &str) -> bool {
    dir.join(file).is_file()
}

fn main() {
    println!("cargo:rerun-if-env-changed=SHADERC_LIB_DIR");
    println!("cargo:rerun-if-changed=build.rs");
    if env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        // Other systems get shaderc from the Vulkan SDK or from source, self-contained.
        return;
    }
    let dirs = candidate_dirs();
    let Some(dir) = dirs
        .iter()
        .find(|d| has(d, "libshaderc_combined.a") || has(d, "libshaderc.so"))
    else {
        panic!(
            "tg-runtime: no shaderc library found (looked in {dirs:?}).\n\
             On Debian or Ubuntu: apt-get install libshaderc-dev glslang-dev spirv-tools\n\
             Elsewhere: install shaderc, or set SHADERC_LIB_DIR to the folder holding \
             libshaderc_combined.a"
        );
    };
    if !has(dir, "libshaderc_combined.a") {
        // A shared libshaderc is self-contained on distributions other than Debian's.
        return;
    }
    let missing: Vec<_> = ARCHIVES
        .iter()
        .filter(|a| !has(dir, &format!("lib{a}.a")))
        .collect();
    if missing.len() == ARCHIVES.len() && !has(dir, "libglslang.a") {
        // A complete combined archive (Vulkan SDK, shaderc built from source) needs nothing more.
        return;
    }
    if !missing.is_empty() {
        panic!(
            "tg-runtime: {} has libshaderc_combined.a but not the static archives it needs: {missing:?}.\n\
             On Debian or Ubuntu: apt-get install glslang-dev spirv-tools",
            dir.display()
        );
    }
    println!("cargo:rustc-link-search=native={}", dir.display());
    for a in ARCHIVES {
        println!("cargo:rustc-link-lib=static={a}");
    }
}
