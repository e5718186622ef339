//! Type-level shape rules of the movement, reduction and matmul ops: what a permutation, a
//! squeeze, a two-axis reduction, a split, a diagonal or a matrix product makes of a shape.
//! Each is a trait whose `on_unimplemented` message names the op and the shapes, so a wrong
//! call is a `cargo check` error at the call.

use super::axis::SelectAxis;
use super::{Const, Dim, Shape};

#[rustfmt::skip]
mod impls;

/// A permutation of the axes of a rank-2 tensor (`A`, `B` may be negative, as numpy axes).
pub struct Perm2<const A: isize, const B: isize>;
/// A permutation of the axes of a rank-3 tensor: output axis `i` is input axis `P_i`.
pub struct Perm3<const A: isize, const B: isize, const C: isize>;
/// A permutation of the axes of a rank-4 tensor.
pub struct Perm4<const A: isize, const B: isize, const C: isize, const D: isize>;
/// A permutation of the axes of a rank-5 tensor.
pub struct Perm5<const A: isize, const B: isize, const C: isize, const D: isize, const E: isize>;
/// A permutation of the axes of a rank-6 tensor.
pub struct Perm6<
    const A: isize,
    const B: isize,
    const C: isize,
    const D: isize,
    const E: isize,
    const F: isize,
>;

/// The shape after reordering the axes by the permutation `P` (`Perm2`..`Perm6`).
/// `ORDER` is the normalized permutation; that no axis repeats is checked after
/// monomorphization and by the run. (The impls are `do_not_recommend`: a wrong marker fails
/// with this message, not with a list of impls.)
#[diagnostic::on_unimplemented(
    message = "permute: `{P}` is not a permutation of the axes of `{Self}`",
    label = "wrong number of axes, or an axis out of range",
    note = "name every axis once, with the marker of the tensor's rank: `Perm3<2, 0, 1>` for a rank-3 tensor"
)]
pub trait PermuteAxes<P>: Shape {
    /// The permutation, axes normalized.
    const ORDER: &'static [usize];
    /// The permuted shape.
    type Output: Shape;
}

macro_rules! permute_impl {
    ($perm:ident; $($d:ident $a:ident),*) => {
        #[diagnostic::do_not_recommend]
        impl<$($d: Dim,)* $(const $a: isize),*> PermuteAxes<$perm<$($a),*>> for ($($d,)*)
        where ($($d,)*): $(SelectAxis<$a> +)* Shape
        {
            const ORDER: &'static [usize] = &[$(<Self as SelectAxis<$a>>::AXIS),*];
            type Output = ($(<Self as SelectAxis<$a>>::Dim,)*);
        }
    };
}

permute_impl!(Perm2; D0 A, D1 B);
permute_impl!(Perm3; D0 A, D1 B, D2 C);
permute_impl!(Perm4; D0 A, D1 B, D2 C, D3 D);
permute_impl!(Perm5; D0 A, D1 B, D2 C, D3 D, D4 E);
permute_impl!(Perm6; D0 A, D1 B, D2 C, D3 D, D4 E, D5 F);

/// Whether `order` names each of `0..order.len()` once (for post-monomorphization checks).
pub const fn is_permutation(order: &[usize]) -> bool {
    let mut i = 0;
    while i < order.len() {
        if order[i] >= order.len() {
            return false;
        }
        let mut j = 0;
        while j < i {
            if order[j] == order[i] {
                return false;
            }
            j += 1;
        }
        i += 1;
    }
    true
}

/// A dimension that may be 1: `Const<1>`, or dynamic (then a run checks).
#[diagnostic::on_unimplemented(
    message = "squeeze: the axis has size `{Self}`, not 1",
    label = "only a size-1 axis can be squeezed",
    note = "use `reshape` to change the shape otherwise"
)]
pub trait MaybeOne: Dim {}
#[diagnostic::do_not_recommend]
impl MaybeOne for Const<1> {}
#[diagnostic::do_not_recommend]
impl MaybeOne for usize {}

/// The shape with axis `A` made dynamic: the result of ops whose size along `A` only a run
/// knows (split, chunk).
#[diagnostic::on_unimplemented(
    message = "axis {A} is out of range for a tensor of shape `{Self}`",
    label = "no axis {A} here",
    note = "axes count from 0, or from -1 at the last axis"
)]
pub trait DynAxis<const A: isize>: Shape {
    /// `A` normalized.
    const AXIS: usize;
    /// The shape with axis `A` dynamic.
    type Output: Shape;
}

/// The shape without two distinct axes `A` and `B` (two-axis reductions).
#[diagnostic::on_unimplemented(
    message = "axes {A} and {B} are not two distinct axes of a tensor of shape `{Self}`",
    label = "no such pair of axes here",
    note = "axes count from 0, or from -1 at the last axis; name two different axes"
)]
pub trait RemoveAxes2<const A: isize, const B: isize>: Shape {
    /// `A` and `B` normalized.
    const AXES: (usize, usize);
    /// The shape without the two axes.
    type Output: Shape;
}

/// The inner dimensions of a matrix product: equal, or at least one dynamic (a run checks).
#[diagnostic::on_unimplemented(
    message = "matmul: inner dimensions differ: `{Self}` vs `{K}`",
    label = "the last axis of the left operand must match the contracted axis of the right",
    note = "`a.matmul(&b)` contracts the last axis of `a` with the second-to-last axis of `b` (the only axis if `b` is 1-D)"
)]
pub trait MatmulInner<K: Dim>: Dim {}
#[diagnostic::do_not_recommend]
impl<const N: usize> MatmulInner<Const<N>> for Const<N> {}
#[diagnostic::do_not_recommend]
impl<const N: usize> MatmulInner<usize> for Const<N> {}
#[diagnostic::do_not_recommend]
impl<const N: usize> MatmulInner<Const<N>> for usize {}
#[diagnostic::do_not_recommend]
impl MatmulInner<usize> for usize {}

/// Batch dimensions of a matrix product, aligned from the right: equal, or at least one
/// dynamic.
#[diagnostic::on_unimplemented(
    message = "matmul: batch dimensions differ: `{Self}` vs `{D}`",
    label = "typed matmul needs equal batch dimensions",
    note = "expand a size-1 batch axis first (`broadcast_to`), or use `DynTensor::matmul`, which broadcasts batch axes like numpy"
)]
pub trait MatmulBatch<D: Dim>: Dim {}
#[diagnostic::do_not_recommend]
impl<const N: usize> MatmulBatch<Const<N>> for Const<N> {}
#[diagnostic::do_not_recommend]
impl<const N: usize> MatmulBatch<usize> for Const<N> {}
#[diagnostic::do_not_recommend]
impl<const N: usize> MatmulBatch<Const<N>> for usize {}
#[diagnostic::do_not_recommend]
impl MatmulBatch<usize> for usize {}

/// The more static of two dimensions that `MatmulBatch` checks: never fails, so that computing
/// an output shape raises no error of its own.
#[doc(hidden)]
pub trait MoreStatic<D: Dim>: Dim {
    type Output: Dim;
}
impl<const N: usize, const M: usize> MoreStatic<Const<M>> for Const<N> {
    type Output = Const<N>;
}
impl<const N: usize> MoreStatic<usize> for Const<N> {
    type Output = Const<N>;
}
impl<const N: usize> MoreStatic<Const<N>> for usize {
    type Output = Const<N>;
}
impl MoreStatic<usize> for usize {
    type Output = usize;
}

/// The shape of `Self @ Rhs` (numpy's matmul: 1-D operands are vectors, leading axes are
/// batch axes), for ranks 1 to 4 on each side.
///
/// It has one impl, over `MatMulCheck` (the rules, whose failures name the inner or batch
/// dimensions that differ) and `MatMulShape` (the output, which never fails): with a single
/// impl, rustc reports the rule that fails rather than listing impls.
pub trait MatMul<Rhs: Shape>: Shape {
    /// The shape of the product.
    type Output: Shape;
}

impl<S: MatMulCheck<R> + MatMulShape<R>, R: Shape> MatMul<R> for S {
    type Output = <S as MatMulShape<R>>::Output;
}

/// The rules of `Self @ Rhs`, per pair of ranks (generated in `impls.rs`).
#[doc(hidden)]
pub trait MatMulCheck<Rhs: Shape>: Shape {}

/// The output shape of `Self @ Rhs`, per pair of ranks (generated in `impls.rs`); defined for
/// every pair, so that only `MatMulCheck` reports errors.
#[doc(hidden)]
pub trait MatMulShape<Rhs: Shape>: Shape {
    type Output: Shape;
}

/// Never implemented: the bound of the `MatMul` impls for ranks the typed matmul does not take
/// (0, 5, 6), so that such a call fails with this message. (A left operand of such a rank
/// fails earlier, at method lookup: "the method `matmul` exists ... but its trait bounds were
/// not satisfied".)
#[diagnostic::on_unimplemented(
    message = "matmul: the typed matmul takes operands of rank 1 to 4, not `{Self}` and `{Rhs}`",
    label = "an operand of rank 0 or above 4",
    note = "use `DynTensor::matmul` for more batch axes, and `*` to scale by a scalar"
)]
pub trait MatmulRanks<Rhs> {}

/// The last two dimensions of a tensor whose diagonal is taken: equal, or one dynamic.
#[diagnostic::on_unimplemented(
    message = "diagonal: the last two axes have sizes `{Self}` and `{C}`, not a square matrix",
    label = "typed diagonal() needs square matrices",
    note = "use `DynTensor::diagonal` for offsets and rectangular matrices"
)]
pub trait SquareDims<C: Dim>: Dim {
    /// The dimension of the diagonal.
    type Output: Dim;
}
#[diagnostic::do_not_recommend]
impl<const N: usize> SquareDims<Const<N>> for Const<N> {
    type Output = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<const N: usize> SquareDims<usize> for Const<N> {
    type Output = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<const N: usize> SquareDims<Const<N>> for usize {
    type Output = Const<N>;
}
#[diagnostic::do_not_recommend]
impl SquareDims<usize> for usize {
    type Output = usize;
}

/// The shape of the main diagonal of the square matrices in the last two axes: the batch
/// axes, then the diagonal. (The impls are `do_not_recommend`: a shape of the wrong rank or
/// with rectangular matrices fails with this message, not with a list of impls.)
#[diagnostic::on_unimplemented(
    message = "diagonal: a tensor of shape `{Self}` has no square matrices in its last two axes",
    label = "typed diagonal() needs square matrices, in a tensor of rank 2 to 6",
    note = "use `DynTensor::diagonal` for offsets and rectangular matrices"
)]
pub trait Diagonal: Shape {
    /// The batch axes, then the diagonal.
    type Output: Shape;
}

macro_rules! diagonal_impl {
    ($($b:ident),*) => {
        #[diagnostic::do_not_recommend]
        impl<$($b: Dim,)* R: SquareDims<C>, C: Dim> Diagonal for ($($b,)* R, C) {
            type Output = ($($b,)* <R as SquareDims<C>>::Output,);
        }
    };
}

diagonal_impl!();
diagonal_impl!(B0);
diagonal_impl!(B0, B1);
diagonal_impl!(B0, B1, B2);
diagonal_impl!(B0, B1, B2, B3);
