//! Normalization: layernorm over any axes, and batchnorm with given statistics.

use super::DynTensor;
use tg_runtime::{Error, Result};

impl DynTensor {
    /// `(x - mean) / sqrt(var + eps)` with mean and (biased) variance over `axes`: layer
    /// normalization without the affine part (tinygrad's `layernorm`). Axes may be negative;
    /// the usual form normalizes the last axis, `&[-1]`.
    ///
    /// Composed of two means; the runtime computes both and the normalization of each row in
    /// one kernel when the axes are trailing. Integer and bool inputs give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 2], &[1.0f32, 3.0, 10.0, 10.0]).unwrap();
    /// let n = t.layernorm(&[-1], 0.0).unwrap();
    /// assert_eq!(n.to_vec::<f32>().unwrap()[..2], [-1.0, 1.0]);
    /// ```
    pub fn layernorm(&self, axes: &[isize], eps: f64) -> Result<DynTensor> {
        // the axes checked here, so that an error names layernorm rather than its mean
        tg_core::shape::reduce::reduce_axes("layernorm", self.shape(), Some(axes))?;
        let centered = self.sub(&self.mean(Some(axes), true)?)?;
        let var = centered.square()?.mean(Some(axes), true)?;
        centered.mul(&var.add(eps)?.rsqrt()?)
    }

    /// `(x - mean) * weight * invstd + bias`, with `mean`, `weight`, `bias` of the sizes of
    /// `axes` (usually the channel axis, `&[1]`) broadcast over the other axes: batch
    /// normalization with given statistics (tinygrad's `batchnorm`). `invstd` (`1 /
    /// sqrt(var + eps)`) has the sizes of `axes` too, or any shape that broadcasts against
    /// the input (tinygrad's rule: it is reshaped only when it has one axis per normalized
    /// axis). `weight` and `bias` are optional.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[1, 2, 2], &[1.0f32, 3.0, 10.0, 20.0]).unwrap();
    /// let mean = DynTensor::from_slice(&[2], &[2.0f32, 15.0]).unwrap();
    /// let invstd = DynTensor::from_slice(&[2], &[1.0f32, 0.2]).unwrap();
    /// let bias = DynTensor::from_slice(&[2], &[0.0f32, 100.0]).unwrap();
    /// let y = x.batchnorm(None, Some(&bias), &mean, &invstd, &[1]).unwrap();
    /// assert_eq!(y.to_vec::<f32>().unwrap(), vec![-1.0, 1.0, 99.0, 101.0]);
    /// ```
    pub fn batchnorm(
        &self,
        weight: Option<&DynTensor>,
        bias: Option<&DynTensor>,
        mean: &DynTensor,
        invstd: &DynTensor,
        axes: &[isize],
    ) -> Result<DynTensor> {
        const OP: &str = "batchnorm";
        let norm = tg_core::shape::distinct_axes(OP, axes, self.shape())?;
        // the sizes of the normalized axes in place, 1 elsewhere
        let shape: Vec<isize> = self
            .shape()
            .iter()
            .enumerate()
            .map(|(i, &s)| if norm.contains(&i) { s as isize } else { 1 })
            .collect();
        let per_axis = |t: &DynTensor, what: &str| {
            t.reshape(&shape).map_err(|_| Error::Shape {
                op: OP,
                message: format!(
                    "{what} of shape {:?} does not fit axes {axes:?} of input {:?}",
                    t.shape(),
                    self.shape()
                ),
            })
        };
        let mut x = self.sub(&per_axis(mean, "mean")?)?;
        if let Some(w) = weight {
            x = x.mul(&per_axis(w, "weight")?)?;
        }
        let inv = if invstd.ndim() == axes.len() {
            per_axis(invstd, "invstd")?
        } else {
            invstd.clone()
        };
        let x = x.mul(&inv)?;
        match bias {
            Some(b) => x.add(&per_axis(b, "bias")?),
            None => Ok(x),
        }
    }
}
