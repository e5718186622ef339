//! `TG_DEBUG`: 1 prints kernel count and time per realize, 2 adds per-kernel GPU times,
//! 3 the schedule, 4 the GLSL of every kernel.

use std::sync::OnceLock;

/// The `TG_DEBUG` level (0 when unset), read once.
pub fn level() -> u32 {
    static LEVEL: OnceLock<u32> = OnceLock::new();
    *LEVEL.get_or_init(|| {
        crate::config::number(crate::config::Var::Debug)
            .map_or(0, |v| v.min(u64::from(u32::MAX)) as u32)
    })
}
