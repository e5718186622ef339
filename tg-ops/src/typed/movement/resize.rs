//! Typed ops that change sizes or order within axes: pad, shrink, pad_to, shrink_to, flip,
//! roll, repeat, repeat_interleave, diagonal.

use super::check::{AlongAxis, Static};
use crate::dtype::Dtype;
use crate::shape::Shape;
use crate::shape::axis::SelectAxis;
use crate::shape::ops::Diagonal;
use crate::tensor::{Tensor, ok};
use tg_runtime::{Error, Result};

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Pads each axis by `(before, after)` elements of `value` (negative pads cut), giving the
    /// shape type `S2`, which the run checks.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, 2.0]).unwrap();
    /// let p: Tensor<Rank1<4>> = t.pad(&[(1, 1)], f32::NEG_INFINITY);
    /// assert_eq!(p.to_vec().unwrap(), vec![f32::NEG_INFINITY, 1.0, 2.0, f32::NEG_INFINITY]);
    /// ```
    #[track_caller]
    pub fn pad<S2: Shape>(&self, pads: &[(isize, isize)], value: T) -> Tensor<S2, T> {
        let () = Static::<S, S2>::PAD;
        ok(self.try_pad(pads, value))
    }

    /// `pad`, returning an error where the pads do not give `S2`.
    pub fn try_pad<S2: Shape>(&self, pads: &[(isize, isize)], value: T) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::PAD;
        Tensor::try_from_dyn(self.as_dyn().pad(pads, value.to_scalar())?)
    }

    /// Keeps `start..end` of each axis, giving the shape type `S2`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<4>, i32>::from_slice(&[1, 2, 3, 4]).unwrap();
    /// let s: Tensor<Rank1<2>, i32> = t.shrink(&[(1, 3)]);
    /// assert_eq!(s.to_vec().unwrap(), vec![2, 3]);
    /// ```
    #[track_caller]
    pub fn shrink<S2: Shape>(&self, ranges: &[(usize, usize)]) -> Tensor<S2, T> {
        let () = Static::<S, S2>::SHRINK;
        ok(self.try_shrink(ranges))
    }

    /// `shrink`, returning an error where the ranges do not give `S2`.
    pub fn try_shrink<S2: Shape>(&self, ranges: &[(usize, usize)]) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::SHRINK;
        Tensor::try_from_dyn(self.as_dyn().shrink(ranges)?)
    }

    /// Pads with zeros at the end of each axis up to `S2`; a dynamic dim of `S2` leaves its
    /// axis unchanged.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[1.0; 6]).unwrap();
    /// let p = t.pad_to::<shape![_, 4]>();
    /// assert_eq!(p.dims(), vec![2, 4]);
    /// ```
    #[track_caller]
    pub fn pad_to<S2: Shape>(&self) -> Tensor<S2, T> {
        let () = Static::<S, S2>::PAD_TO;
        ok(self.try_pad_to())
    }

    /// `pad_to`, returning an error where a dynamic source is larger than `S2`.
    pub fn try_pad_to<S2: Shape>(&self) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::PAD_TO;
        Tensor::try_from_dyn(self.as_dyn().pad_to(S2::DIMS)?)
    }

    /// Keeps the leading part of each axis, down to `S2`; a dynamic dim of `S2` leaves its
    /// axis unchanged.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<4, 3>>::from_slice(&[1.0; 12]).unwrap();
    /// let s: Tensor<Rank2<2, 3>> = t.shrink_to();
    /// assert_eq!(s.dims(), vec![2, 3]);
    /// ```
    #[track_caller]
    pub fn shrink_to<S2: Shape>(&self) -> Tensor<S2, T> {
        let () = Static::<S, S2>::SHRINK_TO;
        ok(self.try_shrink_to())
    }

    /// `shrink_to`, returning an error where a dynamic source is smaller than `S2`.
    pub fn try_shrink_to<S2: Shape>(&self) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::SHRINK_TO;
        Tensor::try_from_dyn(self.as_dyn().shrink_to(S2::DIMS)?)
    }

    /// Reverses axis `A`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>, i32>::from_slice(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.flip::<0>().to_vec().unwrap(), vec![3, 4, 1, 2]);
    /// ```
    pub fn flip<const A: isize>(&self) -> Tensor<S, T>
    where
        S: SelectAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().flip(&[A])))
    }

    /// Reverses the listed axes (checked by the run).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>, i32>::from_slice(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.flip_axes(&[0, 1]).to_vec().unwrap(), vec![4, 3, 2, 1]);
    /// ```
    #[track_caller]
    pub fn flip_axes(&self, axes: &[isize]) -> Tensor<S, T> {
        ok(self.try_flip_axes(axes))
    }

    /// `flip_axes`, returning an error for an axis out of range or named twice.
    pub fn try_flip_axes(&self, axes: &[isize]) -> Result<Tensor<S, T>> {
        Tensor::try_from_dyn(self.as_dyn().flip(axes)?)
    }

    /// Rotates axis `A` by `shift` elements (positive towards higher indices, wrapping).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<4>, i32>::from_slice(&[0, 1, 2, 3]).unwrap();
    /// assert_eq!(t.roll::<0>(-1).to_vec().unwrap(), vec![1, 2, 3, 0]);
    /// ```
    pub fn roll<const A: isize>(&self, shift: isize) -> Tensor<S, T>
    where
        S: SelectAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().roll(&[shift], Some(&[A]))))
    }

    /// Tiles the tensor `repeats[i]` times along each axis (new axes on the left when
    /// `repeats` is longer than the rank), giving the shape type `S2`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>, i32>::from_slice(&[1, 2]).unwrap();
    /// let r: Tensor<Rank2<2, 4>, i32> = t.repeat(&[2, 2]);
    /// assert_eq!(r.to_vec().unwrap(), vec![1, 2, 1, 2, 1, 2, 1, 2]);
    /// ```
    #[track_caller]
    pub fn repeat<S2: Shape>(&self, repeats: &[usize]) -> Tensor<S2, T> {
        let () = Static::<S, S2>::REPEAT;
        ok(self.try_repeat(repeats))
    }

    /// `repeat`, returning an error where the repeats do not give `S2`.
    pub fn try_repeat<S2: Shape>(&self, repeats: &[usize]) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::REPEAT;
        Tensor::try_from_dyn(self.as_dyn().repeat(repeats)?)
    }

    /// Repeats each element `repeats` times in place along axis `A`, giving `S2`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>, i32>::from_slice(&[1, 2, 3]).unwrap();
    /// let r: Tensor<Rank1<6>, i32> = t.repeat_interleave::<0, _>(2);
    /// assert_eq!(r.to_vec().unwrap(), vec![1, 1, 2, 2, 3, 3]);
    /// ```
    #[track_caller]
    pub fn repeat_interleave<const A: isize, S2: Shape>(&self, repeats: usize) -> Tensor<S2, T>
    where
        S: SelectAxis<A>,
    {
        let () = AlongAxis::<S, S2, A>::REPEAT_INTERLEAVE;
        ok(self.try_repeat_interleave::<A, S2>(repeats))
    }

    /// `repeat_interleave`, returning an error where the result does not fit `S2`.
    pub fn try_repeat_interleave<const A: isize, S2: Shape>(
        &self,
        repeats: usize,
    ) -> Result<Tensor<S2, T>>
    where
        S: SelectAxis<A>,
    {
        let () = AlongAxis::<S, S2, A>::REPEAT_INTERLEAVE;
        Tensor::try_from_dyn(self.as_dyn().repeat_interleave(repeats, Some(A))?)
    }

    /// The main diagonals of the square matrices in the last two axes, as the last axis.
    /// (`DynTensor::diagonal` takes offsets, other axes and rectangular matrices.)
    ///
    /// (`S2` is always inferred; it is a parameter so that a wrong shape fails with the
    /// `Diagonal` trait's message.)
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>, i32>::from_slice(&[1, 2, 3, 4]).unwrap();
    /// let d: Tensor<Rank1<2>, i32> = t.diagonal();
    /// assert_eq!(d.to_vec().unwrap(), vec![1, 4]);
    /// ```
    #[track_caller]
    pub fn diagonal<S2: Shape>(&self) -> Tensor<S2, T>
    where
        S: Diagonal<Output = S2>,
    {
        ok(self.try_diagonal())
    }

    /// `diagonal`, returning an error where dynamic sizes make a matrix not square.
    pub fn try_diagonal<S2: Shape>(&self) -> Result<Tensor<S2, T>>
    where
        S: Diagonal<Output = S2>,
    {
        let d = self.dims();
        let (r, c) = (d[d.len() - 2], d[d.len() - 1]);
        if r != c {
            return Err(Error::Shape {
                op: "diagonal",
                message: format!("the matrices of shape {d:?} are not square"),
            });
        }
        Tensor::try_from_dyn(self.as_dyn().diagonal(0, -2, -1)?)
    }
}
