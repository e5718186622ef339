//! Typed reshapes and axis reorders.

use std::any::type_name;

use super::check::{Permutation, Static};
use super::{flatten_to_type, reshape_to_type, signed_axes, target_sizes, unflatten_to_type};
use crate::dtype::Dtype;
use crate::shape::Shape;
use crate::shape::axis::{InsertAxis, RemoveAxis, SwapAxes};
use crate::shape::ops::{MaybeOne, PermuteAxes};
use crate::tensor::{Tensor, ok};
use tg_runtime::{Error, Result};

fn shape_err(op: &'static str, message: String) -> Error {
    Error::Shape { op, message }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// The same elements under the shape type `S2` (row-major). Static element counts must
    /// agree; one dynamic dim of `S2` is inferred.
    ///
    /// # A limit of stable Rust
    ///
    /// A type cannot compute `2 * 3 == 6` on stable Rust, so the element counts are compared
    /// after monomorphization: a wrong static reshape is an error of `cargo build` (and `cargo
    /// test`), not of `cargo check`, and rustc reports it in tg's `check.rs`, with the
    /// shapes first (`[2, 3] -> [4, 2]: reshape keeps the element count, ...`) and a note
    /// pointing at the call. Inside a `#[kernel]` function, `x.reshape([4, 2])` is checked while
    /// the macro expands: `cargo check` reports it at the call, also with const parameters
    /// (`[B, 784] -> [B, 28, 28]` holds for every `B`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<6>, i32>::from_slice(&[0, 1, 2, 3, 4, 5]).unwrap();
    /// let m: Tensor<Rank2<2, 3>, i32> = t.reshape();
    /// let d = t.reshape::<shape![_, 2]>();
    /// assert_eq!((m.dims(), d.dims()), (vec![2, 3], vec![3, 2]));
    /// ```
    #[track_caller]
    pub fn reshape<S2: Shape>(&self) -> Tensor<S2, T> {
        let () = Static::<S, S2>::RESHAPE;
        ok(self.try_reshape())
    }

    /// `reshape`, returning an error where the run finds the sizes do not fit.
    pub fn try_reshape<S2: Shape>(&self) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::RESHAPE;
        Tensor::try_from_dyn(reshape_to_type(self.as_dyn(), S2::DIMS, type_name::<S2>())?)
    }

    /// Reshapes to the shape value `shape` (for targets with several dynamic dims).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<6>>::from_slice(&[0.0; 6]).unwrap();
    /// let r = t.reshape_to::<shape![_, _]>((3, 2));
    /// assert_eq!(r.dims(), vec![3, 2]);
    /// ```
    #[track_caller]
    pub fn reshape_to<S2: Shape>(&self, shape: S2) -> Tensor<S2, T> {
        let () = Static::<S, S2>::RESHAPE_TO;
        ok(self.try_reshape_to(shape))
    }

    /// `reshape_to`, returning an error where the sizes do not fit.
    pub fn try_reshape_to<S2: Shape>(&self, shape: S2) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::RESHAPE_TO;
        Tensor::try_from_dyn(self.as_dyn().reshape(&signed_axes(&shape.dims()))?)
    }

    /// Reorders the axes by the permutation marker `P` (`Perm2`..`Perm6`, from
    /// `tg_ops::shape::ops`): output axis `i` is input axis `P_i`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::shape::ops::Perm3;
    /// let t = Tensor::<Rank3<2, 3, 4>>::from_slice(&[0.0; 24]).unwrap();
    /// let p: Tensor<Rank3<4, 2, 3>> = t.permute::<Perm3<2, 0, 1>>();
    /// assert_eq!(p.dims(), vec![4, 2, 3]);
    /// ```
    pub fn permute<P>(&self) -> Tensor<<S as PermuteAxes<P>>::Output, T>
    where
        S: PermuteAxes<P>,
    {
        let () = Permutation::<S, P>::DISTINCT;
        let order = signed_axes(<S as PermuteAxes<P>>::ORDER);
        Tensor::from_dyn(ok(self.as_dyn().permute(&order)))
    }

    /// Swaps axes `A` and `B`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 4>>::from_slice(&[0.0; 24]).unwrap();
    /// let s: Tensor<Rank3<4, 3, 2>> = t.transpose::<0, -1>();
    /// assert_eq!(s.dims(), vec![4, 3, 2]);
    /// ```
    pub fn transpose<const A: isize, const B: isize>(
        &self,
    ) -> Tensor<<S as SwapAxes<A, B>>::Output, T>
    where
        S: SwapAxes<A, B>,
    {
        Tensor::from_dyn(ok(self.as_dyn().transpose(A, B)))
    }

    /// The matrix transpose: swaps the last two axes (rank 2 or more).
    ///
    /// (`S2` is always inferred; it is a parameter so that a tensor of rank < 2 fails with
    /// the axis trait's message.)
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 2>, i32>::from_slice(&[1, 2, 3, 4]).unwrap();
    /// assert_eq!(t.t().to_vec().unwrap(), vec![1, 3, 2, 4]);
    /// ```
    pub fn t<S2: Shape>(&self) -> Tensor<S2, T>
    where
        S: SwapAxes<-2, -1, Output = S2>,
    {
        Tensor::from_dyn(ok(self.as_dyn().t()))
    }

    /// Removes axis `A`, which must have size 1 (`Const<1>`, or a dynamic dim a run checks).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 1, 3>>::from_slice(&[0.0; 6]).unwrap();
    /// let s: Tensor<Rank2<2, 3>> = t.squeeze::<1>();
    /// assert_eq!(s.dims(), vec![2, 3]);
    /// ```
    #[track_caller]
    pub fn squeeze<const A: isize>(&self) -> Tensor<<S as RemoveAxis<A>>::Output, T>
    where
        S: RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: MaybeOne,
    {
        ok(self.try_squeeze::<A>())
    }

    /// `squeeze`, returning an error where a dynamic axis turns out not to be 1.
    pub fn try_squeeze<const A: isize>(&self) -> Result<Tensor<<S as RemoveAxis<A>>::Output, T>>
    where
        S: RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: MaybeOne,
    {
        let n = self.dims()[<S as RemoveAxis<A>>::AXIS];
        if n != 1 {
            return Err(shape_err(
                "squeeze",
                format!("axis {A} of shape {:?} has size {n}, not 1", self.dims()),
            ));
        }
        Tensor::try_from_dyn(self.as_dyn().squeeze(Some(A))?)
    }

    /// Removes every size-1 axis, giving the shape type `S2` (which a run checks, as the
    /// type system cannot pick out the static 1s).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank4<1, 2, 1, 3>>::from_slice(&[0.0; 6]).unwrap();
    /// let s: Tensor<Rank2<2, 3>> = t.squeeze_all();
    /// assert_eq!(s.dims(), vec![2, 3]);
    /// ```
    #[track_caller]
    pub fn squeeze_all<S2: Shape>(&self) -> Tensor<S2, T> {
        let () = Static::<S, S2>::SQUEEZE_ALL;
        ok(self.try_squeeze_all())
    }

    /// `squeeze_all`, returning an error where the result does not fit `S2`.
    pub fn try_squeeze_all<S2: Shape>(&self) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::SQUEEZE_ALL;
        Tensor::try_from_dyn(self.as_dyn().squeeze(None)?)
    }

    /// Inserts a size-1 axis at `A` (`0..=rank`, or negative from the end).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[0.0; 3]).unwrap();
    /// let u: Tensor<Rank2<3, 1>> = t.unsqueeze::<-1>();
    /// assert_eq!(u.dims(), vec![3, 1]);
    /// ```
    pub fn unsqueeze<const A: isize>(&self) -> Tensor<<S as InsertAxis<A>>::Output, T>
    where
        S: InsertAxis<A>,
    {
        Tensor::from_dyn(ok(self.as_dyn().unsqueeze(A)))
    }

    /// All elements as one dynamic axis; `flatten_to` names a static result instead.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 3>>::from_slice(&[0.0; 6]).unwrap();
    /// let f: Tensor<(usize,)> = t.flatten();
    /// assert_eq!(f.dims(), vec![6]);
    /// ```
    pub fn flatten(&self) -> Tensor<(usize,), T> {
        Tensor::from_dyn(ok(self.as_dyn().flatten(0, -1)))
    }

    /// Merges a run of consecutive axes into one so that the result has shape type `S2`
    /// (e.g. `(B, C, H, W)` to `(B, C*H*W)`); which axes merge follows from the ranks and
    /// sizes. A dynamic dim of `S2` takes whatever size the merge gives.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank3<2, 3, 4>>::from_slice(&[0.0; 24]).unwrap();
    /// let f: Tensor<Rank2<2, 12>> = t.flatten_to();
    /// let g = t.flatten_to::<shape![_, 4]>();
    /// assert_eq!((f.dims(), g.dims()), (vec![2, 12], vec![6, 4]));
    /// ```
    #[track_caller]
    pub fn flatten_to<S2: Shape>(&self) -> Tensor<S2, T> {
        let () = Static::<S, S2>::FLATTEN_TO;
        ok(self.try_flatten_to())
    }

    /// `flatten_to`, returning an error where no merge of axes gives `S2`.
    pub fn try_flatten_to<S2: Shape>(&self) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::FLATTEN_TO;
        Tensor::try_from_dyn(flatten_to_type(self.as_dyn(), S2::DIMS, type_name::<S2>())?)
    }

    /// Splits one axis into several so that the result has shape type `S2` (the inverse of
    /// `flatten_to`); one dynamic dim among the new axes is inferred.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<2, 12>>::from_slice(&[0.0; 24]).unwrap();
    /// let u: Tensor<Rank3<2, 3, 4>> = t.unflatten_to();
    /// assert_eq!(u.dims(), vec![2, 3, 4]);
    /// ```
    #[track_caller]
    pub fn unflatten_to<S2: Shape>(&self) -> Tensor<S2, T> {
        let () = Static::<S, S2>::UNFLATTEN_TO;
        ok(self.try_unflatten_to())
    }

    /// `unflatten_to`, returning an error where no axis splits into `S2`.
    pub fn try_unflatten_to<S2: Shape>(&self) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::UNFLATTEN_TO;
        Tensor::try_from_dyn(unflatten_to_type(
            self.as_dyn(),
            S2::DIMS,
            type_name::<S2>(),
        )?)
    }

    /// Broadcasts to the shape type `S2` (numpy rules: new axes on the left, size-1 axes
    /// stretch); a dynamic dim of `S2` keeps the source's size. Static sizes that cannot
    /// broadcast fail when the code is built.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<1, 3>, i32>::from_slice(&[1, 2, 3]).unwrap();
    /// let b: Tensor<Rank3<2, 2, 3>, i32> = t.broadcast_to();
    /// assert_eq!(b.to_vec().unwrap()[..6], [1, 2, 3, 1, 2, 3]);
    /// ```
    ///
    /// This is the way to stretch a static size-1 axis outside `#[kernel]`: the operators'
    /// rank broadcasting (see [`Broadcast`](crate::Broadcast)) does not. Like `reshape`, a
    /// wrong static target is an error of `cargo build`, not `cargo check`.
    #[track_caller]
    pub fn broadcast_to<S2: Shape>(&self) -> Tensor<S2, T> {
        let () = Static::<S, S2>::BROADCAST_TO;
        ok(self.try_broadcast_to())
    }

    /// `broadcast_to`, returning an error where dynamic sizes do not broadcast.
    pub fn try_broadcast_to<S2: Shape>(&self) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::BROADCAST_TO;
        Tensor::try_from_dyn(self.as_dyn().expand(&target_sizes(S2::DIMS))?)
    }

    /// tinygrad's name for [`Tensor::broadcast_to`].
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, 2.0]).unwrap();
    /// let e: Tensor<Rank2<3, 2>> = t.expand();
    /// assert_eq!(e.to_vec().unwrap(), vec![1.0, 2.0, 1.0, 2.0, 1.0, 2.0]);
    /// ```
    #[track_caller]
    pub fn expand<S2: Shape>(&self) -> Tensor<S2, T> {
        let () = Static::<S, S2>::EXPAND;
        ok(self
            .as_dyn()
            .expand(&target_sizes(S2::DIMS))
            .and_then(Tensor::try_from_dyn))
    }

    /// Broadcasts to the shape value `shape` (for dynamic targets of new sizes).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[1.0, 2.0, 3.0]).unwrap();
    /// let b = t.expand_to::<shape![_, 3]>((4, Const));
    /// assert_eq!(b.dims(), vec![4, 3]);
    /// ```
    #[track_caller]
    pub fn expand_to<S2: Shape>(&self, shape: S2) -> Tensor<S2, T> {
        let () = Static::<S, S2>::EXPAND_TO;
        ok(self.try_expand_to(shape))
    }

    /// `expand_to`, returning an error where the sizes do not broadcast.
    pub fn try_expand_to<S2: Shape>(&self, shape: S2) -> Result<Tensor<S2, T>> {
        let () = Static::<S, S2>::EXPAND_TO;
        Tensor::try_from_dyn(self.as_dyn().broadcast_to(&shape.dims())?)
    }
}
