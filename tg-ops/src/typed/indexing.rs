//! Typed indexing. Index lists are values, so what they do to the shape only a run knows:
//! `index` takes its result shape from the caller (a dynamic `usize` dim accepts any size)
//! and checks it; `index_axis` computes it from a const axis; assignment keeps the shape.

use crate::dtype::Dtype;
use crate::shape::Shape;
use crate::shape::axis::RemoveAxis;
use crate::tensor::{Tensor, ok};
use crate::untyped::elementwise::Operand;
use crate::untyped::indexing::Index;
use tg_runtime::Result;

/// What can be assigned into a `Tensor<_, T>`: a tensor of element type `T` (any shape that
/// broadcasts to the selection; tinygrad requires the dtype to match) or a `T` scalar.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be assigned into a tensor of `{T}`",
    label = "expects a `{T}` scalar or a tensor of `{T}`",
    note = "setitem needs the tensor's own element type; cast the value first"
)]
pub trait IndexValue<T: Dtype> {
    /// The value as an operand of the assignment.
    fn operand(&self) -> Operand<'_>;
}

impl<T: Dtype> IndexValue<T> for T {
    fn operand(&self) -> Operand<'_> {
        Operand::Scalar(self.to_scalar())
    }
}

impl<S: Shape, T: Dtype> IndexValue<T> for Tensor<S, T> {
    fn operand(&self) -> Operand<'_> {
        Operand::from(self.as_dyn())
    }
}

impl<S: Shape, T: Dtype> IndexValue<T> for &Tensor<S, T> {
    fn operand(&self) -> Operand<'_> {
        Operand::from(self.as_dyn())
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// `self[indices]` (see [`DynTensor::index`](crate::DynTensor::index)), as the shape type
    /// `S2`; panics if the result does not fit `S2`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<3, 4>, i32>::from_slice(&(0..12).collect::<Vec<_>>()).unwrap();
    /// let r: Tensor<Rank2<2, 2>, i32> = t.index(&idx![1.., ..;2]);
    /// assert_eq!(r.to_vec().unwrap(), vec![4, 6, 8, 10]);
    /// let picks: Tensor<shape![_], i32> = t.index(&idx![.., 3]);
    /// assert_eq!(picks.to_vec().unwrap(), vec![3, 7, 11]);
    /// ```
    #[track_caller]
    pub fn index<S2: Shape>(&self, indices: &[Index]) -> Tensor<S2, T> {
        ok(self.try_index(indices))
    }

    /// `index`, returning an error for a bad index or a result that does not fit `S2`.
    pub fn try_index<S2: Shape>(&self, indices: &[Index]) -> Result<Tensor<S2, T>> {
        Tensor::try_from_dyn(self.as_dyn().index(indices)?)
    }

    /// Position `i` of axis `A` (negative counts from the end), that axis removed; panics if
    /// `i` is out of range.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>, i32>::from_slice(&[0, 1, 2, 3, 4, 5]).unwrap();
    /// let col: Tensor<Rank1<2>, i32> = t.index_axis::<1>(-1);
    /// assert_eq!(col.to_vec().unwrap(), vec![2, 5]);
    /// ```
    #[track_caller]
    pub fn index_axis<const A: isize>(&self, i: isize) -> Tensor<<S as RemoveAxis<A>>::Output, T>
    where
        S: RemoveAxis<A>,
    {
        let mut indices: Vec<Index> = (0..<S as RemoveAxis<A>>::AXIS)
            .map(|_| Index::full())
            .collect();
        indices.push(Index::Int(i));
        Tensor::from_dyn(ok(self.as_dyn().index(&indices)))
    }

    /// `self[indices] = value`, functionally (see
    /// [`DynTensor::setitem`](crate::DynTensor::setitem)); panics if the index is bad or the
    /// value does not broadcast to the selection.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<4>>::zeros();
    /// let u = t.setitem(&idx![1..3], 2.0);
    /// assert_eq!(u.to_vec().unwrap(), vec![0.0, 2.0, 2.0, 0.0]);
    /// ```
    #[track_caller]
    pub fn setitem(&self, indices: &[Index], value: impl IndexValue<T>) -> Tensor<S, T> {
        ok(self.try_setitem(indices, value))
    }

    /// `setitem`, returning the error.
    pub fn try_setitem(
        &self,
        indices: &[Index],
        value: impl IndexValue<T>,
    ) -> Result<Tensor<S, T>> {
        Tensor::try_from_dyn(self.as_dyn().setitem(indices, value.operand())?)
    }

    /// `self[indices] = value` in place (this tensor's graph is replaced; clones keep the old
    /// values). Where tensor indices repeat, the last write wins.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let mut t = Tensor::<Rank2<2, 2>, i32>::zeros();
    /// let v = Tensor::<Rank1<2>, i32>::from_slice(&[5, 6]).unwrap();
    /// t.assign_index(&idx![.., 0], &v);
    /// assert_eq!(t.to_vec().unwrap(), vec![5, 0, 6, 0]);
    /// ```
    #[track_caller]
    pub fn assign_index(&mut self, indices: &[Index], value: impl IndexValue<T>) {
        *self = self.setitem(indices, value);
    }

    /// `assign_index`, returning the error (and leaving the tensor unchanged).
    pub fn try_assign_index(&mut self, indices: &[Index], value: impl IndexValue<T>) -> Result<()> {
        *self = self.try_setitem(indices, value)?;
        Ok(())
    }
}
