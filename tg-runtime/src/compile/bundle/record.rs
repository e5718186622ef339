//! `TG_BUNDLE_RECORD=file`: every kernel this process compiles (or loads from the disk cache or
//! a bundle) is added to `file`.
//!
//! The file is read once, at the first kernel, so runs add up (a test suite's binaries each add
//! theirs), and rewritten atomically after each new kernel, so a process that is killed leaves
//! a whole bundle with what it had. Processes recording into one file at the same time may
//! lose each other's kernels (last writer wins): `cargo test` runs test binaries one at a time.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use super::Bundle;
use crate::config::{self, Var};
use crate::{Error, Result};

/// The bundle being recorded and its file.
struct Recorder {
    path: PathBuf,
    bundle: Result<Bundle>,
}

fn recorder() -> Option<&'static Mutex<Recorder>> {
    static RECORDER: OnceLock<Option<Mutex<Recorder>>> = OnceLock::new();
    RECORDER
        .get_or_init(|| {
            let path = PathBuf::from(config::os_text(Var::BundleRecord)?);
            if path.as_os_str().is_empty() {
                return None;
            }
            // A missing file starts empty; anything else that is not a bundle is an error at
            // every kernel rather than a file silently overwritten.
            let bundle = match path.try_exists() {
                Ok(false) => Ok(Bundle::new()),
                _ => Bundle::from_file(&path),
            };
            Some(Mutex::new(Recorder { path, bundle }))
        })
        .as_ref()
}

/// Adds a kernel to `TG_BUNDLE_RECORD`'s file, when that is set.
pub(crate) fn record(key: u128, name: &str, words: &Arc<[u32]>) -> Result<()> {
    let Some(recorder) = recorder() else {
        return Ok(());
    };
    let mut recorder = recorder.lock().unwrap_or_else(PoisonError::into_inner);
    let Recorder { path, bundle } = &mut *recorder;
    let bundle = bundle.as_mut().map_err(|e| Error::clone(e))?;
    if bundle.insert(key, name, Arc::clone(words)) {
        bundle.write(path)?;
    }
    Ok(())
}
