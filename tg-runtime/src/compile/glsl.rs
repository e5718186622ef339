//! Runs shaderc. Each thread keeps its own compiler, so threads compile in parallel
//! without sharing one (the brief for this module does not rely on shaderc's thread-safety claims).

use std::cell::OnceCell;

use super::opt::Opt;
use crate::{Error, Result};

/// Everything besides the source that changes the SPIR-V shaderc produces; hashed into the
/// disk cache's key (a new shaderc gets new files). The bundle key leaves the compiler out:
/// see [`super::target_tag`].
pub(crate) fn toolchain_tag() -> String {
    let (version, revision) = super::ffi::spirv_version();
    format!(
        "libshaderc spirv {version:#x}.{revision} {}",
        super::target_tag()
    )
}

thread_local! {
    static COMPILER: OnceCell<Option<super::ffi::Compiler>> = const { OnceCell::new() };
}

/// Compiles a GLSL compute shader with entry point `main` to SPIR-V 1.5 for Vulkan 1.2.
pub(crate) fn compile(source: &str, opt: Opt) -> Result<Vec<u32>> {
    let fail = |message: String| Error::Compile {
        message,
        source_text: source.to_string(),
    };
    COMPILER.with(|cell| {
        let compiler = cell
            .get_or_init(super::ffi::Compiler::new)
            .as_ref()
            .ok_or_else(|| fail("shaderc could not create a compiler".into()))?;
        compiler
            .compile(source, opt == Opt::Performance)
            .map_err(fail)
    })
}
