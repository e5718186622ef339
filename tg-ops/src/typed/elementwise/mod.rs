//! Typed elementwise ops: each computes its output type and calls one `DynTensor` op.
//!
//! Output dtypes, as trait bounds:
//! - Binary ops meet in tinygrad's least upper dtype ([`Promote`], the table
//!   in [`crate::untyped::elementwise`]); a Rust scalar is weak
//!   ([`WeakPromote`]): it takes the tensor's dtype, except that a float
//!   scalar with an integer or bool tensor gives f32 and an integer scalar with a bool tensor
//!   gives i32. [`Rhs`] says what may stand on the right of a tensor and what the two meet in.
//! - Float math (`exp`, `sigmoid`, `/` ...) returns [`FloatOf`] the dtype: floats keep
//!   theirs, integers and bool give f32 (tinygrad's default float).
//! - Arithmetic needs a [`Numeric`](crate::Numeric) result, bitwise ops a
//!   [`Bitwise`](crate::Bitwise) one, shifts an [`Int`](crate::Int) one; `bitcast` needs two
//!   types of one size ([`SameSize`]). Each bound names the offending type when it fails.
//!
//! Shapes: tensors on both sides of a binary op have one shape ([`SameShape`](crate::SameShape); the result
//! keeps the more static dims); broadcast first, or write the expression in `tensor!`/
//! `#[kernel]`, which broadcasts like numpy.

mod binary;
mod more_math;
mod unary;

use half::f16;

use crate::dtype::{Dtype, Float, Promote, WeakPromote};
use crate::shape::{Broadcast, Shape};
use crate::tensor::Tensor;
use crate::untyped::elementwise::Operand;

/// The float dtype float math on `Self` returns: floats keep theirs, integers and bool give
/// f32, tinygrad's default float.
pub trait FloatOf: Dtype {
    /// The float dtype.
    type Output: Float;
}

// The impls of `FloatOf` are generated from tg-core's `DType::float_of`: `dtype_impls.rs`.

/// What may stand on the right of a binary op with a `Tensor<S, T>`: a tensor (owned or
/// borrowed) of the same shape, or a Rust scalar. `Shape` and `Dtype` are the result's shape
/// and the dtype the two operands meet in.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an operand of an elementwise op with `Tensor<{S}, {T}>`",
    label = "expects a tensor of the same shape, or a Rust number or bool",
    note = "tensor operands broadcast by rank (aligned at the last axis, equal or dynamic dims); stretch a size-1 axis with `expand`, or use `#[kernel]`"
)]
pub trait Rhs<S: Shape, T: Dtype> {
    /// The shape of the result.
    type Shape: Shape;
    /// The dtype the operands meet in.
    type Dtype: Dtype;
    /// The operand as `DynTensor::binary_op` takes it.
    fn operand(&self) -> Operand<'_>;
}

impl<S, T, S2, T2> Rhs<S, T> for Tensor<S2, T2>
where
    S: Shape + Broadcast<S2>,
    S2: Shape,
    T: Dtype + Promote<T2>,
    T2: Dtype,
{
    type Shape = <S as Broadcast<S2>>::Output;
    type Dtype = <T as Promote<T2>>::Output;
    fn operand(&self) -> Operand<'_> {
        Operand::from(self.as_dyn())
    }
}

impl<S, T, S2, T2> Rhs<S, T> for &Tensor<S2, T2>
where
    S: Shape + Broadcast<S2>,
    S2: Shape,
    T: Dtype + Promote<T2>,
    T2: Dtype,
{
    type Shape = <S as Broadcast<S2>>::Output;
    type Dtype = <T as Promote<T2>>::Output;
    fn operand(&self) -> Operand<'_> {
        Operand::from(self.as_dyn())
    }
}

macro_rules! scalar_rhs {
    ($($t:ty),*) => {$(
        impl<S: Shape, T: Dtype + WeakPromote<$t>> Rhs<S, T> for $t {
            type Shape = S;
            type Dtype = <T as WeakPromote<$t>>::Output;
            fn operand(&self) -> Operand<'_> {
                Operand::from(*self)
            }
        }
    )*};
}

scalar_rhs!(bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, f32, f64);

/// Two element types of one size (and not bool), so that `bitcast` can reinterpret one as the
/// other.
#[diagnostic::on_unimplemented(
    message = "cannot bitcast `{Self}` to `{U}`: their sizes differ (or one is bool)",
    label = "bitcast needs two types of one size",
    note = "same-size groups: i8 u8; i16 u16 f16; i32 u32 f32; i64 u64 f64"
)]
pub trait SameSize<U: Dtype>: Dtype {}

macro_rules! same_size {
    ($([$($t:ty),*])*) => { $(same_size!(@group [$($t),*] [$($t),*]);)* };
    (@group [$($a:ty),*] $all:tt) => { $(same_size!(@row $a $all);)* };
    (@row $a:ty [$($b:ty),*]) => { $(#[diagnostic::do_not_recommend] impl SameSize<$b> for $a {})* };
}

same_size!([i8, u8] [i16, u16, f16] [i32, u32, f32] [i64, u64, f64]);
