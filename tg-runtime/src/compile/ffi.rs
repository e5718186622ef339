//! The few functions of shaderc's C API tg calls, declared by hand.
//!
//! tg used the `shaderc` crate before; its build script asks pkg-config first, which on Debian
//! answers with a shared `libshaderc.so` that crashes (see `tg-runtime/build.rs`), so every
//! crate depending on tg needed a `.cargo/config.toml` to steer it away. Declaring the dozen
//! functions here lets tg's own build script decide how to link, with nothing asked of
//! dependents. The RAII types below release what shaderc allocates.

use std::ffi::{c_char, c_int, c_uint, c_void};
use std::ptr::NonNull;

/// `shaderc_source_language_glsl`.
const SOURCE_GLSL: c_int = 0;
/// `shaderc_compute_shader` (= `shaderc_glsl_compute_shader`).
const KIND_COMPUTE: c_int = 2;
/// `shaderc_target_env_vulkan`.
const TARGET_VULKAN: c_int = 0;
/// `shaderc_env_version_vulkan_1_2`: `(1 << 22) | (2 << 12)`.
const VULKAN_1_2: u32 = (1 << 22) | (2 << 12);
/// `shaderc_spirv_version_1_5`.
const SPIRV_1_5: c_int = 0x0001_0500;
/// `shaderc_compilation_status_success`.
const STATUS_SUCCESS: c_int = 0;

unsafe extern "C" {
    fn shaderc_compiler_initialize() -> *mut c_void;
    fn shaderc_compiler_release(compiler: *mut c_void);
    fn shaderc_compile_options_initialize() -> *mut c_void;
    fn shaderc_compile_options_release(options: *mut c_void);
    fn shaderc_compile_options_set_source_language(options: *mut c_void, language: c_int);
    fn shaderc_compile_options_set_optimization_level(options: *mut c_void, level: c_int);
    fn shaderc_compile_options_set_target_env(options: *mut c_void, env: c_int, version: u32);
    fn shaderc_compile_options_set_target_spirv(options: *mut c_void, version: c_int);
    fn shaderc_compile_into_spv(
        compiler: *const c_void,
        source: *const c_char,
        source_size: usize,
        kind: c_int,
        file_name: *const c_char,
        entry_point: *const c_char,
        options: *const c_void,
    ) -> *mut c_void;
    fn shaderc_result_release(result: *mut c_void);
    fn shaderc_result_get_length(result: *const c_void) -> usize;
    fn shaderc_result_get_bytes(result: *const c_void) -> *const c_char;
    fn shaderc_result_get_error_message(result: *const c_void) -> *const c_char;
    fn shaderc_result_get_compilation_status(result: *const c_void) -> c_int;
    fn shaderc_get_spv_version(version: *mut c_uint, revision: *mut c_uint);
}

/// The SPIR-V version and revision shaderc's `libshaderc` reports.
pub(super) fn spirv_version() -> (u32, u32) {
    let (mut version, mut revision) = (0, 0);
    // SAFETY: shaderc writes two unsigned ints through valid pointers and keeps neither.
    unsafe { shaderc_get_spv_version(&mut version, &mut revision) };
    (version, revision)
}

/// A shaderc compiler. shaderc documents compiles on one compiler as safe from several threads;
/// tg keeps one per thread anyway (see `glsl.rs`), so it is neither `Send` nor `Sync`.
pub(super) struct Compiler(NonNull<c_void>);

impl Compiler {
    /// A new compiler, or `None` when shaderc cannot allocate one.
    pub(super) fn new() -> Option<Compiler> {
        // SAFETY: no arguments; a null return is handled.
        NonNull::new(unsafe { shaderc_compiler_initialize() }).map(Compiler)
    }

    /// Compiles a GLSL compute shader (`source`, no NUL bytes) with entry point `main` for
    /// Vulkan 1.2 and SPIR-V 1.5. `Err` holds shaderc's message.
    pub(super) fn compile(&self, source: &str, optimize: bool) -> Result<Vec<u32>, String> {
        if source.contains('\0') {
            return Err("the source contains a NUL byte".into());
        }
        let options = Options::new().ok_or("shaderc could not allocate compile options")?;
        options.set(optimize);
        // SAFETY: the compiler and options are live; the source pointer and length describe a
        // str that outlives the call (shaderc copies what it needs and takes a length, so no
        // NUL terminator is read); file name and entry point are NUL-terminated literals.
        let raw = unsafe {
            shaderc_compile_into_spv(
                self.0.as_ptr(),
                source.as_ptr().cast(),
                source.len(),
                KIND_COMPUTE,
                c"kernel.comp".as_ptr(),
                c"main".as_ptr(),
                options.0.as_ptr(),
            )
        };
        let result = NonNull::new(raw)
            .map(Artifact)
            .ok_or("shaderc could not allocate a compilation result")?;
        result.words()
    }
}

impl Drop for Compiler {
    fn drop(&mut self) {
        // SAFETY: the pointer came from shaderc_compiler_initialize and is released once.
        unsafe { shaderc_compiler_release(self.0.as_ptr()) }
    }
}

/// Compile options for one compile.
struct Options(NonNull<c_void>);

impl Options {
    fn new() -> Option<Options> {
        // SAFETY: no arguments; a null return is handled.
        NonNull::new(unsafe { shaderc_compile_options_initialize() }).map(Options)
    }

    /// GLSL in, Vulkan 1.2 / SPIR-V 1.5 out, optimised for performance or not at all.
    fn set(&self, optimize: bool) {
        let p = self.0.as_ptr();
        // SAFETY: `p` is live options; the values are members of shaderc's enums (see the
        // constants above, taken from shaderc.h and env.h).
        unsafe {
            shaderc_compile_options_set_source_language(p, SOURCE_GLSL);
            shaderc_compile_options_set_target_env(p, TARGET_VULKAN, VULKAN_1_2);
            shaderc_compile_options_set_target_spirv(p, SPIRV_1_5);
            shaderc_compile_options_set_optimization_level(p, if optimize { 2 } else { 0 });
        }
    }
}

impl Drop for Options {
    fn drop(&mut self) {
        // SAFETY: the pointer came from shaderc_compile_options_initialize, released once.
        unsafe { shaderc_compile_options_release(self.0.as_ptr()) }
    }
}

/// What a compile returned: SPIR-V or an error message.
struct Artifact(NonNull<c_void>);

impl Artifact {
    fn words(&self) -> Result<Vec<u32>, String> {
        let p = self.0.as_ptr();
        // SAFETY: `p` is a live result; shaderc returns its status as an enum value.
        if unsafe { shaderc_result_get_compilation_status(p) } != STATUS_SUCCESS {
            // SAFETY: the message is a NUL-terminated string owned by the result, which
            // outlives this copy of it.
            let message = unsafe { std::ffi::CStr::from_ptr(shaderc_result_get_error_message(p)) };
            return Err(message.to_string_lossy().into_owned());
        }
        // SAFETY: `p` is a live result.
        let len = unsafe { shaderc_result_get_length(p) };
        // SAFETY: as above.
        let start = unsafe { shaderc_result_get_bytes(p) }.cast::<u8>();
        if len == 0 || start.is_null() {
            return Err("shaderc returned no SPIR-V".into());
        }
        // SAFETY: on success the result holds `len` bytes at `start`, owned by the result,
        // which outlives this copy.
        let bytes = unsafe { std::slice::from_raw_parts(start, len) };
        if bytes.len() % 4 != 0 {
            return Err(format!(
                "shaderc returned {} bytes, not whole words",
                bytes.len()
            ));
        }
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }
}

impl Drop for Artifact {
    fn drop(&mut self) {
        // SAFETY: the pointer came from shaderc_compile_into_spv and is released once.
        unsafe { shaderc_result_release(self.0.as_ptr()) }
    }
}
