//! `select`: the slice of a tensor at one position of an axis, the position a value the
//! device reads (a scalar, a `#[kernel]`'s var, or a one-element tensor), so a recording made
//! for one position replays for every other.

use tg_runtime::Result;

use super::select::{one_hot_along, pick};
use crate::untyped::DynTensor;
use crate::untyped::elementwise::Operand;

impl DynTensor {
    /// `self` at position `index` of `axis`, that axis removed (kept with size 1 when
    /// `keepdim`): PyTorch's `select`, with the position read on the device. `index` is an
    /// integer scalar, a var (a `#[kernel]` scalar argument: a replay rebinds it, so one
    /// recording serves every position), or a one-element integer tensor. A negative position
    /// counts from the end; one out of range reads zeros (as a tensor index does). The values
    /// are a one-hot mask along the axis and a sum, so the result fuses with what reads it and
    /// its gradient flows to `self`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2, 3], &[1.0f32, 2., 3., 4., 5., 6.]).unwrap();
    /// assert_eq!(t.select(1, 2, false).unwrap().to_vec::<f32>().unwrap(), vec![3.0, 6.0]);
    /// assert_eq!(t.select(0, -1, true).unwrap().shape(), &[1, 3]);
    /// ```
    pub fn select<'a>(
        &self,
        axis: isize,
        index: impl Into<Operand<'a>>,
        keepdim: bool,
    ) -> Result<DynTensor> {
        const OP: &str = "select";
        let ax = crate::untyped::norm_axis(OP, axis, self.shape())?;
        let n = self.shape()[ax];
        let rank = self.ndim();
        let position = index.into().position(OP, &vec![1; rank])?;
        let dt = position.dtype().position_dtype();
        let position = position.cast(dt);
        let wrapped = position
            .lt(0)?
            .where_(position.add(n as i64)?.cast(dt), &position)?;
        let mask = one_hot_along(&wrapped, n, ax, rank)?;
        let picked = pick(&mask, self, &[ax])?;
        if keepdim {
            return Ok(picked);
        }
        let shape: Vec<isize> = self
            .shape()
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != ax)
            .map(|(_, &d)| d as isize)
            .collect();
        picked.reshape(&shape)
    }
}
