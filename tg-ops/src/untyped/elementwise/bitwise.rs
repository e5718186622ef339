//! Logical ops (on truth values) and bitwise ops and shifts (on integer bits).

use tg_runtime::{BinaryOp, DType, Result, Scalar};

use super::arith::Binary;
use super::dtype_error;
use super::expr::V;
use super::operand::{Operand, meet};
use crate::untyped::DynTensor;

/// The logical, bitwise and shift binary ops.
pub(super) fn binary(op: Binary, lhs: &Operand, rhs: &Operand) -> Result<DynTensor> {
    let logical = matches!(
        op,
        Binary::LogicalAnd | Binary::LogicalOr | Binary::LogicalXor
    );
    let (a, b) = meet(op.name(), lhs, rhs, logical.then_some(DType::Bool))?;
    let dt = a.dtype();
    if dt.is_float() {
        return Err(dtype_error(
            op.name(),
            dt,
            "bitwise ops take integers or bool; bitcast floats to work on their bits",
        ));
    }
    let prim = match op {
        Binary::BitAnd | Binary::LogicalAnd => BinaryOp::And,
        Binary::BitOr | Binary::LogicalOr => BinaryOp::Or,
        Binary::Shl | Binary::Shr if dt.is_bool() => {
            return Err(dtype_error(op.name(), dt, "shifts take integers"));
        }
        Binary::Shl => BinaryOp::Shl,
        Binary::Shr => BinaryOp::Shr,
        _ => BinaryOp::Xor,
    };
    V::of(&a).bin(prim, &V::of(&b)).done()
}

impl DynTensor {
    /// `!bool(x)`, elementwise; any dtype (nonzero is true).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[0.0f32, 2.0, -1.0]).unwrap();
    /// assert_eq!(x.logical_not().unwrap().to_vec::<bool>().unwrap(), vec![true, false, false]);
    /// ```
    pub fn logical_not(&self) -> Result<DynTensor> {
        V::of(&self.cast(DType::Bool)).not().done()
    }

    /// `bool(a) && bool(b)`, elementwise.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[0i32, 2, 3]).unwrap();
    /// assert_eq!(x.logical_and(true).unwrap().to_vec::<bool>().unwrap(), vec![false, true, true]);
    /// ```
    pub fn logical_and<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::LogicalAnd, self, rhs)
    }

    /// `bool(a) || bool(b)`, elementwise.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[false, true]).unwrap();
    /// assert_eq!(x.logical_or(false).unwrap().to_vec::<bool>().unwrap(), vec![false, true]);
    /// ```
    pub fn logical_or<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::LogicalOr, self, rhs)
    }

    /// `bool(a) != bool(b)`, elementwise.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[false, true]).unwrap();
    /// assert_eq!(x.logical_xor(true).unwrap().to_vec::<bool>().unwrap(), vec![true, false]);
    /// ```
    pub fn logical_xor<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::LogicalXor, self, rhs)
    }

    /// `~x`: every bit flipped for integers, logical not for bool; an error for floats.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[0u8, 2, 255]).unwrap();
    /// assert_eq!(x.bitwise_not().unwrap().to_vec::<u8>().unwrap(), vec![255, 253, 0]);
    /// ```
    pub fn bitwise_not(&self) -> Result<DynTensor> {
        let dt = self.dtype();
        if dt.is_float() {
            return Err(dtype_error(
                "bitwise_not",
                dt,
                "bitwise ops take integers or bool",
            ));
        }
        let x = V::of(self);
        if dt.is_bool() {
            return x.not().done();
        }
        // -1 wraps to all ones in every integer type
        x.bin(BinaryOp::Xor, &x.k(Scalar::Int(-1))).done()
    }

    /// `a & b`, elementwise, on integers or bool.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[2i32, 5, 255]).unwrap();
    /// assert_eq!(x.bitwise_and(12).unwrap().to_vec::<i32>().unwrap(), vec![0, 4, 12]);
    /// ```
    pub fn bitwise_and<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::BitAnd, self, rhs)
    }

    /// `a | b`, elementwise, on integers or bool.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[2i32, 5, 255]).unwrap();
    /// assert_eq!(x.bitwise_or(4).unwrap().to_vec::<i32>().unwrap(), vec![6, 5, 255]);
    /// ```
    pub fn bitwise_or<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::BitOr, self, rhs)
    }

    /// `a ^ b`, elementwise, on integers or bool.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[-1i32, -2, 3]).unwrap();
    /// assert_eq!(x.bitwise_xor(1).unwrap().to_vec::<i32>().unwrap(), vec![-2, -1, 2]);
    /// ```
    pub fn bitwise_xor<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::BitXor, self, rhs)
    }

    /// `a << b` on integers; amounts outside `0..bits` give 0 (numpy's result; tinygrad leaves
    /// them undefined).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[1u8, 3, 31]).unwrap();
    /// assert_eq!(x.shl(2).unwrap().to_vec::<u8>().unwrap(), vec![4, 12, 124]);
    /// ```
    pub fn shl<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Shl, self, rhs)
    }

    /// `a >> b` on integers, arithmetic for signed types; amounts outside `0..bits` give 0, or
    /// -1 for negative values (numpy's result).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[4i32, 13, -125]).unwrap();
    /// assert_eq!(x.shr(2).unwrap().to_vec::<i32>().unwrap(), vec![1, 3, -32]);
    /// ```
    pub fn shr<'a>(&self, rhs: impl Into<Operand<'a>>) -> Result<DynTensor> {
        DynTensor::binary_op(Binary::Shr, self, rhs)
    }
}
