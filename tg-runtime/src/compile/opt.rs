//! The optimisation level, part of both the disk cache's key and the bundle key: a build
//! without the compiler still needs it to find the SPIR-V the build machine made.

/// How hard shaderc optimizes. Zero is the default: on lavapipe `-O` measured no run-time gain
/// while costing up to seconds per unrolled kernel (see the project's shaderc notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    /// No optimisation (the default).
    Zero,
    /// `-O`, with `TG_SHADER_OPT`.
    Performance,
}

impl Opt {
    /// The `TG_SHADER_OPT` switch selects [`Opt::Performance`].
    pub fn from_env() -> Self {
        if crate::config::switch(crate::config::Var::ShaderOpt) {
            Opt::Performance
        } else {
            Opt::Zero
        }
    }

    /// Part of the cache and bundle keys.
    pub fn tag(self) -> &'static str {
        match self {
            Opt::Zero => "O0",
            Opt::Performance => "O",
        }
    }
}
