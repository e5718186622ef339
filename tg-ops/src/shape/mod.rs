//! Shapes as types: tuples of dimensions, from rank 0 `()` to rank 6.
//!
//! A static dimension is `Const<N>`, a dynamic one `usize`; a tensor stores its shape value,
//! which is zero-sized when every dimension is static. Rules the type system can state on
//! stable Rust (equal shapes, matching inner dimensions, axes in range) are trait bounds with
//! `#[diagnostic::on_unimplemented]` messages; dimension arithmetic (reshape, concat, pad,
//! conv sizes) is checked by the `tensor!`/`#[kernel]` macros, and by a run for dynamic dims.

pub mod axis;
mod dim;
pub mod ops;

pub use dim::{Const, Dim, SameDim};

use std::fmt::Debug;

/// A tensor shape: a tuple of `Dim`s.
pub trait Shape: Copy + Debug + Send + Sync + 'static {
    /// The number of axes.
    const RANK: usize;
    /// The element count, when every dimension is static.
    const NUMEL: Option<usize>;
    /// Each dimension's static size (`None` where dynamic), for post-monomorphization checks.
    const DIMS: &'static [Option<usize>];
    /// The sizes.
    fn dims(&self) -> Vec<usize>;
    /// The shape with these sizes, if the static dimensions agree.
    fn from_dims(dims: &[usize]) -> Option<Self>;
    /// The shape with the sizes `dims[..RANK]`, which the caller has checked with
    /// [`dims_fit`]. (No `Option` and no bounds checks: this is compiled once per shape, so
    /// it stays a bare constructor.)
    #[doc(hidden)]
    fn from_checked_dims(dims: &[usize; MAX_RANK]) -> Self;
    /// The element count.
    fn numel(&self) -> usize {
        self.dims().iter().product()
    }
}

/// A shape whose dimensions are all static, so a value can be made from nothing.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has a dynamic dimension, and this op needs a static shape",
    label = "needs every dimension static (`Const<N>`)",
    note = "for dynamic dims, use the `_shape` form with a shape value, e.g. `zeros_shape((n, Const))` or `from_slice_shape((n, Const), &data)`"
)]
pub trait StaticShape: Shape + Default {}

/// Two shapes of one rank whose dimensions pairwise may match; `Output` keeps the static ones.
///
/// The impls are `do_not_recommend`, so that a mismatch (of a dimension or of the rank) fails
/// with this message, naming both shapes, rather than with a list of impls.
#[diagnostic::on_unimplemented(
    message = "shapes differ: `{Self}` and `{S}`",
    label = "the operands of this op need one shape",
    note = "elementwise ops need equal shapes; broadcast first (`expand`/`broadcast_to`), or use `tensor!`, which broadcasts like numpy"
)]
pub trait SameShape<S: Shape>: Shape {
    /// The shape, static wherever either operand's dim is.
    type Output: Shape;
}

/// The highest rank of a shape tuple.
pub const MAX_RANK: usize = 6;

/// `dims` in a fixed array (zeros after the rank), for `Shape::from_checked_dims`.
pub fn padded_dims(dims: &[usize]) -> [usize; MAX_RANK] {
    let mut out = [0; MAX_RANK];
    out[..dims.len()].copy_from_slice(dims);
    out
}

/// Whether `dims` has the rank of `want` and equals it wherever `want` is static.
pub fn dims_fit(dims: &[usize], want: &[Option<usize>]) -> bool {
    dims.len() == want.len()
        && dims
            .iter()
            .zip(want)
            .all(|(&d, w)| w.is_none_or(|w| w == d))
}

/// Product of optional sizes; `None` if any is unknown.
pub const fn numel_of(dims: &[Option<usize>]) -> Option<usize> {
    let mut n = 1;
    let mut i = 0;
    while i < dims.len() {
        match dims[i] {
            Some(d) => n *= d,
            None => return None,
        }
        i += 1;
    }
    Some(n)
}

/// numpy broadcasting of two shapes by rank: aligned at the last axis, aligned dims pairwise
/// `SameDim`, leading dims from the longer shape.
///
/// # A limit of stable Rust
///
/// A static size-1 axis does not stretch to another static size here: `Rank2<1, 3>` and
/// `Rank2<4, 3>` do not broadcast, since an impl for "1 against N" would overlap the one for
/// "N against N" (stable Rust has no specialization). Stretch it first with
/// [`Tensor::broadcast_to`](crate::Tensor::broadcast_to) (`a.broadcast_to::<Rank2<4, 3>>() +
/// &b`), or write the expression in a `#[kernel]` body, where `a + b` broadcasts as numpy does
/// (the macro knows the sizes).
#[diagnostic::on_unimplemented(
    message = "shapes `{Self}` and `{S}` do not broadcast",
    label = "this operand has shape `{Self}`",
    note = "aligned at the last axis, dimensions must be equal (or dynamic); stretch a size-1 axis with `expand`, or use `#[kernel]`, which broadcasts like numpy"
)]
pub trait Broadcast<S: Shape>: Shape {
    /// The broadcast shape.
    type Output: Shape;
}

macro_rules! tuple_shape {
    ($rank:literal; $($d:ident $e:ident $i:tt),*) => {
        impl<$($d: Dim),*> Shape for ($($d,)*) {
            const RANK: usize = $rank;
            const NUMEL: Option<usize> = numel_of(&[$($d::STATIC),*]);
            const DIMS: &'static [Option<usize>] = &[$($d::STATIC),*];
            fn dims(&self) -> Vec<usize> {
                [$(self.$i.size()),*].to_vec()
            }
            #[allow(unused_variables, unused_mut)]
            fn from_dims(dims: &[usize]) -> Option<Self> {
                // The check is one non-generic function; then each dim is built unchecked, so
                // that this function, compiled once per shape, stays small.
                if !dims_fit(dims, Self::DIMS) {
                    return None;
                }
                Some(Self::from_checked_dims(&padded_dims(dims)))
            }
            #[allow(unused_variables, clippy::unused_unit)]
            #[inline(always)]
            fn from_checked_dims(dims: &[usize; MAX_RANK]) -> Self {
                ($($d::from_checked_size(dims[$i]),)*)
            }
        }
        #[diagnostic::do_not_recommend]
        impl<$(const $d: usize),*> StaticShape for ($(Const<$d>,)*) {}
        #[diagnostic::do_not_recommend]
        impl<$($d: SameDim<$e>, $e: Dim),*> SameShape<($($e,)*)> for ($($d,)*) {
            type Output = ($(<$d as SameDim<$e>>::Output,)*);
        }
    };
}

tuple_shape!(0;);
tuple_shape!(1; A0 B0 0);
tuple_shape!(2; A0 B0 0, A1 B1 1);
tuple_shape!(3; A0 B0 0, A1 B1 1, A2 B2 2);
tuple_shape!(4; A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3);
tuple_shape!(5; A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4);
tuple_shape!(6; A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4, A5 B5 5);

/// Rank-0 shape (a scalar tensor).
pub type Rank0 = ();
/// A static rank-1 shape.
pub type Rank1<const A: usize> = (Const<A>,);
/// A static rank-2 shape.
pub type Rank2<const A: usize, const B: usize> = (Const<A>, Const<B>);
/// A static rank-3 shape.
pub type Rank3<const A: usize, const B: usize, const C: usize> = (Const<A>, Const<B>, Const<C>);
/// A static rank-4 shape.
pub type Rank4<const A: usize, const B: usize, const C: usize, const D: usize> =
    (Const<A>, Const<B>, Const<C>, Const<D>);
/// A static rank-5 shape.
pub type Rank5<const A: usize, const B: usize, const C: usize, const D: usize, const E: usize> =
    (Const<A>, Const<B>, Const<C>, Const<D>, Const<E>);
/// A static rank-6 shape.
pub type Rank6<
    const A: usize,
    const B: usize,
    const C: usize,
    const D: usize,
    const E: usize,
    const F: usize,
> = (Const<A>, Const<B>, Const<C>, Const<D>, Const<E>, Const<F>);

/// A shape type from a list of dimensions: a literal or const parameter is static, `_` is
/// dynamic. `shape![2, B, _]` is `(Const<2>, Const<B>, usize)`.
///
/// ```
/// use tg_ops::prelude::*;
/// let s: shape![2, _] = (Const, 5);
/// assert_eq!(s.dims(), vec![2, 5]);
/// ```
#[macro_export]
macro_rules! shape {
    (@dim _) => { usize };
    (@dim $d:literal) => { $crate::shape::Const<$d> };
    (@dim $d:ident) => { $crate::shape::Const<$d> };
    (@dim { $d:expr }) => { $crate::shape::Const<{ $d }> };
    ($($d:tt),* $(,)?) => { ($($crate::shape!(@dim $d),)*) };
}
#[rustfmt::skip]
mod axis_impls;
#[rustfmt::skip]
mod broadcast_impls;
