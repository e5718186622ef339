//! The operators on `Tensor`: `+ - * / % & | ^ << >>`, unary `-` and `!`.
//!
//! Each works on owned tensors and references, with a tensor of the same shape or a Rust
//! scalar on either side. The result's dtype is the one the operands meet in: tinygrad's least
//! upper dtype for two tensors ([`Promote`](crate::Promote); `i8 + u8` is `i16`, `f16 + f32`
//! is `f32`), the tensor's dtype for a scalar, except that a float scalar with an integer or
//! bool tensor gives f32 and an integer scalar with a bool tensor gives i32
//! ([`WeakPromote`]). `/` is true division (integers give f32, as in
//! tinygrad), `%` the remainder with the divisor's sign (Python's). Bounds on the result type
//! reject what the op does not define, naming the type: `+ - * / %` and `-x` need numbers,
//! `& | ^` and `!` integers or bool, `<< >>` integers.
//!
//! Tensor operands broadcast by rank (see [`Broadcast`](crate::Broadcast)): a static size-1
//! axis does not stretch to another static size outside `#[kernel]`; use `broadcast_to` first,
//! or a `#[kernel]` body, which broadcasts as numpy does.
//!
//! An unsuffixed literal on the left (`10 - &t`) fits several scalar types, so Rust asks for
//! a suffix (`10i8 - &t`) unless the result's type is written; on the right it falls back to
//! i32 or f64, which are weak, so `&t * 2` keeps `t`'s dtype.
//!
//! ```
//! use tg_ops::prelude::*;
//! let a = Tensor::<Rank1<3>, i8>::from_slice(&[1, -2, 3]).unwrap();
//! let b = Tensor::<Rank1<3>, u8>::from_slice(&[200, 2, 4]).unwrap();
//! let c: Tensor<Rank1<3>, i16> = &a + &b; // i8 and u8 meet in i16
//! assert_eq!(c.to_vec().unwrap(), vec![201, 0, 7]);
//! let d: Tensor<Rank1<3>, f32> = a.clone() / 2; // true division gives f32
//! assert_eq!(d.to_vec().unwrap(), vec![0.5, -1.0, 1.5]);
//! assert_eq!((10i8 - &a).to_vec().unwrap(), vec![9, 12, 7]); // a scalar takes the tensor's dtype
//! assert_eq!((-a % 3).to_vec().unwrap(), vec![2i8, 2, 0]);
//! ```

use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Neg, Not, Rem, Shl, Shr, Sub};

use half::f16;

use crate::dtype::{Bitwise, Dtype, Int, Numeric, WeakPromote};
use crate::shape::Shape;
use crate::tensor::{Tensor, ok};
use crate::typed::elementwise::{FloatOf, Rhs};
use crate::untyped::DynTensor;
use crate::untyped::elementwise::{Binary, Operand};

/// `lhs op rhs` through `DynTensor::binary_op`.
fn apply<'a, 'b, S: Shape, U: Dtype>(
    op: Binary,
    lhs: impl Into<Operand<'a>>,
    rhs: impl Into<Operand<'b>>,
) -> Tensor<S, U> {
    Tensor::from_dyn(ok(DynTensor::binary_op(op, lhs, rhs)))
}

/// `Tensor op R` and `&Tensor op R` for any [`Rhs`] `R`; the result has the promoted dtype,
/// which must satisfy `$bound`.
macro_rules! tensor_lhs {
    ($($tr:ident, $f:ident, $op:ident, $bound:ident;)*) => {$(
        impl<S: Shape, T: Dtype, R: Rhs<S, T>> $tr<R> for Tensor<S, T>
        where
            R::Dtype: $bound,
        {
            type Output = Tensor<R::Shape, R::Dtype>;
            fn $f(self, rhs: R) -> Self::Output {
                apply(Binary::$op, self.as_dyn(), rhs.operand())
            }
        }

        impl<S: Shape, T: Dtype, R: Rhs<S, T>> $tr<R> for &Tensor<S, T>
        where
            R::Dtype: $bound,
        {
            type Output = Tensor<R::Shape, R::Dtype>;
            fn $f(self, rhs: R) -> Self::Output {
                apply(Binary::$op, self.as_dyn(), rhs.operand())
            }
        }
    )*};
}

tensor_lhs! {
    Add, add, Add, Numeric;
    Sub, sub, Sub, Numeric;
    Mul, mul, Mul, Numeric;
    Rem, rem, Mod, Numeric;
    BitAnd, bitand, BitAnd, Bitwise;
    BitOr, bitor, BitOr, Bitwise;
    BitXor, bitxor, BitXor, Bitwise;
    Shl, shl, Shl, Int;
    Shr, shr, Shr, Int;
}

/// True division: the float dtype of the promoted dtype (integers give f32).
impl<S: Shape, T: Dtype, R: Rhs<S, T>> Div<R> for Tensor<S, T>
where
    R::Dtype: Numeric + FloatOf,
{
    type Output = Tensor<R::Shape, <R::Dtype as FloatOf>::Output>;
    fn div(self, rhs: R) -> Self::Output {
        apply(Binary::Div, self.as_dyn(), rhs.operand())
    }
}

impl<S: Shape, T: Dtype, R: Rhs<S, T>> Div<R> for &Tensor<S, T>
where
    R::Dtype: Numeric + FloatOf,
{
    type Output = Tensor<R::Shape, <R::Dtype as FloatOf>::Output>;
    fn div(self, rhs: R) -> Self::Output {
        apply(Binary::Div, self.as_dyn(), rhs.operand())
    }
}

/// `scalar op Tensor` and `scalar op &Tensor` for each Rust scalar type: the scalar is weak,
/// as on the right.
macro_rules! scalar_lhs {
    ($($sc:ty),*) => {$(
        scalar_lhs!(@ops $sc;
            Add, add, Add, Numeric;
            Sub, sub, Sub, Numeric;
            Mul, mul, Mul, Numeric;
            Rem, rem, Mod, Numeric;
            BitAnd, bitand, BitAnd, Bitwise;
            BitOr, bitor, BitOr, Bitwise;
            BitXor, bitxor, BitXor, Bitwise;
            Shl, shl, Shl, Int;
            Shr, shr, Shr, Int;
        );

        impl<S: Shape, T: Dtype + WeakPromote<$sc>> Div<Tensor<S, T>> for $sc
        where
            <T as WeakPromote<$sc>>::Output: Numeric + FloatOf,
        {
            type Output = Tensor<S, <<T as WeakPromote<$sc>>::Output as FloatOf>::Output>;
            fn div(self, rhs: Tensor<S, T>) -> Self::Output {
                apply(Binary::Div, self, rhs.as_dyn())
            }
        }

        impl<S: Shape, T: Dtype + WeakPromote<$sc>> Div<&Tensor<S, T>> for $sc
        where
            <T as WeakPromote<$sc>>::Output: Numeric + FloatOf,
        {
            type Output = Tensor<S, <<T as WeakPromote<$sc>>::Output as FloatOf>::Output>;
            fn div(self, rhs: &Tensor<S, T>) -> Self::Output {
                apply(Binary::Div, self, rhs.as_dyn())
            }
        }
    )*};
    (@ops $sc:ty; $($tr:ident, $f:ident, $op:ident, $bound:ident;)*) => {$(
        impl<S: Shape, T: Dtype + WeakPromote<$sc>> $tr<Tensor<S, T>> for $sc
        where
            <T as WeakPromote<$sc>>::Output: $bound,
        {
            type Output = Tensor<S, <T as WeakPromote<$sc>>::Output>;
            fn $f(self, rhs: Tensor<S, T>) -> Self::Output {
                apply(Binary::$op, self, rhs.as_dyn())
            }
        }

        impl<S: Shape, T: Dtype + WeakPromote<$sc>> $tr<&Tensor<S, T>> for $sc
        where
            <T as WeakPromote<$sc>>::Output: $bound,
        {
            type Output = Tensor<S, <T as WeakPromote<$sc>>::Output>;
            fn $f(self, rhs: &Tensor<S, T>) -> Self::Output {
                apply(Binary::$op, self, rhs.as_dyn())
            }
        }
    )*};
}

scalar_lhs!(bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, f32, f64);

/// `-x`: negation (integers wrap, as `neg`); not defined on bool (use `!`).
impl<S: Shape, T: Numeric> Neg for Tensor<S, T> {
    type Output = Tensor<S, T>;
    fn neg(self) -> Self::Output {
        Tensor::from_dyn(ok(self.as_dyn().neg()))
    }
}

impl<S: Shape, T: Numeric> Neg for &Tensor<S, T> {
    type Output = Tensor<S, T>;
    fn neg(self) -> Self::Output {
        Tensor::from_dyn(ok(self.as_dyn().neg()))
    }
}

/// `!x`: bitwise not for integers, logical not for bool (as Rust's `!`).
impl<S: Shape, T: Bitwise> Not for Tensor<S, T> {
    type Output = Tensor<S, T>;
    fn not(self) -> Self::Output {
        Tensor::from_dyn(ok(self.as_dyn().bitwise_not()))
    }
}

impl<S: Shape, T: Bitwise> Not for &Tensor<S, T> {
    type Output = Tensor<S, T>;
    fn not(self) -> Self::Output {
        Tensor::from_dyn(ok(self.as_dyn().bitwise_not()))
    }
}
