//! numpy broadcasting and dtype promotion of operands.

use super::DynTensor;
use tg_core::decide;
use tg_core::shape::broadcast;
use tg_runtime::{DType, Result};

/// The numpy broadcast of shapes: align from the right, sizes equal or 1 (tg-core's rule).
pub fn broadcast_shapes(op: &'static str, shapes: &[&[usize]]) -> Result<Vec<usize>> {
    Ok(decide(|ck| broadcast::broadcast_all(ck, op, shapes))?)
}

impl DynTensor {
    /// Broadcasts to `shape` (numpy rules: new axes on the left, size-1 axes stretch).
    pub fn broadcast_to(&self, shape: &[usize]) -> Result<DynTensor> {
        if self.shape() == shape {
            return Ok(self.clone());
        }
        decide(|ck| broadcast::broadcast_to(ck, "broadcast_to", self.shape(), shape))?;
        let mut padded = vec![1usize; shape.len() - self.ndim()];
        padded.extend_from_slice(self.shape());
        Ok(DynTensor::wrap(self.lazy.reshape(&padded)?.expand(shape)?))
    }

    /// Both operands broadcast to one shape and cast to one dtype (`dtype`, or their least
    /// upper dtype).
    pub fn align(
        op: &'static str,
        a: &DynTensor,
        b: &DynTensor,
        dtype: Option<DType>,
    ) -> Result<(DynTensor, DynTensor)> {
        let shape = broadcast_shapes(op, &[a.shape(), b.shape()])?;
        let dt = dtype.unwrap_or_else(|| a.dtype().least_upper(b.dtype()));
        Ok((
            a.cast(dt).broadcast_to(&shape)?,
            b.cast(dt).broadcast_to(&shape)?,
        ))
    }
}
