//! Typed padding with a mode (reflect, replicate, circular, constant). The pads are values,
//! so the caller names the result shape `S2`; its rank is checked after monomorphization and
//! its sizes by the run.

use crate::dtype::Dtype;
use crate::shape::Shape;
use crate::tensor::{Tensor, ok};
use crate::untyped::pad_modes::PadMode;
use tg_runtime::Result;

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Pads each axis by `(before, after)` in `mode` (see
    /// [`DynTensor::pad_with`](crate::DynTensor::pad_with)), giving the shape type `S2`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>, i32>::from_slice(&[1, 2, 3]).unwrap();
    /// let p: Tensor<Rank1<5>, i32> = t.pad_with(&[(1, 1)], PadMode::Circular);
    /// assert_eq!(p.to_vec().unwrap(), vec![3, 1, 2, 3, 1]);
    /// ```
    #[track_caller]
    pub fn pad_with<S2: Shape>(&self, pads: &[(isize, isize)], mode: PadMode) -> Tensor<S2, T> {
        ok(self.try_pad_with(pads, mode))
    }

    /// `pad_with`, returning an error for bad pads or a result that does not fit `S2`.
    pub fn try_pad_with<S2: Shape>(
        &self,
        pads: &[(isize, isize)],
        mode: PadMode,
    ) -> Result<Tensor<S2, T>> {
        const {
            assert!(
                S2::RANK == S::RANK,
                "pad_with: the target must have the source's rank"
            )
        };
        Tensor::try_from_dyn(self.as_dyn().pad_with(pads, mode)?)
    }

    /// `pad_with` in torch's flat form (pairs from the last axis backwards).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<1, 3>>::from_slice(&[1.0, 2.0, 3.0]).unwrap();
    /// let p: Tensor<Rank2<1, 5>> = t.pad_flat_with(&[2, 0], PadMode::Reflect);
    /// assert_eq!(p.to_vec().unwrap(), vec![3.0, 2.0, 1.0, 2.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn pad_flat_with<S2: Shape>(&self, pads: &[isize], mode: PadMode) -> Tensor<S2, T> {
        ok(self.try_pad_flat_with(pads, mode))
    }

    /// `pad_flat_with`, returning the error.
    pub fn try_pad_flat_with<S2: Shape>(
        &self,
        pads: &[isize],
        mode: PadMode,
    ) -> Result<Tensor<S2, T>> {
        const {
            assert!(
                S2::RANK == S::RANK,
                "pad_flat_with: the target must have the source's rank"
            )
        };
        Tensor::try_from_dyn(self.as_dyn().pad_flat_with(pads, mode)?)
    }
}
