//! GLSL to SPIR-V, cached in memory and on disk, so a kernel is compiled once per machine.

mod dir;
mod disk;
mod glsl;
mod hash;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::Result;

pub use dir::{Reason, Unusable, cache_dir};
pub(crate) use dir::{or_warn, prepare};
pub(crate) use disk::{read_trusted, write_atomic};
pub use hash::stable_hash;

/// Bumped whenever the cache key or file format changes, so old files are never reused.
const CACHE_FORMAT: &str = "tg-spirv-cache 1";

/// shaderc runs in this process, over all caches.
static COMPILES: AtomicU64 = AtomicU64::new(0);

/// Compiles a GLSL 4.50 compute shader (entry point `main`) for Vulkan 1.2 / SPIR-V 1.5, through
/// the process-wide [`ShaderCache`]. Errors are [`crate::Error::Compile`] with the source.
///
/// ```
/// let spirv = tg_runtime::compile::compile_glsl(
///     "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}",
/// )?;
/// assert_eq!(spirv[0], 0x0723_0203);
/// # Ok::<(), tg_runtime::Error>(())
/// ```
pub fn compile_glsl(source: &str) -> Result<Arc<[u32]>> {
    ShaderCache::global().compile(source)
}

/// How many times shaderc actually ran in this process (cache misses, all caches together).
pub fn compile_count() -> u64 {
    COMPILES.load(Ordering::Relaxed)
}

type Slot = Arc<OnceLock<Result<Arc<[u32]>>>>;

/// A SPIR-V cache: memory first, then a folder on disk, then shaderc.
///
/// The process-wide one ([`ShaderCache::global`]) reads `TG_CACHE_DIR` and `TG_SHADER_OPT`
/// once, at first use. Separate instances exist so tests (and tools) can point a cache at a
/// folder of their own. Either way the folder must pass [`cache_dir`]'s checks, or the cache
/// stays in memory and tg says why on stderr (once per process).
pub struct ShaderCache {
    dir: Option<PathBuf>,
    opt: glsl::Opt,
    toolchain: String,
    /// One slot per key: threads asking for a source being compiled wait for that compile
    /// instead of starting their own.
    memory: Mutex<HashMap<u128, Slot>>,
    compiles: AtomicU64,
}

impl ShaderCache {
    /// A cache in `dir` (created private if missing; `None`, or a folder that cannot be made
    /// or is not safe, keeps the cache in memory only), with the optimization level from
    /// `TG_SHADER_OPT`.
    pub fn new(dir: Option<PathBuf>) -> Self {
        Self::in_checked(dir.map(prepare).transpose())
    }

    /// A cache in the folder [`cache_dir`] or [`prepare`] vetted, if any.
    fn in_checked(dir: std::result::Result<Option<PathBuf>, Unusable>) -> Self {
        ShaderCache {
            dir: or_warn(dir),
            opt: glsl::Opt::from_env(),
            toolchain: glsl::toolchain_tag(),
            memory: Mutex::new(HashMap::new()),
            compiles: AtomicU64::new(0),
        }
    }

    /// The process-wide cache, in [`cache_dir`].
    pub fn global() -> &'static ShaderCache {
        static GLOBAL: OnceLock<ShaderCache> = OnceLock::new();
        GLOBAL.get_or_init(|| ShaderCache::in_checked(cache_dir()))
    }

    /// The folder this cache persists to, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// How many times this cache ran shaderc.
    pub fn compiles(&self) -> u64 {
        self.compiles.load(Ordering::Relaxed)
    }

    /// Forgets everything held in memory; the disk cache stays.
    pub fn clear_memory(&self) {
        self.memory
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// Compiles `source`, or returns the cached SPIR-V for it.
    pub fn compile(&self, source: &str) -> Result<Arc<[u32]>> {
        let key = self.key(source);
        let slot = Arc::clone(
            self.memory
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(key)
                .or_default(),
        );
        // Compile errors are cached too: the same source fails the same way every time.
        slot.get_or_init(|| self.load_or_compile(key, source))
            .clone()
    }

    fn key(&self, source: &str) -> u128 {
        hash::Hash128::new()
            .field(CACHE_FORMAT.as_bytes())
            .field(self.toolchain.as_bytes())
            .field(self.opt.tag().as_bytes())
            .field(source.as_bytes())
            .finish()
    }

    fn load_or_compile(&self, key: u128, source: &str) -> Result<Arc<[u32]>> {
        let path = self.dir.as_deref().map(|d| disk::path_for(d, key));
        if let Some(words) = path.as_deref().and_then(|p| disk::load(p, key)) {
            return Ok(words.into());
        }
        COMPILES.fetch_add(1, Ordering::Relaxed);
        self.compiles.fetch_add(1, Ordering::Relaxed);
        let words = glsl::compile(source, self.opt)?;
        if let Some(path) = path {
            // Best effort: a full disk or a read-only cache costs a recompile later, nothing more.
            let _ = disk::store(&path, key, &words);
        }
        Ok(words.into())
    }
}
