//! Binary arithmetic (`+ - * / // %`, pow, maximum, minimum) and the one entry point,
//! `DynTensor::binary_op`, that every binary elementwise op goes through.

use tg_runtime::{BinaryOp, DType, Error, Result, Scalar};

use super::expr::V;
use super::operand::{Operand, meet, result_dtype};
use super::{compute_of, dtype_error};
use crate::untyped::DynTensor;

/// The binary elementwise ops, for [`DynTensor::binary_op`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Binary {
    /// `a + b`.
    Add,
    /// `a - b`.
    Sub,
    /// `a * b`.
    Mul,
    /// True division; integers give f32.
    Div,
    /// Division truncating toward zero.
    Idiv,
    /// Floor division (Python's `//`).
    FloorDiv,
    /// Remainder with the divisor's sign (Python's `%`).
    Mod,
    /// `a ** b` (C's `pow` for floats, exact integers).
    Pow,
    /// The larger of the two (NaN propagates).
    Maximum,
    /// The smaller of the two (NaN propagates).
    Minimum,
    /// `a & b`.
    BitAnd,
    /// `a | b`.
    BitOr,
    /// `a ^ b`.
    BitXor,
    /// `a << b`.
    Shl,
    /// `a >> b`.
    Shr,
    /// `a < b`.
    Lt,
    /// `a <= b`.
    Le,
    /// `a > b`.
    Gt,
    /// `a >= b`.
    Ge,
    /// `a == b`.
    Eq,
    /// `a != b`.
    Ne,
    /// Both true.
    LogicalAnd,
    /// Either true.
    LogicalOr,
    /// Exactly one true.
    LogicalXor,
}

impl Binary {
    /// The op's method name, for errors.
    pub const fn name(self) -> &'static str {
        match self {
            Binary::Add => "add",
            Binary::Sub => "sub",
            Binary::Mul => "mul",
            Binary::Div => "div",
            Binary::Idiv => "idiv",
            Binary::FloorDiv => "floor_div",
            Binary::Mod => "modulo",
            Binary::Pow => "pow",
            Binary::Maximum => "maximum",
            Binary::Minimum => "minimum",
            Binary::BitAnd => "bitwise_and",
            Binary::BitOr => "bitwise_or",
            Binary::BitXor => "bitwise_xor",
            Binary::Shl => "shl",
            Binary::Shr => "shr",
            Binary::Lt => "lt",
            Binary::Le => "le",
            Binary::Gt => "gt",
            Binary::Ge => "ge",
            Binary::Eq => "eq",
            Binary::Ne => "ne",
            Binary::LogicalAnd => "logical_and",
            Binary::LogicalOr => "logical_or",
            Binary::LogicalXor => "logical_xor",
        }
    }
}

/// Checks `dt` for an op that takes numbers only.
fn numeric(op: Binary, dt: DType) -> Result<()> {
    if dt.is_bool() {
        return Err(dtype_error(
            op.name(),
            dt,
            "not defined on bool; cast to a number type first",
        ));
    }
    Ok(())
}

fn prim(op: BinaryOp, a: &DynTensor, b: &DynTensor) -> Result<DynTensor> {
    Ok(DynTensor::wrap(a.lazy().binary(op, b.lazy())?))
}

impl DynTensor {
    /// `lhs op rhs` for any binary elementwise op: operands broadcast like numpy and meet in
    /// tinygrad's least upper dtype (a scalar is weak); at least one must be a tensor. This is
    /// how a scalar goes on the left (`2 - x`, `2 ** x`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::untyped::elementwise::Binary;
    /// let x = DynTensor::from_slice(&[3], &[1.0f32, 2.0, 3.0]).unwrap();
    /// let y = DynTensor::binary_op(Binary::Pow, 2.0, &x).unwrap();
    /// assert_eq!(y.to_vec::<f32>().unwrap(), vec![2.0, 4.0, 8.0]);
    /// ```
    pub fn binary_op<'a, 'b>(
        op: Binary,
        lhs: impl Into<Operand<'a>>,
        rhs: impl Into<Operand<'b>>,
    ) -> Result<DynTensor> {
        let (lhs, rhs) = (lhs.into(), rhs.into());
        match op {
            Binary::Add | Binary::Sub | Binary::Mul | Binary::Maximum | Binary::Minimum => {
                arith(op, &lhs, &rhs)
            }
            Binary::Div => div(&lhs, &rhs),
            Binary::Idiv | Binary::FloorDiv | Binary::Mod => division(op, &lhs, &rhs),
            Binary::Pow => pow(&lhs, &rhs),
            Binary::Lt | Binary::Le | Binary::Gt | Binary::Ge | Binary::Eq | Binary::Ne => {
                super::compare::compare(op, &lhs, &rhs)
            }
            _ => super::bitwise::binary(op, &lhs, &rhs),
        }
    }

    /// `self + rhs`; bool + bool is logical or.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2, 1], &[1i8, 2]).unwrap();
    /// let y = DynTensor::from_slice(&[3], &[10u8, 20, 30]).unwrap();
    /// let z = x.add(&y).unwrap(); // broadcasts to [2, 3], i8 + u8 meet in i16
    /// assert_eq!((z.shape(), z.dtype()), (&[2usize, 3][..], DType::I16));
    /// assert_eq!(z.to_vec::<i16>().unwrap(), vec![11, 21, 31, 12, 22, 32]);
    /// ```
    pub fn add<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Add, self, rhs)
    }

    /// `self - rhs` (not defined on bool).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[1u8, 5]).unwrap();
    /// assert_eq!(x.sub(2).unwrap().to_vec::<u8>().unwrap(), vec![255, 3]); // wraps
    /// ```
    pub fn sub<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Sub, self, rhs)
    }

    /// `self * rhs`; bool * bool is logical and.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[1.5f32, -2.0]).unwrap();
    /// assert_eq!(x.mul(2).unwrap().to_vec::<f32>().unwrap(), vec![3.0, -4.0]);
    /// ```
    pub fn mul<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Mul, self, rhs)
    }

    /// True division, as `self * (1 / rhs)` (tinygrad's composition; within 1.5 ulp of the
    /// correctly rounded quotient, and 0 where `1 / rhs` is below the smallest normal, as
    /// 1e38 / 1e38 is). Integers and bool give f32, like tinygrad (numpy gives f64).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[1i32, 7, -7]).unwrap();
    /// let y = x.div(2).unwrap();
    /// assert_eq!(y.dtype(), DType::F32);
    /// assert_eq!(y.to_vec::<f32>().unwrap(), vec![0.5, 3.5, -3.5]);
    /// ```
    pub fn div<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Div, self, rhs)
    }

    /// Division truncating toward zero (C's `/`); integer `x / 0` is 0 and `MIN / -1` wraps to
    /// `MIN`. Floats give `trunc(a / b)` of the exact quotient (for `|a / b| < 2^24` in f32).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[4], &[7i32, -7, 7, 1]).unwrap();
    /// let y = DynTensor::from_slice(&[4], &[2i32, 2, -2, 0]).unwrap();
    /// assert_eq!(x.idiv(&y).unwrap().to_vec::<i32>().unwrap(), vec![3, -3, -3, 0]);
    /// ```
    pub fn idiv<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Idiv, self, rhs)
    }

    /// Floor division, Python's and tinygrad's `//` (numpy's `floor_divide`): rounds toward
    /// negative infinity. Integer `x // 0` is 0 (numpy's rule); floats follow numpy
    /// (`x // 0` is ±inf or NaN, `inf // y` is NaN), exact for `|a / b| < 2^24` in f32.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[4], &[7i32, -7, 7, -7]).unwrap();
    /// let y = DynTensor::from_slice(&[4], &[2i32, 2, -2, -2]).unwrap();
    /// assert_eq!(x.floor_div(&y).unwrap().to_vec::<i32>().unwrap(), vec![3, -4, -4, 3]);
    /// ```
    pub fn floor_div<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::FloorDiv, self, rhs)
    }

    /// Remainder with the sign of the divisor, Python's and tinygrad's `%` (numpy's
    /// `remainder`): `a - floor_div(a, b) * b`. Integer `x % 0` is 0; float `x % 0` is NaN.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[4], &[7.0f32, -7.0, 7.0, 5.5]).unwrap();
    /// let y = DynTensor::from_slice(&[4], &[3.0f32, 3.0, -3.0, 2.0]).unwrap();
    /// assert_eq!(x.modulo(&y).unwrap().to_vec::<f32>().unwrap(), vec![1.0, 2.0, -2.0, 1.5]);
    /// ```
    pub fn modulo<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Mod, self, rhs)
    }

    /// `self ** rhs` with C's `pow` for floats (negative bases with integral exponents keep
    /// their sign; a fractional power of a negative base is NaN). Integer powers are exact
    /// and wrap; an integer tensor to a negative integer scalar is an error, as in tinygrad
    /// and numpy (a negative exponent inside a tensor gives 0, or ±1 for bases ±1).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-2.0f32, 4.0, -8.0]).unwrap();
    /// assert_eq!(x.pow(3).unwrap().to_vec::<f32>().unwrap(), vec![-8.0, 64.0, -512.0]);
    /// let i = DynTensor::from_slice(&[2], &[3i32, -2]).unwrap();
    /// assert_eq!(i.pow(2).unwrap().to_vec::<i32>().unwrap(), vec![9, 4]);
    /// assert_eq!(i.pow(0.5).unwrap().dtype(), DType::F32);
    /// ```
    pub fn pow<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Pow, self, rhs)
    }

    /// Elementwise maximum; NaN wins (numpy's `maximum`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-1i32, 2, 3]).unwrap();
    /// assert_eq!(x.maximum(1).unwrap().to_vec::<i32>().unwrap(), vec![1, 2, 3]);
    /// ```
    pub fn maximum<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Maximum, self, rhs)
    }

    /// Elementwise minimum; NaN wins (numpy's `minimum`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-1.0f32, 2.0, f32::NAN]).unwrap();
    /// let m = x.minimum(1.0).unwrap().to_vec::<f32>().unwrap();
    /// assert_eq!(&m[..2], &[-1.0, 1.0]);
    /// assert!(m[2].is_nan());
    /// ```
    pub fn minimum<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Minimum, self, rhs)
    }
}

/// `+ - *`, maximum and minimum in the dtype the operands meet in.
fn arith(op: Binary, lhs: &Operand, rhs: &Operand) -> Result<DynTensor> {
    let (a, b) = meet(op.name(), lhs, rhs, None)?;
    let dt = a.dtype();
    match op {
        Binary::Add => prim(BinaryOp::Add, &a, &b),
        Binary::Mul => prim(BinaryOp::Mul, &a, &b),
        Binary::Sub => {
            numeric(op, dt)?;
            (V::of(&a) - V::of(&b)).done()
        }
        Binary::Maximum => prim(BinaryOp::Max, &a, &b),
        Binary::Minimum if dt.is_bool() => prim(BinaryOp::And, &a, &b),
        // -max(-a, -b) keeps max's NaN propagation
        Binary::Minimum if dt.is_float() => (-(-V::of(&a)).max(&-V::of(&b))).done(),
        _ => {
            let (x, y) = (V::of(&a), V::of(&b));
            x.lt(&y).select(&x, &y).done()
        }
    }
}

/// True division in the float dtype of the operands, computed in f32 for f16.
fn div(lhs: &Operand, rhs: &Operand) -> Result<DynTensor> {
    let out = result_dtype(lhs, rhs).float_of();
    let (a, b) = meet("div", lhs, rhs, Some(compute_of(out)))?;
    V::of(&a).div(&V::of(&b)).cast(out).done()
}

/// Truncating and floor division, and the floor remainder.
fn division(op: Binary, lhs: &Operand, rhs: &Operand) -> Result<DynTensor> {
    let (a, b) = meet(op.name(), lhs, rhs, None)?;
    let dt = a.dtype();
    numeric(op, dt)?;
    if dt.is_float() {
        let (a, b) = (a.cast(compute_of(dt)), b.cast(compute_of(dt)));
        let (q, r) = float_divmod(op, &V::of(&a), &V::of(&b));
        return if op == Binary::Mod { r } else { q }.cast(dt).done();
    }
    let (x, y) = (V::of(&a), V::of(&b));
    if op == Binary::Idiv {
        return x.bin(BinaryOp::Idiv, &y).done();
    }
    // the truncated quotient and remainder step down by one where the remainder's sign
    // differs from the divisor's (never for unsigned types)
    let q = x.bin(BinaryOp::Idiv, &y);
    let r = x.bin(BinaryOp::Mod, &y);
    let zero = x.k(0);
    let off = r.ne(&zero).and(&r.lt(&zero).ne(&y.lt(&zero)));
    if op == Binary::FloorDiv {
        off.select(&(&q - &x.k(1)), &q)
    } else {
        off.select(&(&r + &y), &r)
    }
    .done()
}

/// Float truncating or floor division and the floor remainder, as numpy computes them: the
/// truncated quotient from `trunc(a * (1/b))`, corrected by one step so that `a - q b` has
/// a's sign and is smaller than |b| (C's fmod, exact while `q b` is); for floor division,
/// one less where that remainder's sign differs from b's, which then gains b. numpy's special
/// cases follow: `b = 0` gives `a / b` and a NaN remainder, infinite or NaN `a` NaN, and
/// `b = ±inf` with finite `a` the quotient 0 (or -1) and the remainder `a` (or `b`).
pub(super) fn float_divmod(op: Binary, a: &V, b: &V) -> (V, V) {
    let zero = a.k(0.0);
    let estimate = a.div(b);
    let b_inf = b.abs().eq_k(f64::INFINITY);
    // with b = ±inf the estimate is 0 or NaN; trunc(a / ±inf) is 0 for finite a
    let q = b_inf.select(&(a * 0.0), &estimate.trunc());
    let r = a - &q * b;
    let r = b_inf.select(a, &r);
    let a_neg = a.lt(&zero);
    let toward = a_neg.ne(&b.lt(&zero)).select(&a.k(-1.0), &a.k(1.0));
    let overshot = r.ne(&zero).and(&r.lt(&zero).ne(&a_neg));
    let short = r.abs().gt(&b.abs()).or(&r.abs().eq(&b.abs()));
    let q = overshot.select(&(&q - &toward), &short.select(&(&q + &toward), &q));
    let r = overshot.or(&short).select(&(a - &q * b), &r);
    let (q, r) = if op == Binary::Idiv {
        (q, r)
    } else {
        let down = r.ne(&zero).and(&r.lt(&zero).ne(&b.lt(&zero)));
        (down.select(&(&q - 1.0), &q), down.select(&(&r + b), &r))
    };
    let nan = a.k(f64::NAN);
    let bad = r.ne(&r);
    let b_zero = b.eq(&zero);
    let q = b_zero.select(&estimate, &bad.select(&nan, &q));
    let r = bad.or(&b_zero).select(&nan, &r);
    (q, r)
}

/// `a ** b` by the runtime's pow.
fn pow(lhs: &Operand, rhs: &Operand) -> Result<DynTensor> {
    let (a, b) = meet("pow", lhs, rhs, None)?;
    let dt = a.dtype();
    numeric(Binary::Pow, dt)?;
    if let Some(s) = rhs.scalar()
        && dt.is_int()
        && matches!(s, Scalar::Int(e) if e < 0)
    {
        return Err(Error::Argument {
            op: "pow",
            message: format!(
                "{dt} tensor to the negative integer power {}: use a float base",
                s.as_i128()
            ),
        });
    }
    prim(BinaryOp::Pow, &a, &b)
}
