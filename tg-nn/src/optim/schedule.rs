//! Learning-rate schedules as plain functions of the step (or epoch): the caller sets the
//! optimizer's rate each step (`opt.set_lr(cosine(...))`), a runtime scalar, so changing it
//! never recompiles.

use std::f64::consts::PI;

/// `lr * gamma^(step / every)` (torch's `StepLR`).
pub fn step_decay(lr: f64, gamma: f64, every: u64, step: u64) -> f64 {
    let k = i32::try_from(step / every.max(1)).unwrap_or(i32::MAX);
    lr * gamma.powi(k)
}

/// From `lr` down to `min_lr` along half a cosine over `total` steps, `min_lr` after
/// (torch's `CosineAnnealingLR` without restarts).
pub fn cosine(lr: f64, min_lr: f64, total: u64, step: u64) -> f64 {
    if step >= total {
        return min_lr;
    }
    min_lr + (lr - min_lr) * 0.5 * (1.0 + (PI * step as f64 / total.max(1) as f64).cos())
}

/// A linear warmup from `lr / warmup` to `lr` over the first `warmup` steps, then `then`.
pub fn warmup(lr: f64, warmup: u64, step: u64, then: f64) -> f64 {
    if step < warmup {
        lr * (step + 1) as f64 / warmup as f64
    } else {
        then
    }
}
