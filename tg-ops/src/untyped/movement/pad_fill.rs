//! `pad_to_with`: `pad_to` with a fill value, composed of `pad_to`'s size check and `pad`'s
//! constant fill, so each rule lives in one place.

use crate::untyped::DynTensor;
use tg_runtime::{Result, Scalar};

impl DynTensor {
    /// Pads with `value` at the end of each axis up to `shape` (`None` keeps an axis), as
    /// [`DynTensor::pad_to`] pads with zeros; the value is converted to the tensor's dtype, as
    /// `pad` converts it. A target of another rank is `Error::RankMismatch`, a smaller size
    /// `Error::Shape`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[1, 2], &[1i32, 2]).unwrap();
    /// let p = t.pad_to_with(&[Some(2), Some(3)], -1).unwrap();
    /// assert_eq!(p.to_vec::<i32>().unwrap(), vec![1, 2, -1, -1, -1, -1]);
    /// ```
    pub fn pad_to_with(
        &self,
        shape: &[Option<usize>],
        value: impl Into<Scalar>,
    ) -> Result<DynTensor> {
        let target = self.pad_to(shape)?;
        let pads: Vec<(isize, isize)> = target
            .shape()
            .iter()
            .zip(self.shape())
            .map(|(&n, &s)| (0, (n - s) as isize))
            .collect();
        self.pad(&pads, value)
    }
}
