//! Typed joining and cutting along an axis: cat, concat, stack, split, split_every, chunk.

use super::check::AlongAxis;
use crate::dtype::Dtype;
use crate::shape::Shape;
use crate::shape::axis::{InsertAxis, SelectAxis};
use crate::shape::ops::DynAxis;
use crate::tensor::{Tensor, ok};
use crate::untyped::DynTensor;
use tg_runtime::Result;

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Concatenates `self` and `other` (of one type) along axis `A`, giving the shape type
    /// `S2`; for static shapes, `S2` is checked when the code is built.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = Tensor::<Rank2<1, 2>, i32>::from_slice(&[1, 2]).unwrap();
    /// let b = Tensor::<Rank2<1, 2>, i32>::from_slice(&[3, 4]).unwrap();
    /// let c: Tensor<Rank2<2, 2>, i32> = a.cat::<0, _>(&b);
    /// assert_eq!(c.to_vec().unwrap(), vec![1, 2, 3, 4]);
    /// ```
    #[track_caller]
    pub fn cat<const A: isize, S2: Shape>(&self, other: &Tensor<S, T>) -> Tensor<S2, T>
    where
        S: SelectAxis<A>,
    {
        let () = AlongAxis::<S, S2, A>::CAT;
        ok(self.try_cat::<A, S2>(other))
    }

    /// `cat`, returning an error where the result does not fit `S2`.
    pub fn try_cat<const A: isize, S2: Shape>(&self, other: &Tensor<S, T>) -> Result<Tensor<S2, T>>
    where
        S: SelectAxis<A>,
    {
        let () = AlongAxis::<S, S2, A>::CAT;
        Tensor::try_from_dyn(DynTensor::cat(
            &[self.as_dyn().clone(), other.as_dyn().clone()],
            A,
        )?)
    }

    /// Concatenates any number of tensors of one type along axis `A`, giving `S2` (checked
    /// by the run, as the count is a run-time value).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = Tensor::<Rank1<2>, i32>::from_slice(&[1, 2]).unwrap();
    /// let c = Tensor::concat::<0, shape![_]>(&[a.clone(), a.clone(), a]);
    /// assert_eq!(c.dims(), vec![6]);
    /// ```
    #[track_caller]
    pub fn concat<const A: isize, S2: Shape>(tensors: &[Tensor<S, T>]) -> Tensor<S2, T>
    where
        S: SelectAxis<A>,
    {
        let () = AlongAxis::<S, S2, A>::CONCAT;
        ok(Self::try_concat::<A, S2>(tensors))
    }

    /// `concat`, returning an error for an empty list or a result that does not fit `S2`.
    pub fn try_concat<const A: isize, S2: Shape>(tensors: &[Tensor<S, T>]) -> Result<Tensor<S2, T>>
    where
        S: SelectAxis<A>,
    {
        let () = AlongAxis::<S, S2, A>::CONCAT;
        let raw: Vec<DynTensor> = tensors.iter().map(|t| t.as_dyn().clone()).collect();
        Tensor::try_from_dyn(DynTensor::cat(&raw, A)?)
    }

    /// Joins tensors of one type along a new axis `A`, giving `S2` (its size along `A` is the
    /// number of tensors, checked by the run).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = Tensor::<Rank1<2>, i32>::from_slice(&[1, 2]).unwrap();
    /// let b = Tensor::<Rank1<2>, i32>::from_slice(&[3, 4]).unwrap();
    /// let s: Tensor<Rank2<2, 2>, i32> = Tensor::stack::<1, _>(&[a, b]);
    /// assert_eq!(s.to_vec().unwrap(), vec![1, 3, 2, 4]);
    /// ```
    #[track_caller]
    pub fn stack<const A: isize, S2: Shape>(tensors: &[Tensor<S, T>]) -> Tensor<S2, T>
    where
        S: InsertAxis<A>,
    {
        let () = AlongAxis::<S, S2, A>::STACK;
        ok(Self::try_stack::<A, S2>(tensors))
    }

    /// `stack`, returning an error for an empty list or a result that does not fit `S2`.
    pub fn try_stack<const A: isize, S2: Shape>(tensors: &[Tensor<S, T>]) -> Result<Tensor<S2, T>>
    where
        S: InsertAxis<A>,
    {
        let () = AlongAxis::<S, S2, A>::STACK;
        let raw: Vec<DynTensor> = tensors.iter().map(|t| t.as_dyn().clone()).collect();
        Tensor::try_from_dyn(DynTensor::stack(&raw, A)?)
    }

    /// Cuts axis `A` into consecutive pieces of `sizes` (summing to its size); the pieces
    /// have that axis dynamic.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<5>, i32>::from_slice(&[0, 1, 2, 3, 4]).unwrap();
    /// let parts: Vec<Tensor<(usize,), i32>> = t.split::<0>(&[2, 3]);
    /// assert_eq!(parts[1].to_vec().unwrap(), vec![2, 3, 4]);
    /// ```
    #[track_caller]
    pub fn split<const A: isize>(
        &self,
        sizes: &[usize],
    ) -> Vec<Tensor<<S as DynAxis<A>>::Output, T>>
    where
        S: DynAxis<A>,
    {
        ok(self.try_split::<A>(sizes))
    }

    /// `split`, returning an error where the sizes do not sum to the axis.
    pub fn try_split<const A: isize>(
        &self,
        sizes: &[usize],
    ) -> Result<Vec<Tensor<<S as DynAxis<A>>::Output, T>>>
    where
        S: DynAxis<A>,
    {
        self.as_dyn()
            .split(sizes, A)?
            .into_iter()
            .map(Tensor::try_from_dyn)
            .collect()
    }

    /// Cuts axis `A` into pieces of `size` (the last may be smaller).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<5, 2>>::from_slice(&[0.0; 10]).unwrap();
    /// let parts = t.split_every::<0>(2);
    /// assert_eq!(parts.iter().map(|p| p.dims()[0]).collect::<Vec<_>>(), vec![2, 2, 1]);
    /// ```
    #[track_caller]
    pub fn split_every<const A: isize>(
        &self,
        size: usize,
    ) -> Vec<Tensor<<S as DynAxis<A>>::Output, T>>
    where
        S: DynAxis<A>,
    {
        ok(self
            .as_dyn()
            .split_every(size, A)
            .and_then(|v| v.into_iter().map(Tensor::try_from_dyn).collect()))
    }

    /// Cuts axis `A` into `chunks` pieces of `ceil(size / chunks)` (the last smaller; there
    /// may be fewer pieces).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<11>>::from_slice(&[0.0; 11]).unwrap();
    /// assert_eq!(t.chunk::<0>(6).len(), 6);
    /// ```
    #[track_caller]
    pub fn chunk<const A: isize>(&self, chunks: usize) -> Vec<Tensor<<S as DynAxis<A>>::Output, T>>
    where
        S: DynAxis<A>,
    {
        ok(self
            .as_dyn()
            .chunk(chunks, A)
            .and_then(|v| v.into_iter().map(Tensor::try_from_dyn).collect()))
    }
}
