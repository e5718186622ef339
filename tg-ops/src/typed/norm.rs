//! Typed normalization: the shape is kept; a normalized axis is a const generic checked by
//! `cargo check`, and the statistics vectors of batchnorm have that axis's dim in their type.

use crate::dtype::{Dtype, Float};
use crate::shape::Shape;
use crate::shape::axis::SelectAxis;
use crate::tensor::{Tensor, ok};
use crate::typed::reduce::MeanDtype;
use tg_runtime::Result;

/// The dim of axis `A` of `S`.
pub type AxisDim<S, const A: isize> = <S as SelectAxis<A>>::Dim;

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Layer normalization over axis `A` (`(x - mean) / sqrt(var + eps)`); see
    /// `DynTensor::layernorm`. Integer inputs give f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<1, 2>>::from_slice(&[1.0, 3.0]).unwrap();
    /// assert_eq!(t.layernorm::<-1>(0.0).to_vec().unwrap(), vec![-1.0, 1.0]);
    /// ```
    pub fn layernorm<const A: isize>(&self, eps: f64) -> Tensor<S, <T as MeanDtype>::Output>
    where
        S: SelectAxis<A>,
        T: MeanDtype,
    {
        Tensor::from_dyn(ok(self.as_dyn().layernorm(&[A], eps)))
    }

    /// Layer normalization over several axes, checked by the run.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<1, 2, 1>>::from_slice(&[1.0, 3.0]).unwrap();
    /// assert_eq!(t.layernorm_axes(&[1, 2], 0.0).to_vec().unwrap(), vec![-1.0, 1.0]);
    /// ```
    #[track_caller]
    pub fn layernorm_axes(&self, axes: &[isize], eps: f64) -> Tensor<S, <T as MeanDtype>::Output>
    where
        T: MeanDtype,
    {
        ok(self.try_layernorm_axes(axes, eps))
    }

    /// `layernorm_axes`, returning an error for an axis out of range or listed twice.
    pub fn try_layernorm_axes(
        &self,
        axes: &[isize],
        eps: f64,
    ) -> Result<Tensor<S, <T as MeanDtype>::Output>>
    where
        T: MeanDtype,
    {
        Tensor::try_from_dyn(self.as_dyn().layernorm(axes, eps)?)
    }

    /// Batch normalization along axis `A` with given statistics: `(x - mean) * weight *
    /// invstd + bias`, each a vector of axis `A`'s size; see `DynTensor::batchnorm`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 10.0, 3.0, 20.0]).unwrap();
    /// let mean = Tensor::<Rank1<2>>::from_slice(&[2.0, 15.0]).unwrap();
    /// let invstd = Tensor::<Rank1<2>>::from_slice(&[1.0, 0.2]).unwrap();
    /// let y = x.batchnorm::<1>(None, None, &mean, &invstd);
    /// assert_eq!(y.to_vec().unwrap(), vec![-1.0, -1.0, 1.0, 1.0]);
    /// ```
    pub fn batchnorm<const A: isize>(
        &self,
        weight: Option<&Tensor<(AxisDim<S, A>,), T>>,
        bias: Option<&Tensor<(AxisDim<S, A>,), T>>,
        mean: &Tensor<(AxisDim<S, A>,), T>,
        invstd: &Tensor<(AxisDim<S, A>,), T>,
    ) -> Tensor<S, T>
    where
        S: SelectAxis<A>,
        T: Float,
    {
        Tensor::from_dyn(ok(self.as_dyn().batchnorm(
            weight.map(Tensor::as_dyn),
            bias.map(Tensor::as_dyn),
            mean.as_dyn(),
            invstd.as_dyn(),
            &[A],
        )))
    }
}
