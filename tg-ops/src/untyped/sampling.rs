//! Ops that draw from the process-wide random stream over a tensor: `multinomial` (indices
//! sampled by weight, as tinygrad's) and `dropout`. In a `#[kernel]` or a replayed step the
//! draws are vars of the recording, so every replay draws fresh numbers: the same ones an
//! eager run with the same seed draws.

use tg_runtime::{DType, Error, Result};

use crate::untyped::DynTensor;

impl DynTensor {
    /// `num_samples` indices sampled from each row of non-negative weights (a 1-D tensor, or
    /// rows of a 2-D one), as tinygrad's `multinomial`: with replacement, each sample is the
    /// number of entries of the row's normalized cumulative sum at or below a uniform draw
    /// (`rand(num_samples, rows, 1)`, so a seed gives tinygrad's indices); without
    /// replacement (at most the row's length), the Efraimidis-Spirakis keys `log2(u) / w`
    /// and their top `num_samples`. i32 indices of shape `[num_samples]` or
    /// `[rows, num_samples]`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let w = DynTensor::from_slice(&[4], &[0.0f32, 1.0, 0.0, 0.0]).unwrap();
    /// let s = w.multinomial(5, true).unwrap();
    /// assert_eq!(s.to_vec::<i32>().unwrap(), vec![1; 5]);
    /// ```
    pub fn multinomial(&self, num_samples: usize, replacement: bool) -> Result<DynTensor> {
        const OP: &str = "multinomial";
        if !(1..=2).contains(&self.ndim()) || num_samples == 0 {
            return Err(Error::Argument {
                op: OP,
                message: format!(
                    "takes weights of rank 1 or 2 and at least one sample; got shape {:?} and {num_samples} samples",
                    self.shape()
                ),
            });
        }
        let weight = if self.ndim() == 1 {
            self.unsqueeze(0)?
        } else {
            self.clone()
        };
        let (rows, cols) = (weight.shape()[0], weight.shape()[1]);
        if !replacement && num_samples > cols {
            return Err(Error::Argument {
                op: OP,
                message: format!(
                    "{num_samples} samples without replacement from rows of {cols} weights"
                ),
            });
        }
        let indices = if replacement || num_samples == 1 {
            let cw = weight.cumsum(1)?.cast(DType::F32);
            let total = cw.shrink(&[(0, rows), (cols - 1, cols)])?;
            let cdf = cw.div(&total)?;
            let u = DynTensor::rand(&[num_samples, rows, 1], DType::F32)?;
            u.ge(&cdf)?.sum(Some(&[2]), false)?.permute(&[1, 0])?
        } else {
            let keys = weight.rand_like_as(DType::F32)?.log2()?.div(&weight)?;
            keys.topk(num_samples, 1, true)?.1
        };
        let indices = indices.cast(DType::I32);
        if self.ndim() == 1 {
            indices.squeeze(Some(0))
        } else {
            Ok(indices)
        }
    }

    /// Uniform `[0, 1)` draws of this tensor's shape in `dtype`.
    fn rand_like_as(&self, dtype: DType) -> Result<DynTensor> {
        DynTensor::rand(self.shape(), dtype)
    }

    /// Each value kept with probability `1 - p` and scaled by `1 / (1 - p)`, else zeroed
    /// (tinygrad's `dropout` while training; `p` in `[0, 1)`, and 0 keeps everything).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[1.0f32, 2.0, 3.0]).unwrap();
    /// assert_eq!(x.dropout(0.0).unwrap().to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0]);
    /// let y = x.dropout(0.5).unwrap().to_vec::<f32>().unwrap();
    /// assert!(y.iter().zip([1.0, 2.0, 3.0]).all(|(a, b)| *a == 0.0 || *a == 2.0 * b));
    /// ```
    pub fn dropout(&self, p: f64) -> Result<DynTensor> {
        if !(0.0..1.0).contains(&p) {
            return Err(Error::Argument {
                op: "dropout",
                message: format!("p = {p} is not in [0, 1)"),
            });
        }
        if p == 0.0 {
            return Ok(self.clone());
        }
        let keep = self.rand_like()?.ge(p)?;
        keep.where_(self, 0.0)?.mul(1.0 / (1.0 - p))
    }
}
