//! Every environment variable tg reads, in one place, with one rule for switches.
//!
//! A switch is on when set to anything but an empty value, `0`, `false`, `off` or `no` (any
//! case): `TG_VALIDATION=1`, `TG_STAGING=yes` and `TG_LONG_TESTS=true` all turn theirs on.
//! The device reads its variables once, when it is created; the README's table lists them
//! all (a test checks it against [`Var::ALL`]).

/// A variable tg reads.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    /// The device: an index into `vkEnumeratePhysicalDevices` or part of a device name.
    Device,
    /// `cpu` or `gpu`: plan kernels as for that class of device, whatever the device is.
    DeviceClass,
    /// Switch: the Khronos validation layer, a message failing the call that caused it.
    Validation,
    /// 1 to 4: what each realize prints (see [`debug_level`]).
    Debug,
    /// The kernel cache folder, or `off`.
    CacheDir,
    /// Switch: compile shaders with optimisation.
    ShaderOpt,
    /// A SPIR-V bundle file to install at the first kernel (`tg_runtime::bundle`).
    Bundle,
    /// Switch: never compile, even with the compiler; a kernel missing from the bundles fails.
    BundleOnly,
    /// A bundle file every kernel this process compiles or loads is added to.
    BundleRecord,
    /// Switch: device-local buffers with staging copies even where memory is host-visible.
    Staging,
    /// Switch: CPU kernels read their inputs as storage buffers, not through uniform texel
    /// buffers (the GPU's way; to compare the two).
    StorageReads,
    /// A cap on the device memory tg's buffers hold (`512M`, `4G`).
    MemoryLimit,
    /// A smaller loop budget than the driver's.
    LoopBudget,
    /// `1`: search the shape of register-blocked tiles (at most 10 s per kernel class) and
    /// keep the choice in the cache folder; `cached`: use earlier choices, never search.
    Tune,
    /// Switch, tests: also run the long tests.
    LongTests,
    /// Seconds, tests: how long the soak test runs.
    SoakSeconds,
}

impl Var {
    /// Every variable, in the README's order.
    pub const ALL: [Var; 16] = [
        Var::Device,
        Var::DeviceClass,
        Var::Validation,
        Var::Debug,
        Var::CacheDir,
        Var::ShaderOpt,
        Var::Bundle,
        Var::BundleOnly,
        Var::BundleRecord,
        Var::Staging,
        Var::StorageReads,
        Var::MemoryLimit,
        Var::LoopBudget,
        Var::Tune,
        Var::LongTests,
        Var::SoakSeconds,
    ];

    /// The variable's name.
    pub const fn name(self) -> &'static str {
        match self {
            Var::Device => "TG_DEVICE",
            Var::DeviceClass => "TG_DEVICE_CLASS",
            Var::Validation => "TG_VALIDATION",
            Var::Debug => "TG_DEBUG",
            Var::CacheDir => "TG_CACHE_DIR",
            Var::ShaderOpt => "TG_SHADER_OPT",
            Var::Bundle => "TG_BUNDLE",
            Var::BundleOnly => "TG_BUNDLE_ONLY",
            Var::BundleRecord => "TG_BUNDLE_RECORD",
            Var::Staging => "TG_STAGING",
            Var::StorageReads => "TG_STORAGE_READS",
            Var::MemoryLimit => "TG_MEMORY_LIMIT",
            Var::LoopBudget => "TG_LOOP_BUDGET",
            Var::Tune => "TG_TUNE",
            Var::LongTests => "TG_LONG_TESTS",
            Var::SoakSeconds => "TG_SOAK_SECONDS",
        }
    }
}

/// The variable's value, if set and not empty.
pub fn text(var: Var) -> Option<String> {
    std::env::var(var.name())
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// The variable's raw value as the OS holds it (paths need not be UTF-8).
pub fn os_text(var: Var) -> Option<std::ffi::OsString> {
    std::env::var_os(var.name())
}

/// Is switch `var` on (see the module docs)?
pub fn switch(var: Var) -> bool {
    text(var).is_some_and(|v| is_on(&v))
}

/// The rule for switches: anything but off-words is on.
pub fn is_on(value: &str) -> bool {
    !matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "" | "0" | "false" | "off" | "no"
    )
}

/// The variable as a non-negative integer, if set to one.
pub fn number(var: Var) -> Option<u64> {
    text(var).and_then(|v| v.parse().ok())
}

/// The `TG_DEBUG` level (0 when unset), read once: 1 prints kernel count and time per
/// realize, 2 adds per-kernel GPU times, 3 the schedule, 4 the GLSL of every kernel.
pub fn debug_level() -> u32 {
    static LEVEL: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *LEVEL.get_or_init(|| number(Var::Debug).map_or(0, |v| v.min(u64::from(u32::MAX)) as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rule_for_switches() {
        for on in ["1", "true", "TRUE", "yes", "on", "2"] {
            assert!(is_on(on), "{on}");
        }
        for off in ["", "0", "false", "False", "off", "no", "  "] {
            assert!(!is_on(off), "{off:?}");
        }
    }

    #[test]
    fn the_readme_lists_every_variable() {
        let readme = include_str!("../../README.md");
        for var in Var::ALL {
            assert!(
                readme.contains(&format!("| `{}", var.name())),
                "README's environment table has no row for {}",
                var.name()
            );
        }
    }
}
