//! tinygrad's default initialisers of its layers, drawn from the process-wide random stream
//! (`DynTensor::manual_seed` makes a model's initial weights reproducible).

use tg_ops::DynTensor;
use tg_runtime::{DType, Result};

/// tinygrad's (and torch's) `a` for layer weights: `kaiming_uniform(a=sqrt(5))`, a uniform
/// bound of `1 / sqrt(fan_in)`.
pub const KAIMING_A: f64 = 2.236_067_977_499_79;

/// A trained tensor holding `init`'s values in a buffer of its own, realized now: a
/// recorded step ([`crate::replay::Replay`]) that met it unrealized would record its
/// initialisation and run it again at every replay.
pub fn parameter(init: &DynTensor) -> Result<DynTensor> {
    let p = DynTensor::parameter(init)?;
    p.realize()?;
    Ok(p)
}

/// A layer weight: kaiming uniform with `a = sqrt(5)` over `shape` (fan-in: the product of
/// all axes but the first), as a parameter.
pub fn weight(shape: &[usize]) -> Result<DynTensor> {
    parameter(&DynTensor::kaiming_uniform(shape, KAIMING_A, DType::F32)?)
}

/// A layer bias: uniform in `±1/sqrt(fan_in)`, as a parameter.
pub fn bias(len: usize, fan_in: usize) -> Result<DynTensor> {
    let bound = 1.0 / (fan_in.max(1) as f64).sqrt();
    parameter(&DynTensor::uniform(&[len], -bound, bound, DType::F32)?)
}

/// [`bias`] when the layer has one (`with`), else `None`.
pub fn bias_if(with: bool, len: usize, fan_in: usize) -> Result<Option<DynTensor>> {
    with.then(|| bias(len, fan_in)).transpose()
}

/// A parameter of `len` copies of `value` (norm layers' scales and shifts).
pub fn filled(len: usize, value: f32) -> Result<DynTensor> {
    parameter(&DynTensor::full(&[len], value, DType::F32)?)
}

/// A buffer (not trained) of `len` copies of `value` (running statistics).
pub fn buffer(shape: &[usize], value: f32, dtype: DType) -> Result<DynTensor> {
    let b = DynTensor::state(&DynTensor::full(shape, value, dtype)?)?;
    b.realize()?;
    Ok(b)
}
