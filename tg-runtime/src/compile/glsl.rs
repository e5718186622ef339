//! Runs shaderc. Each thread keeps its own `shaderc::Compiler`, so threads compile in parallel
//! without sharing one (the brief for this module does not rely on shaderc's thread-safety claims).

use std::cell::OnceCell;

use crate::{Error, Result};

/// How hard shaderc optimizes. Zero is the default: on lavapipe `-O` measured no run-time gain
/// while costing up to seconds per unrolled kernel (see the project's shaderc notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Opt {
    Zero,
    Performance,
}

impl Opt {
    /// The `TG_SHADER_OPT` switch selects [`Opt::Performance`].
    pub(crate) fn from_env() -> Self {
        if crate::config::switch(crate::config::Var::ShaderOpt) {
            Opt::Performance
        } else {
            Opt::Zero
        }
    }

    /// Part of the cache key.
    pub(crate) fn tag(self) -> &'static str {
        match self {
            Opt::Zero => "O0",
            Opt::Performance => "O",
        }
    }
}

/// Everything besides the source that changes the SPIR-V shaderc produces; hashed into the key.
pub(crate) fn toolchain_tag() -> String {
    let (major, minor) = shaderc::get_spirv_version();
    format!("shaderc-rs 0.10 spirv-tools {major}.{minor} vulkan1.2 spirv1.5 glsl main")
}

thread_local! {
    static COMPILER: OnceCell<Option<shaderc::Compiler>> = const { OnceCell::new() };
}

/// Compiles a GLSL compute shader with entry point `main` to SPIR-V 1.5 for Vulkan 1.2.
pub(crate) fn compile(source: &str, opt: Opt) -> Result<Vec<u32>> {
    let fail = |message: String| Error::Compile {
        message,
        source_text: source.to_string(),
    };
    if source.contains('\0') {
        return Err(fail("the source contains a NUL byte".into()));
    }
    let mut options = shaderc::CompileOptions::new().map_err(|e| fail(e.to_string()))?;
    options.set_target_env(
        shaderc::TargetEnv::Vulkan,
        shaderc::EnvVersion::Vulkan1_2 as u32,
    );
    options.set_target_spirv(shaderc::SpirvVersion::V1_5);
    options.set_source_language(shaderc::SourceLanguage::GLSL);
    options.set_optimization_level(match opt {
        Opt::Zero => shaderc::OptimizationLevel::Zero,
        Opt::Performance => shaderc::OptimizationLevel::Performance,
    });
    COMPILER.with(|cell| {
        let compiler = cell
            .get_or_init(|| shaderc::Compiler::new().ok())
            .as_ref()
            .ok_or_else(|| fail("shaderc could not create a compiler".into()))?;
        let artifact = compiler
            .compile_into_spirv(
                source,
                shaderc::ShaderKind::Compute,
                "kernel.comp",
                "main",
                Some(&options),
            )
            .map_err(|e| fail(e.to_string()))?;
        Ok(artifact.as_binary().to_vec())
    })
}
