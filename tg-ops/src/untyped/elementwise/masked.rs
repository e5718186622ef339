//! `masked_fill`: a value written where a bool mask is set, the rest kept.

use tg_runtime::{Error, Result};

use super::dtype_error;
use super::operand::{Operand, meet_shape};
use crate::untyped::DynTensor;

impl DynTensor {
    /// `value` where `mask` is true, `self` elsewhere: tinygrad's `mask.where(value, self)`.
    /// `mask` is a bool tensor and `value` a scalar or a tensor; both broadcast to `self`'s
    /// shape (one that would grow it is `Error::Shape`, as torch's `masked_fill`; tinygrad's
    /// `where` would broadcast `self` too). The dtype is the one `value` and `self` meet in, as
    /// `where_`'s operands meet (a weak scalar takes `self`'s dtype; a float scalar with an
    /// integer tensor gives f32, as in tinygrad; torch keeps `self`'s dtype).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2, 2], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// let m = DynTensor::from_slice(&[2], &[true, false]).unwrap();
    /// let y = x.masked_fill(&m, f32::NEG_INFINITY).unwrap();
    /// assert_eq!(y.to_vec::<f32>().unwrap(), vec![f32::NEG_INFINITY, 2.0, f32::NEG_INFINITY, 4.0]);
    /// ```
    pub fn masked_fill<'a>(
        &self,
        mask: &DynTensor,
        value: impl Into<Operand<'a>>,
    ) -> Result<DynTensor> {
        if !mask.dtype().is_bool() {
            return Err(dtype_error(
                "masked_fill",
                mask.dtype(),
                "the mask must be bool (compare to make one, e.g. `x.ne(0)`)",
            ));
        }
        let value = value.into();
        let shape = meet_shape("masked_fill", &[self.shape(), mask.shape()], &[&value])?;
        if shape != self.shape() {
            return Err(Error::Shape {
                op: "masked_fill",
                message: format!(
                    "the mask {:?} and value {} must broadcast to the tensor's shape {:?}, not grow it to {shape:?}",
                    mask.shape(),
                    value
                        .tensor()
                        .map_or_else(|| "(a scalar)".to_string(), |t| format!("{:?}", t.shape())),
                    self.shape(),
                ),
            });
        }
        mask.where_(value, self)
    }
}
