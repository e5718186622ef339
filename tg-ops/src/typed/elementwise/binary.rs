//! Typed binary ops as methods: pow, maximum/minimum, the divisions, comparisons, logical and
//! bitwise ops, isclose, and the selection ops where, clamp, lerp. The operators (`+`, `&`,
//! `<<` ...) are in `typed::operators`.

use super::Rhs;
use crate::dtype::{Bitwise, Dtype, Float, Int, Numeric, WeakScalar};
use crate::shape::{SameShape, Shape};
use crate::tensor::{Tensor, ok};
use crate::untyped::DynTensor;
use crate::untyped::elementwise::{Binary, Operand};

/// `self op rhs` through `DynTensor::binary_op`, typed as `Out`.
fn apply<S: Shape, T: Dtype, R: Rhs<S, T>, Out: Dtype>(
    op: Binary,
    lhs: &Tensor<S, T>,
    rhs: &R,
) -> Tensor<R::Shape, Out> {
    Tensor::from_dyn(ok(DynTensor::binary_op(op, lhs.as_dyn(), rhs.operand())))
}

/// Methods whose result has the promoted dtype, under a bound on it.
macro_rules! promoted {
    ($($name:ident, $op:ident, $bound:ident: $what:literal, $example:literal;)*) => {
        impl<S: Shape, T: Dtype> Tensor<S, T> {
            $(
                #[doc = concat!($what, ", elementwise, with a tensor of the same shape or a scalar; the result has the dtype the two meet in (see [`DynTensor::", stringify!($name), "`]).")]
                ///
                /// ```
                /// use tg_ops::prelude::*;
                #[doc = $example]
                /// ```
                pub fn $name<R: Rhs<S, T>>(&self, rhs: R) -> Tensor<R::Shape, R::Dtype>
                where
                    R::Dtype: $bound,
                {
                    apply(Binary::$op, self, &rhs)
                }
            )*
        }
    };
}

promoted! {
    pow, Pow, Numeric: "`self ** rhs` (C's pow for floats; exact, wrapping integer powers)",
        "let t = Tensor::<Rank1<3>>::from_slice(&[-2.0, 3.0, 4.0]).unwrap();\nassert_eq!(t.pow(2).to_vec().unwrap(), vec![4.0f32, 9.0, 16.0]);";
    maximum, Maximum, Dtype: "The larger of the two (NaN wins)",
        "let t = Tensor::<Rank1<3>, i32>::from_slice(&[-1, 2, 3]).unwrap();\nassert_eq!(t.maximum(1).to_vec().unwrap(), vec![1, 2, 3]);";
    minimum, Minimum, Dtype: "The smaller of the two (NaN wins)",
        "let t = Tensor::<Rank1<3>, i32>::from_slice(&[-1, 2, 3]).unwrap();\nassert_eq!(t.minimum(2).to_vec().unwrap(), vec![-1, 2, 2]);";
    idiv, Idiv, Numeric: "Division truncating toward zero",
        "let t = Tensor::<Rank1<2>, i32>::from_slice(&[7, -7]).unwrap();\nassert_eq!(t.idiv(2).to_vec().unwrap(), vec![3, -3]);";
    floor_div, FloorDiv, Numeric: "Floor division (Python's `//`)",
        "let t = Tensor::<Rank1<2>, i32>::from_slice(&[7, -7]).unwrap();\nassert_eq!(t.floor_div(2).to_vec().unwrap(), vec![3, -4]);";
    modulo, Mod, Numeric: "The remainder with the divisor's sign (Python's `%`, the `%` operator)",
        "let t = Tensor::<Rank1<2>, i32>::from_slice(&[7, -7]).unwrap();\nassert_eq!(t.modulo(3).to_vec().unwrap(), vec![1, 2]);";
    bitwise_and, BitAnd, Bitwise: "`a & b` on integers or bool",
        "let t = Tensor::<Rank1<2>, u8>::from_slice(&[0b1100, 0b1010]).unwrap();\nassert_eq!(t.bitwise_and(0b0110u8).to_vec().unwrap(), vec![0b0100, 0b0010]);";
    bitwise_or, BitOr, Bitwise: "`a | b` on integers or bool",
        "let t = Tensor::<Rank1<2>, u8>::from_slice(&[0b1100, 0b1010]).unwrap();\nassert_eq!(t.bitwise_or(1u8).to_vec().unwrap(), vec![0b1101, 0b1011]);";
    bitwise_xor, BitXor, Bitwise: "`a ^ b` on integers or bool",
        "let t = Tensor::<Rank1<2>, bool>::from_slice(&[true, false]).unwrap();\nassert_eq!(t.bitwise_xor(true).to_vec().unwrap(), vec![false, true]);";
    shl, Shl, Int: "`a << b` on integers (amounts outside `0..bits` give 0)",
        "let t = Tensor::<Rank1<2>, u8>::from_slice(&[1, 3]).unwrap();\nassert_eq!(t.shl(2).to_vec().unwrap(), vec![4u8, 12]);";
    shr, Shr, Int: "`a >> b` on integers, arithmetic for signed types",
        "let t = Tensor::<Rank1<2>, i32>::from_slice(&[13, -13]).unwrap();\nassert_eq!(t.shr(2).to_vec().unwrap(), vec![3, -4]);";
}

/// Methods with bool results.
macro_rules! boolean {
    ($($name:ident, $op:ident: $what:literal, $example:literal;)*) => {
        impl<S: Shape, T: Dtype> Tensor<S, T> {
            $(
                #[doc = concat!($what, ", elementwise, with a tensor of the same shape or a scalar (compared in the dtype the two meet in; see [`DynTensor::", stringify!($name), "`]).")]
                ///
                /// ```
                /// use tg_ops::prelude::*;
                #[doc = $example]
                /// ```
                pub fn $name<R: Rhs<S, T>>(&self, rhs: R) -> Tensor<R::Shape, bool> {
                    apply(Binary::$op, self, &rhs)
                }
            )*
        }
    };
}

boolean! {
    eq, Eq: "`self == rhs`",
        "let t = Tensor::<Rank1<2>, i8>::from_slice(&[1, 2]).unwrap();\nassert_eq!(t.eq(2).to_vec().unwrap(), vec![false, true]);";
    ne, Ne: "`self != rhs` (true where either is NaN)",
        "let t = Tensor::<Rank1<2>>::from_slice(&[1.0, f32::NAN]).unwrap();\nassert_eq!(t.ne(1.0).to_vec().unwrap(), vec![false, true]);";
    lt, Lt: "`self < rhs`",
        "let a = Tensor::<Rank1<2>, i8>::from_slice(&[-1, 5]).unwrap();\nlet b = Tensor::<Rank1<2>, u8>::from_slice(&[255, 5]).unwrap();\nassert_eq!(a.lt(&b).to_vec().unwrap(), vec![true, false]); // compared as i16";
    le, Le: "`self <= rhs` (false where either is NaN)",
        "let t = Tensor::<Rank1<3>>::from_slice(&[0.0, 1.0, f32::NAN]).unwrap();\nassert_eq!(t.le(0.5).to_vec().unwrap(), vec![true, false, false]);";
    gt, Gt: "`self > rhs`",
        "let t = Tensor::<Rank1<2>, u16>::from_slice(&[1, 9]).unwrap();\nassert_eq!(t.gt(4).to_vec().unwrap(), vec![false, true]);";
    ge, Ge: "`self >= rhs` (false where either is NaN)",
        "let t = Tensor::<Rank1<2>, u16>::from_slice(&[1, 9]).unwrap();\nassert_eq!(t.ge(9).to_vec().unwrap(), vec![false, true]);";
    logical_and, LogicalAnd: "`bool(a) && bool(b)`",
        "let t = Tensor::<Rank1<2>, i32>::from_slice(&[0, 4]).unwrap();\nassert_eq!(t.logical_and(true).to_vec().unwrap(), vec![false, true]);";
    logical_or, LogicalOr: "`bool(a) || bool(b)`",
        "let t = Tensor::<Rank1<2>, bool>::from_slice(&[false, true]).unwrap();\nassert_eq!(t.logical_or(false).to_vec().unwrap(), vec![false, true]);";
    logical_xor, LogicalXor: "`bool(a) != bool(b)`",
        "let t = Tensor::<Rank1<2>, bool>::from_slice(&[false, true]).unwrap();\nassert_eq!(t.logical_xor(true).to_vec().unwrap(), vec![true, false]);";
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// `base ** self`, a scalar (or tensor) base to this tensor's powers.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-1.0, 0.0, 3.0]).unwrap();
    /// assert_eq!(t.rpow(2.0).to_vec().unwrap(), vec![0.5f32, 1.0, 8.0]);
    /// ```
    pub fn rpow<B: Rhs<S, T>>(&self, base: B) -> Tensor<B::Shape, B::Dtype>
    where
        B::Dtype: Numeric,
    {
        Tensor::from_dyn(ok(DynTensor::binary_op(
            Binary::Pow,
            base.operand(),
            self.as_dyn(),
        )))
    }

    /// True where `|self - other| <= atol + rtol |other|` (both finite), where the two are
    /// equal, or (with `equal_nan`) where both are NaN; see [`DynTensor::isclose`].
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, 1.1]).unwrap();
    /// assert_eq!(t.isclose(1.0, 1e-5, 1e-8, false).to_vec().unwrap(), vec![true, false]);
    /// ```
    pub fn isclose<R: Rhs<S, T>>(
        &self,
        other: R,
        rtol: f64,
        atol: f64,
        equal_nan: bool,
    ) -> Tensor<R::Shape, bool> {
        Tensor::from_dyn(ok(self.as_dyn().isclose(
            other.operand(),
            rtol,
            atol,
            equal_nan,
        )))
    }

    /// Whether every element `isclose`, as a rank-0 bool tensor.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, 2.0]).unwrap();
    /// assert!(t.allclose(&t, 1e-5, 1e-8, false).item().unwrap());
    /// ```
    pub fn allclose<R: Rhs<S, T>>(
        &self,
        other: R,
        rtol: f64,
        atol: f64,
        equal_nan: bool,
    ) -> Tensor<(), bool> {
        Tensor::from_dyn(ok(self.as_dyn().allclose(
            other.operand(),
            rtol,
            atol,
            equal_nan,
        )))
    }

    /// Limits the values to `[min, max]`: bounds are scalars or tensors of this tensor's
    /// shape, meeting it in its own dtype (`x < min` gives `min`, then `> max` gives `max`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>, i32>::from_slice(&[-5, 2, 9]).unwrap();
    /// assert_eq!(t.clamp(0, 4).to_vec().unwrap(), vec![0, 2, 4]);
    /// ```
    pub fn clamp<L: Rhs<S, T, Dtype = T>, H: Rhs<S, T, Dtype = T>>(
        &self,
        min: L,
        max: H,
    ) -> Tensor<S, T> {
        Tensor::from_dyn(ok(self
            .as_dyn()
            .clamp(Some(min.operand()), Some(max.operand()))))
    }

    /// Alias of [`Tensor::clamp`].
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-5.0, 0.5, 9.0]).unwrap();
    /// assert_eq!(t.clip(-1.0, 1.0).to_vec().unwrap(), vec![-1.0, 0.5, 1.0]);
    /// ```
    pub fn clip<L: Rhs<S, T, Dtype = T>, H: Rhs<S, T, Dtype = T>>(
        &self,
        min: L,
        max: H,
    ) -> Tensor<S, T> {
        self.clamp(min, max)
    }

    /// `max(self, min)` with tinygrad's clamp rule (NaN stays NaN).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-5.0, 0.5, 9.0]).unwrap();
    /// assert_eq!(t.clamp_min(0.0).to_vec().unwrap(), vec![0.0, 0.5, 9.0]);
    /// ```
    pub fn clamp_min<L: Rhs<S, T, Dtype = T>>(&self, min: L) -> Tensor<S, T> {
        Tensor::from_dyn(ok(self.as_dyn().clamp(Some(min.operand()), None)))
    }

    /// `min(self, max)` with tinygrad's clamp rule (NaN stays NaN).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[-5.0, 0.5, 9.0]).unwrap();
    /// assert_eq!(t.clamp_max(1.0).to_vec().unwrap(), vec![-5.0, 0.5, 1.0]);
    /// ```
    pub fn clamp_max<H: Rhs<S, T, Dtype = T>>(&self, max: H) -> Tensor<S, T> {
        Tensor::from_dyn(ok(self.as_dyn().clamp(None, Some(max.operand()))))
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// `self + (end - self) * weight`; `end` and `weight` are scalars or tensors of this
    /// shape, in this float dtype.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = Tensor::<Rank1<2>>::from_slice(&[1.0, 2.0]).unwrap();
    /// let b = Tensor::<Rank1<2>>::from_slice(&[3.0, 6.0]).unwrap();
    /// assert_eq!(a.lerp(&b, 0.25).to_vec().unwrap(), vec![1.5, 3.0]);
    /// ```
    pub fn lerp<E: Rhs<S, T, Dtype = T>, W: Rhs<S, T, Dtype = T>>(
        &self,
        end: E,
        weight: W,
    ) -> Tensor<S, T>
    where
        T: Float,
    {
        Tensor::from_dyn(ok(self.as_dyn().lerp(end.operand(), weight.operand())))
    }
}

impl<S: Shape> Tensor<S, bool> {
    /// `x` where `self` is true, else `y`: `x` is a tensor, `y` a tensor or a scalar; all of
    /// one shape, and `x`, `y` meet in one dtype (see [`DynTensor::where_`]).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let c = Tensor::<Rank1<3>, bool>::from_slice(&[true, false, true]).unwrap();
    /// let x = Tensor::<Rank1<3>, i8>::from_slice(&[1, 2, 3]).unwrap();
    /// assert_eq!(c.where_(&x, 0).to_vec().unwrap(), vec![1i8, 0, 3]);
    /// ```
    pub fn where_<S2, T2, Y>(
        &self,
        x: &Tensor<S2, T2>,
        y: Y,
    ) -> Tensor<<S as SameShape<Y::Shape>>::Output, Y::Dtype>
    where
        S2: Shape,
        T2: Dtype,
        Y: Rhs<S2, T2>,
        S: SameShape<Y::Shape>,
    {
        Tensor::from_dyn(ok(self.as_dyn().where_(x.as_dyn(), y.operand())))
    }

    /// `x` where `self` is true, else `y`, for two scalars of one Rust type `V`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let c = Tensor::<Rank1<3>, bool>::from_slice(&[true, false, true]).unwrap();
    /// assert_eq!(c.where_scalars(1.5f32, -1.0).to_vec().unwrap(), vec![1.5, -1.0, 1.5]);
    /// ```
    pub fn where_scalars<V: Dtype + WeakScalar>(&self, x: V, y: V) -> Tensor<S, V> {
        let x = ok(DynTensor::full(
            self.as_dyn().shape(),
            WeakScalar::to_scalar(x),
            V::DTYPE,
        ));
        Tensor::from_dyn(ok(self
            .as_dyn()
            .where_(&x, Operand::Scalar(WeakScalar::to_scalar(y)))))
    }
}
