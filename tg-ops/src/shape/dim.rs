//! Dimensions: `Const<N>` when the size is known at compile time, `usize` when only a run knows.

use std::fmt::Debug;

/// One dimension of a shape.
pub trait Dim: Copy + Debug + Send + Sync + 'static {
    /// The size, when it is part of the type.
    const STATIC: Option<usize>;
    /// The size (a `Const<N>` knows it without a value).
    fn size(&self) -> usize;
    /// The dimension of size `n`, if this type can have that size.
    fn from_size(n: usize) -> Option<Self>;
    /// The dimension of size `n`, which the caller has checked against `STATIC`. (No `Option`
    /// per dimension type: `Shape::from_dims` is compiled once per shape, and stays small.)
    #[doc(hidden)]
    fn from_checked_size(n: usize) -> Self;
}

/// A dimension of size `N`, known at compile time; zero-sized.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct Const<const N: usize>;

impl<const N: usize> Debug for Const<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{N}")
    }
}

impl<const N: usize> Dim for Const<N> {
    const STATIC: Option<usize> = Some(N);
    fn size(&self) -> usize {
        N
    }
    fn from_size(n: usize) -> Option<Self> {
        (n == N).then_some(Const)
    }
    #[inline(always)]
    fn from_checked_size(_: usize) -> Self {
        Const
    }
}

impl Dim for usize {
    const STATIC: Option<usize> = None;
    fn size(&self) -> usize {
        *self
    }
    fn from_size(n: usize) -> Option<Self> {
        Some(n)
    }
    #[inline(always)]
    fn from_checked_size(n: usize) -> Self {
        n
    }
}

/// Two dimensions that may be equal: both static and equal, or at least one dynamic (then a
/// run checks). `Output` is the more static of the two. (The impls are `do_not_recommend`, as
/// are those of the other shape and dtype rules, so that a failure shows the message below
/// rather than a list of impls.)
#[diagnostic::on_unimplemented(
    message = "dimension `{Self}` does not match dimension `{D}`",
    label = "these dimensions differ"
)]
pub trait SameDim<D: Dim>: Dim {
    /// The more static of the two.
    type Output: Dim;
}

#[diagnostic::do_not_recommend]
impl<const N: usize> SameDim<Const<N>> for Const<N> {
    type Output = Const<N>;
}
#[diagnostic::do_not_recommend]
impl SameDim<usize> for usize {
    type Output = usize;
}
#[diagnostic::do_not_recommend]
impl<const N: usize> SameDim<usize> for Const<N> {
    type Output = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<const N: usize> SameDim<Const<N>> for usize {
    type Output = Const<N>;
}
