//! Gradient clipping, by global norm and by value, on lists of gradients (before an
//! optimizer's `update`).

use tg_ops::DynTensor;
use tg_runtime::{Error, Result};

/// The gradients scaled by `min(1, max_norm / (norm + 1e-6))`, `norm` the 2-norm of all of
/// them together (torch's `clip_grad_norm_`), and that norm (a scalar tensor). Lazy: no
/// value is read on the host, so a recorded step clips on the device.
pub fn clip_grad_norm(grads: &[DynTensor], max_norm: f64) -> Result<(Vec<DynTensor>, DynTensor)> {
    if max_norm.is_nan() || max_norm <= 0.0 {
        return Err(Error::Argument {
            op: "clip_grad_norm",
            message: format!("max_norm = {max_norm} must be positive"),
        });
    }
    let mut total: Option<DynTensor> = None;
    for g in grads {
        let s = g.square()?.sum(None, false)?;
        total = Some(match total {
            Some(t) => t.add(&s)?,
            None => s,
        });
    }
    let Some(total) = total else {
        return Ok((Vec::new(), DynTensor::zeros(&[], tg_runtime::DType::F32)?));
    };
    let norm = total.sqrt()?;
    let scale = norm.add(1e-6)?.reciprocal()?.mul(max_norm)?.minimum(1.0)?;
    let clipped = grads
        .iter()
        .map(|g| g.mul(scale.cast(g.dtype())))
        .collect::<Result<Vec<_>>>()?;
    Ok((clipped, norm))
}

/// Each gradient clamped into `[-value, value]`.
pub fn clip_grad_value(grads: &[DynTensor], value: f64) -> Result<Vec<DynTensor>> {
    if value.is_nan() || value < 0.0 {
        return Err(Error::Argument {
            op: "clip_grad_value",
            message: format!("value = {value} must not be negative"),
        });
    }
    grads
        .iter()
        .map(|g| g.clip(Some((-value).into()), Some(value.into())))
        .collect()
}
