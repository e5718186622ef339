//! Typed ranges and position masks: arange, linspace, eye, triu, tril, one_hot. The element
//! type is the dtype (no inference from the arguments as in the untyped `arange`); static
//! sizes come from the shape type where they can.

use crate::dtype::{Dtype, Int, Numeric};
use crate::shape::axis::SelectAxis;
use crate::shape::{Const, Dim, Shape};
use crate::tensor::{Tensor, ok};
use crate::untyped::DynTensor;
use tg_runtime::Result;

/// The shape with one more axis, of dimension `D`, at the end (`one_hot`'s class axis).
#[diagnostic::on_unimplemented(
    message = "cannot add an axis to a tensor of shape `{Self}`",
    note = "tensors have at most 6 axes"
)]
pub trait AppendDim<D: Dim>: Shape {
    /// The shape with the new axis.
    type Output: Shape;
}

macro_rules! append_dim {
    ($($d:ident),*) => {
        impl<$($d: Dim,)* D: Dim> AppendDim<D> for ($($d,)*) {
            type Output = ($($d,)* D,);
        }
    };
}

append_dim!();
append_dim!(A0);
append_dim!(A0, A1);
append_dim!(A0, A1, A2);
append_dim!(A0, A1, A2, A3);
append_dim!(A0, A1, A2, A3, A4);

impl<N: Dim, T: Numeric> Tensor<(N,), T> {
    /// `start, start + step, ...` below `stop` (above it for a negative step), as `T`; the
    /// length must fit `N` (always, for a dynamic `N`). Panics for a zero step or a length
    /// that does not fit.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = Tensor::<shape![_], i32>::arange(10, 0, -3);
    /// assert_eq!(a.to_vec().unwrap(), vec![10, 7, 4, 1]);
    /// let b = Tensor::<Rank1<3>, f32>::arange(0.0, 1.5, 0.5);
    /// assert_eq!(b.to_vec().unwrap(), vec![0.0, 0.5, 1.0]);
    /// ```
    #[track_caller]
    pub fn arange(start: T, stop: T, step: T) -> Self {
        ok(Self::try_arange(start, stop, step))
    }

    /// `arange`, returning the error.
    pub fn try_arange(start: T, stop: T, step: T) -> Result<Self> {
        Tensor::try_from_dyn(DynTensor::arange(
            start.to_scalar(),
            stop.to_scalar(),
            step.to_scalar(),
            Some(T::DTYPE),
        )?)
    }

    /// `shape.0` values evenly spaced from `start` to `stop` inclusive (see
    /// [`DynTensor::linspace`]).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<shape![_]>::linspace_shape((3,), 0.0, 1.0);
    /// assert_eq!(t.to_vec().unwrap(), vec![0.0, 0.5, 1.0]);
    /// ```
    pub fn linspace_shape(shape: (N,), start: f64, stop: f64) -> Self {
        Tensor::from_dyn(ok(DynTensor::linspace(
            start,
            stop,
            shape.0.size(),
            Some(T::DTYPE),
        )))
    }
}

impl<const N: usize, T: Numeric> Tensor<(Const<N>,), T> {
    /// `N` values evenly spaced from `start` to `stop` inclusive.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<5>>::linspace(-1.0, 1.0);
    /// assert_eq!(t.to_vec().unwrap(), vec![-1.0, -0.5, 0.0, 0.5, 1.0]);
    /// ```
    pub fn linspace(start: f64, stop: f64) -> Self {
        Self::linspace_shape((Const,), start, stop)
    }
}

impl<R: Dim, C: Dim, T: Dtype> Tensor<(R, C), T> {
    /// The identity matrix of `shape` (ones where row == column).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let e = Tensor::<shape![_, 2], u8>::eye_shape((3, Const));
    /// assert_eq!(e.to_vec().unwrap(), vec![1, 0, 0, 1, 0, 0]);
    /// ```
    pub fn eye_shape(shape: (R, C)) -> Self {
        Tensor::from_dyn(ok(DynTensor::eye(
            shape.0.size(),
            Some(shape.1.size()),
            Some(T::DTYPE),
        )))
    }
}

impl<const R: usize, const C: usize, T: Dtype> Tensor<(Const<R>, Const<C>), T> {
    /// The `R` x `C` identity matrix.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let e = Tensor::<Rank2<2, 2>>::eye();
    /// assert_eq!(e.to_vec().unwrap(), vec![1.0, 0.0, 0.0, 1.0]);
    /// ```
    pub fn eye() -> Self {
        Self::eye_shape((Const, Const))
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// The upper triangle of the matrices in the last two axes (`col - row >= diagonal`
    /// kept, the rest 0).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>, i32>::from_slice(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.triu(0).to_vec().unwrap(), vec![1, 2, 0, 4]);
    /// ```
    pub fn triu(&self, diagonal: isize) -> Tensor<S, T>
    where
        S: SelectAxis<-2>,
    {
        Tensor::from_dyn(ok(self.as_dyn().triu(diagonal)))
    }

    /// The lower triangle of the matrices in the last two axes (`col - row <= diagonal`
    /// kept, the rest 0).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>, i32>::from_slice(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.tril(0).to_vec().unwrap(), vec![1, 0, 3, 4]);
    /// ```
    pub fn tril(&self, diagonal: isize) -> Tensor<S, T>
    where
        S: SelectAxis<-2>,
    {
        Tensor::from_dyn(ok(self.as_dyn().tril(diagonal)))
    }
}

impl<S: Shape, T: Int> Tensor<S, T> {
    /// One-hot rows of `C` classes in a new last axis, as i32 (values outside `0..C` give
    /// zero rows).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, u8>::from_slice(&[1, 0]).unwrap();
    /// let h: Tensor<Rank2<2, 3>, i32> = t.one_hot::<3>();
    /// assert_eq!(h.to_vec().unwrap(), vec![0, 1, 0, 1, 0, 0]);
    /// ```
    pub fn one_hot<const C: usize>(&self) -> Tensor<<S as AppendDim<Const<C>>>::Output, i32>
    where
        S: AppendDim<Const<C>>,
    {
        Tensor::from_dyn(ok(self.as_dyn().one_hot(C)))
    }

    /// One-hot rows of `num_classes` classes known at run time, in a new dynamic last axis.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, i32>::from_slice(&[1, 1]).unwrap();
    /// let h = t.one_hot_dyn(2);
    /// assert_eq!(h.dims(), vec![2, 2]);
    /// ```
    pub fn one_hot_dyn(&self, num_classes: usize) -> Tensor<<S as AppendDim<usize>>::Output, i32>
    where
        S: AppendDim<usize>,
    {
        Tensor::from_dyn(ok(self.as_dyn().one_hot(num_classes)))
    }
}
