//! SPIR-V bundles: kernels compiled on a build machine, run where there is no shader compiler.
//!
//! A target without shaderc (Android, a small ARM board, an app that will not ship a compiler)
//! builds tg with the `compiler` feature off and installs a bundle instead: a file of SPIR-V
//! keyed by [`key`], which hashes the rendered GLSL with the target and compile flags. The GLSL
//! already spells out everything codegen took from the device (subgroup arithmetic, float
//! controls, shapes a kernel embeds, push-constant room), so one key covers them all: a kernel
//! rendered differently on the target is simply another key, and a miss is
//! [`Error::KernelNotInBundle`] naming the kernel and the key, never a wrong shader.
//!
//! Making one: run the program (or its tests) on the build machine with `TG_BUNDLE_RECORD=file`
//! (or `tg-bundle record file -- command`), on a device with the target's features. Using one:
//! `TG_BUNDLE=file` at run time, or [`install`] with bytes the app embeds:
//!
//! ```ignore
//! static KERNELS: &[u8] = include_bytes!("kernels.tgb");
//! tg_runtime::bundle::install(tg_runtime::bundle::Bundle::from_bytes(KERNELS, "embedded")?);
//! ```
//!
//! (`tests/smoke` in tg's repository does exactly this, with the file its build script copies.)
//!
//! Installed bundles serve every device of the process: a key already says which device
//! features the kernel was rendered for.

mod format;
mod record;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

pub use format::{MAGIC, VERSION};
pub(crate) use record::record;

use super::{Hash128, Opt, target_tag};
use crate::config::{self, Var};
use crate::{Error, Result};

/// Bumped when what the key hashes changes, so an old bundle misses instead of matching wrong.
const KEY_FORMAT: &str = "tg-bundle-key 1";

/// The bundle key of a kernel: the GLSL source with the target and compile flags. The compiler
/// version is left out on purpose: the target has no compiler to ask.
pub fn key(source: &str, opt: Opt) -> u128 {
    Hash128::new()
        .field(KEY_FORMAT.as_bytes())
        .field(target_tag().as_bytes())
        .field(opt.tag().as_bytes())
        .field(source.as_bytes())
        .finish()
}

/// One kernel of a bundle.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The kernel's name when it was recorded (for `tg-bundle list` and errors; not part of the
    /// key).
    pub name: String,
    /// Its SPIR-V.
    pub words: Arc<[u32]>,
}

/// A set of compiled kernels by [`key`].
#[derive(Clone, Debug, Default)]
pub struct Bundle {
    entries: BTreeMap<u128, Entry>,
}

impl Bundle {
    /// An empty bundle.
    pub fn new() -> Bundle {
        Bundle::default()
    }

    /// Reads a bundle from its bytes. `origin` says where they came from in errors:
    /// [`Error::BundleInvalid`] for anything that is not an intact bundle,
    /// [`Error::BundleVersion`] for another format version.
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<Bundle> {
        Ok(Bundle {
            entries: format::decode(bytes, origin)?,
        })
    }

    /// Reads a bundle file ([`Error::Io`] when it cannot be read).
    pub fn from_file(path: &Path) -> Result<Bundle> {
        let bytes = std::fs::read(path).map_err(|e| Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Bundle::from_bytes(&bytes, &path.display().to_string())
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        format::encode(&self.entries)
    }

    /// Writes the bundle to `path` atomically (readers see the old file or the new one).
    pub fn write(&self, path: &Path) -> Result<()> {
        super::write_atomic(path, &self.to_bytes()).map_err(|e| Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }

    /// Adds a kernel; whether the key was new.
    pub fn insert(&mut self, key: u128, name: &str, words: Arc<[u32]>) -> bool {
        let entry = Entry {
            name: name.to_string(),
            words,
        };
        self.entries.insert(key, entry).is_none()
    }

    /// Adds every kernel of `other` (one already here is kept: same key, same SPIR-V).
    pub fn merge(&mut self, other: Bundle) {
        for (key, entry) in other.entries {
            self.entries.entry(key).or_insert(entry);
        }
    }

    /// The kernel under `key`.
    pub fn get(&self, key: u128) -> Option<&Entry> {
        self.entries.get(&key)
    }

    /// The kernels, by key.
    pub fn entries(&self) -> impl Iterator<Item = (u128, &Entry)> {
        self.entries.iter().map(|(k, e)| (*k, e))
    }

    /// How many kernels it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The kernels installed in this process: `TG_BUNDLE`'s file (read at first use) and what
/// [`install`] added.
struct Installed {
    bundle: Bundle,
    /// `TG_BUNDLE`'s file could not be used: every lookup reports it, so the mistake is seen
    /// at the first kernel instead of as a miss.
    env_error: Option<Error>,
}

fn installed() -> &'static Mutex<Installed> {
    static INSTALLED: OnceLock<Mutex<Installed>> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let (bundle, env_error) = match config::os_text(Var::Bundle).filter(|p| !p.is_empty()) {
            None => (Bundle::new(), None),
            Some(path) => match Bundle::from_file(Path::new(&path)) {
                Ok(bundle) => (bundle, None),
                Err(e) => (Bundle::new(), Some(e)),
            },
        };
        Mutex::new(Installed { bundle, env_error })
    })
}

/// Adds `bundle`'s kernels to the process's installed set, which every device uses from the
/// next kernel it prepares on.
pub fn install(bundle: Bundle) {
    let mut installed = installed().lock().unwrap_or_else(PoisonError::into_inner);
    installed.bundle.merge(bundle);
}

/// How many kernels the installed bundles hold together.
pub fn installed_len() -> usize {
    installed()
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .bundle
        .len()
}

/// The installed SPIR-V under `key`; the error of a `TG_BUNDLE` that could not be read.
pub(crate) fn find(key: u128) -> Result<Option<Arc<[u32]>>> {
    let installed = installed().lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(e) = &installed.env_error {
        return Err(e.clone());
    }
    Ok(installed.bundle.get(key).map(|e| Arc::clone(&e.words)))
}

/// The error for a kernel no installed bundle has.
pub(crate) fn missing(kernel: &str, key: u128) -> Error {
    let compiler = super::HAS_COMPILER;
    Error::KernelNotInBundle {
        kernel: kernel.to_string(),
        key: format!("{key:032x}"),
        entries: installed_len(),
        compiler,
        hint: if compiler {
            "unset TG_BUNDLE_ONLY to compile it, or record it into the bundle (TG_BUNDLE_RECORD)"
        } else {
            "record the bundle again with TG_BUNDLE_RECORD on a machine with the compiler, \
             running this program on a device with the same features"
        },
    }
}

/// Whether kernels may only come from bundles: `TG_BUNDLE_ONLY`, or no compiler in this build.
pub(crate) fn only() -> bool {
    !super::HAS_COMPILER || config::switch(Var::BundleOnly)
}
