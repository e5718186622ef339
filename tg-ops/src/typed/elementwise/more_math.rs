//! Typed forms of `fmod`, `copysign`, `logaddexp` and `masked_fill` (`log10` is generated
//! from the op table): each computes its output type as the older elementwise ops do and calls
//! one `DynTensor` op.

use super::{FloatOf, Rhs};
use crate::dtype::{Dtype, Numeric};
use crate::shape::{Broadcast, Shape};
use crate::tensor::{Tensor, ok};
use tg_runtime::Result;

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// C's `fmod`, the remainder with the dividend's sign, with a tensor of the same shape or
    /// a scalar; the result has the dtype the two meet in (see
    /// [`DynTensor::fmod`](crate::DynTensor::fmod)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, i32>::from_slice(&[7, -7]).unwrap();
    /// assert_eq!(t.fmod(3).to_vec().unwrap(), vec![1, -1]);
    /// ```
    pub fn fmod<R: Rhs<S, T>>(&self, rhs: R) -> Tensor<R::Shape, R::Dtype>
    where
        R::Dtype: Numeric,
    {
        Tensor::from_dyn(ok(self.as_dyn().fmod(rhs.operand())))
    }

    /// `|self|` with the sign (bit, for floats) of `rhs`, a tensor of the same shape or a
    /// scalar; the result has the dtype the two meet in (see
    /// [`DynTensor::copysign`](crate::DynTensor::copysign)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.5, -2.0]).unwrap();
    /// assert_eq!(t.copysign(-0.0f32).to_vec().unwrap(), vec![-1.5, -2.0]);
    /// ```
    pub fn copysign<R: Rhs<S, T>>(&self, rhs: R) -> Tensor<R::Shape, R::Dtype>
    where
        R::Dtype: Numeric,
    {
        Tensor::from_dyn(ok(self.as_dyn().copysign(rhs.operand())))
    }

    /// `ln(e^self + e^rhs)`, stable, with a tensor of the same shape or a scalar; the result
    /// is the float dtype of the two's least upper dtype (see
    /// [`DynTensor::logaddexp`](crate::DynTensor::logaddexp)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[0.0, 1000.0]).unwrap();
    /// let y = t.logaddexp(0.0f32).to_vec().unwrap();
    /// assert!((y[0] - std::f32::consts::LN_2).abs() < 1e-7 && y[1] == 1000.0);
    /// ```
    pub fn logaddexp<R: Rhs<S, T>>(&self, rhs: R) -> Tensor<R::Shape, <R::Dtype as FloatOf>::Output>
    where
        R::Dtype: FloatOf,
    {
        Tensor::from_dyn(ok(self.as_dyn().logaddexp(rhs.operand())))
    }

    /// `value` where `mask` is true, `self` elsewhere. The mask and a tensor value broadcast
    /// to `self`'s shape by rank (a shape that would grow `self` does not compile); the dtype
    /// is the one `self` and `value` meet in (see
    /// [`DynTensor::masked_fill`](crate::DynTensor::masked_fill)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let m = Tensor::<Rank1<2>, bool>::from_slice(&[false, true]).unwrap();
    /// assert_eq!(t.masked_fill(&m, 0.0f32).to_vec().unwrap(), vec![1.0, 0.0, 3.0, 0.0]);
    /// ```
    pub fn masked_fill<M, V>(&self, mask: &Tensor<M, bool>, value: V) -> Tensor<S, V::Dtype>
    where
        M: Shape,
        S: Broadcast<M, Output = S>,
        V: Rhs<S, T, Shape = S>,
    {
        ok(self.try_masked_fill(mask, value))
    }

    /// `masked_fill`, returning an error where dynamic dims do not broadcast.
    pub fn try_masked_fill<M, V>(
        &self,
        mask: &Tensor<M, bool>,
        value: V,
    ) -> Result<Tensor<S, V::Dtype>>
    where
        M: Shape,
        S: Broadcast<M, Output = S>,
        V: Rhs<S, T, Shape = S>,
    {
        Tensor::try_from_dyn(self.as_dyn().masked_fill(mask.as_dyn(), value.operand())?)
    }
}
