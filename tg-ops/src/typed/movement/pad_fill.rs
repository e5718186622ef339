//! Typed `pad_to_with`: `pad_to` with a fill value.

use super::check::Static;
use crate::dtype::Dtype;
use crate::shape::Shape;
use crate::tensor::{Tensor, ok};
use tg_runtime::Result;

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Pads with `value` at the end of each axis up to `S2`; a dynamic dim of `S2` leaves its
    /// axis unchanged (see [`DynTensor::pad_to_with`](crate::DynTensor::pad_to_with)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, i32>::from_slice(&[1, 2]).unwrap();
    /// let p: Tensor<Rank1<4>, i32> = t.pad_to_with(-1);
    /// assert_eq!(p.to_vec().unwrap(), vec![1, 2, -1, -1]);
    /// ```
    #[track_caller]
    pub fn pad_to_with<S2: Shape>(&self, value: T) -> Tensor<S2, T> {
        let () = Static::<S, S2>::PAD_TO;
        ok(self.try_pad_to_with(value))
    }

    /// `pad_to_with`, returning an error where a dynamic source is larger than `S2`.
    pub fn try_pad_to_with<S2: Shape>(&self, value: T) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::PAD_TO;
        Tensor::try_from_dyn(self.as_dyn().pad_to_with(S2::DIMS, value.to_scalar())?)
    }
}
