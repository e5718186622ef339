//! GLSL to SPIR-V: from an installed bundle ([`bundle`]), else from memory, the disk
//! cache or shaderc (the `compiler` feature), so a kernel is compiled once per machine, or
//! never on a target without the compiler.

pub mod bundle;
mod dir;
#[cfg(feature = "compiler")]
mod disk;
#[cfg(feature = "compiler")]
mod ffi;
mod files;
#[cfg(feature = "compiler")]
mod glsl;
mod hash;
mod opt;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::Result;

pub use dir::{Reason, Unusable, cache_dir};
pub(crate) use dir::{or_warn, prepare};
pub(crate) use files::{read_trusted, write_atomic};
pub use hash::stable_hash;
pub(crate) use hash::{Hash128, fnv64};
pub use opt::Opt;

/// Whether this build has shaderc (the `compiler` feature). Without it, kernels come from
/// installed bundles only.
pub const HAS_COMPILER: bool = cfg!(feature = "compiler");

/// What the SPIR-V is compiled for, besides the source and the optimisation level: hashed into
/// the bundle key and the disk cache key. Changing a flag of [`compile_glsl`] changes this.
pub fn target_tag() -> &'static str {
    "glsl450 compute main -> vulkan1.2 spirv1.5"
}

/// Bumped whenever the cache key or file format changes, so old files are never reused.
#[cfg(feature = "compiler")]
const CACHE_FORMAT: &str = "tg-spirv-cache 1";

/// shaderc runs in this process, over all caches.
static COMPILES: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// shaderc runs on this thread: whether one kernel's preparation compiled is this
    /// count before and after it, which other threads compiling at the same time (a realize
    /// prepares its new kernels on several) leave alone.
    static THREAD_COMPILES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Compiles a GLSL 4.50 compute shader (entry point `main`) for Vulkan 1.2 / SPIR-V 1.5, through
/// the process-wide [`ShaderCache`]. Errors are [`crate::Error::Compile`] with the source; in a
/// build without the compiler the SPIR-V comes from an installed bundle, else
/// [`crate::Error::KernelNotInBundle`] (named `compile_glsl`).
///
/// ```
/// # if !tg_runtime::compile::HAS_COMPILER { return Ok(()); }
/// let spirv = tg_runtime::compile::compile_glsl(
///     "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}",
/// )?;
/// assert_eq!(spirv[0], 0x0723_0203);
/// # Ok::<(), tg_runtime::Error>(())
/// ```
pub fn compile_glsl(source: &str) -> Result<Arc<[u32]>> {
    ShaderCache::global().compile(source)
}

/// [`compile_glsl`] for a kernel called `name`: the name a bundle records and a miss reports.
pub fn compile_kernel(name: &str, source: &str) -> Result<Arc<[u32]>> {
    ShaderCache::global().compile_named(name, source)
}

/// How many times shaderc actually ran in this process (cache misses, all caches together).
pub fn compile_count() -> u64 {
    COMPILES.load(Ordering::Relaxed)
}

/// How many times shaderc ran on the calling thread.
pub fn thread_compile_count() -> u64 {
    THREAD_COMPILES.with(|c| c.get())
}

type Slot = Arc<OnceLock<Result<Arc<[u32]>>>>;

/// A SPIR-V cache: memory first, then the installed bundles, then a folder on disk, then
/// shaderc. What it compiles or loads is added to `TG_BUNDLE_RECORD`'s file.
///
/// The process-wide one ([`ShaderCache::global`]) reads `TG_CACHE_DIR` and `TG_SHADER_OPT`
/// once, at first use. Separate instances exist so tests (and tools) can point a cache at a
/// folder of their own. Either way the folder must pass [`cache_dir`]'s checks, or the cache
/// stays in memory and tg says why on stderr (once per process).
pub struct ShaderCache {
    dir: Option<PathBuf>,
    opt: Opt,
    /// Kernels come from bundles only (`TG_BUNDLE_ONLY`, or no compiler).
    bundle_only: bool,
    /// The compiler's tag in the disk cache's key.
    #[cfg(feature = "compiler")]
    toolchain: String,
    /// One slot per key: threads asking for a source being compiled wait for that compile
    /// instead of starting their own.
    memory: Mutex<HashMap<u128, Slot>>,
    compiles: AtomicU64,
}

impl ShaderCache {
    /// A cache in `dir` (created private if missing; `None`, or a folder that cannot be made
    /// or is not safe, keeps the cache in memory only), with the optimization level from
    /// `TG_SHADER_OPT` and the bundle rule from `TG_BUNDLE_ONLY`. Without the compiler the
    /// folder holds only the pipeline cache.
    pub fn new(dir: Option<PathBuf>) -> Self {
        Self::in_checked(dir.map(prepare).transpose())
    }

    /// A cache in the folder [`cache_dir`] or [`prepare`] vetted, if any.
    fn in_checked(dir: std::result::Result<Option<PathBuf>, Unusable>) -> Self {
        ShaderCache {
            dir: or_warn(dir),
            opt: Opt::from_env(),
            bundle_only: bundle::only(),
            #[cfg(feature = "compiler")]
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

    /// This cache, taking kernels from installed bundles only (as without the compiler), so a
    /// test or a build machine can check that a bundle is complete.
    pub fn bundle_only(mut self) -> Self {
        self.bundle_only = true;
        self
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
        self.compile_named("compile_glsl", source)
    }

    /// [`ShaderCache::compile`] for a kernel called `name` (what bundles record and a miss
    /// names).
    pub fn compile_named(&self, name: &str, source: &str) -> Result<Arc<[u32]>> {
        let key = bundle::key(source, self.opt);
        let slot = Arc::clone(
            self.memory
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .entry(key)
                .or_default(),
        );
        // Compile errors are cached too: the same source fails the same way every time.
        let result = slot.get_or_init(|| self.load(key, name, source)).clone();
        if let Err(crate::Error::KernelNotInBundle { .. }) = result {
            // A bundle installed later may have it: forget the miss.
            let mut memory = self.memory.lock().unwrap_or_else(PoisonError::into_inner);
            if memory.get(&key).is_some_and(|s| Arc::ptr_eq(s, &slot)) {
                memory.remove(&key);
            }
        }
        result
    }

    /// The SPIR-V for `source`, from a bundle, the disk or shaderc, recorded when asked.
    fn load(&self, key: u128, name: &str, source: &str) -> Result<Arc<[u32]>> {
        let words = match bundle::find(key)? {
            Some(words) => words,
            None if self.bundle_only => return Err(bundle::missing(name, key)),
            None => self.compile_cached(name, source)?,
        };
        bundle::record(key, name, &words)?;
        Ok(words)
    }

    #[cfg(not(feature = "compiler"))]
    fn compile_cached(&self, name: &str, source: &str) -> Result<Arc<[u32]>> {
        // `bundle_only` is always set without the compiler; this is the same answer.
        Err(bundle::missing(name, bundle::key(source, self.opt)))
    }

    #[cfg(feature = "compiler")]
    fn compile_cached(&self, _name: &str, source: &str) -> Result<Arc<[u32]>> {
        let key = hash::Hash128::new()
            .field(CACHE_FORMAT.as_bytes())
            .field(self.toolchain.as_bytes())
            .field(self.opt.tag().as_bytes())
            .field(source.as_bytes())
            .finish();
        let path = self.dir.as_deref().map(|d| disk::path_for(d, key));
        if let Some(words) = path.as_deref().and_then(|p| disk::load(p, key)) {
            return Ok(words.into());
        }
        COMPILES.fetch_add(1, Ordering::Relaxed);
        THREAD_COMPILES.with(|c| c.set(c.get() + 1));
        self.compiles.fetch_add(1, Ordering::Relaxed);
        let words = glsl::compile(source, self.opt)?;
        if let Some(path) = path {
            // Best effort: a full disk or a read-only cache costs a recompile later, nothing more.
            let _ = disk::store(&path, key, &words);
        }
        Ok(words.into())
    }
}
