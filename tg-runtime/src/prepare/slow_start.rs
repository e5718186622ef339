//! The one line a slow first run prints: preparing kernels (shaderc compiling each kernel's
//! GLSL to SPIR-V, the driver compiling that to a pipeline; lavapipe runs LLVM) is where a
//! fresh machine spends its first minute, and without a word it looks like a hang. Once the
//! kernels this process prepared have taken [`THRESHOLD_NS`] in all, one line on stderr says
//! how many, how long, and that they are cached for later runs (or that the cache is off). A
//! run whose kernels come from warm caches prepares them fast and never reaches the
//! threshold, so it prints nothing.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Build time after which the line is printed: 3 s.
pub(crate) const THRESHOLD_NS: u64 = 3_000_000_000;

static BUILT: AtomicU64 = AtomicU64::new(0);
static SPENT_NS: AtomicU64 = AtomicU64::new(0);
static TOLD: AtomicBool = AtomicBool::new(false);

/// Notes one kernel prepared (compiled and its pipeline built) in `ns`; prints the line the first time the process's total
/// crosses the threshold.
pub(crate) fn note_build(ns: u64, device: &str, cache: Option<&Path>) {
    let built = BUILT.fetch_add(1, Ordering::Relaxed) + 1;
    let spent = SPENT_NS.fetch_add(ns, Ordering::Relaxed) + ns;
    if spent >= THRESHOLD_NS && !TOLD.swap(true, Ordering::Relaxed) {
        eprintln!("{}", message(built, spent, device, cache));
    }
}

/// The line: the count and time so far, and where the pipelines are kept.
pub(crate) fn message(built: u64, spent_ns: u64, device: &str, cache: Option<&Path>) -> String {
    let kept = match cache {
        Some(path) => format!(
            "they are cached in {}, so later runs start without this",
            path.display()
        ),
        None => "the kernel cache is off (TG_CACHE_DIR), so later runs compile them again".into(),
    };
    format!(
        "tg: compiling kernels for {device} (each kernel's shader to SPIR-V and to a pipeline: {built} so far, {:.1} s); {kept}",
        spent_ns as f64 / 1e9
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_count_the_time_and_the_cache() {
        let m = message(42, 3_500_000_000, "llvmpipe", Some(Path::new("c/p.bin")));
        assert!(m.contains("42 so far, 3.5 s"), "{m}");
        assert!(m.contains("cached in c/p.bin"), "{m}");
        let off = message(1, THRESHOLD_NS, "llvmpipe", None);
        assert!(off.contains("kernel cache is off"), "{off}");
    }
}
