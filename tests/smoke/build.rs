//! Embeds the bundle `TG_SMOKE_BUNDLE` names (a file `tg-bundle record` or `TG_BUNDLE_RECORD`
//! wrote on the build machine) as `$OUT_DIR/smoke.tgb`, for `include_bytes!`; an empty file
//! when it is unset, so the crate builds before any bundle exists (with the compiler).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=TG_SMOKE_BUNDLE");
    let out =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("smoke.tgb");
    match std::env::var_os("TG_SMOKE_BUNDLE").filter(|p| !p.is_empty()) {
        Some(path) => {
            println!("cargo:rerun-if-changed={}", PathBuf::from(&path).display());
            std::fs::copy(&path, &out).unwrap_or_else(|e| {
                panic!("TG_SMOKE_BUNDLE={}: {e}", PathBuf::from(&path).display())
            });
        }
        None => std::fs::write(&out, b"").expect("write OUT_DIR/smoke.tgb"),
    }
}
