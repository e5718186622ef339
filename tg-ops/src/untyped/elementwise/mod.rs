//! Elementwise ops: arithmetic, math, activations, comparisons, logical and bitwise ops.
//!
//! Each is composed of the runtime's primitives as tinygrad composes it, with more care where
//! a formula would lose digits (see `approx`).
//!
//! # Operands, broadcasting and dtypes
//!
//! Binary ops take an [`Operand`]: `&DynTensor`, `DynTensor`, or a Rust scalar. Two tensors
//! broadcast like numpy and meet in tinygrad's least upper dtype:
//!
//! | a \ b | bool | i8  | u8  | i16 | u16 | i32 | u32 | i64 | u64 | f16 | f32 | f64 |
//! |-------|------|-----|-----|-----|-----|-----|-----|-----|-----|-----|-----|-----|
//! | bool  | bool | i8  | u8  | i16 | u16 | i32 | u32 | i64 | u64 | f16 | f32 | f64 |
//! | i8    | i8   | i8  | i16 | i16 | i32 | i32 | i64 | i64 | f16 | f16 | f32 | f64 |
//! | u8    | u8   | i16 | u8  | i16 | u16 | i32 | u32 | i64 | u64 | f16 | f32 | f64 |
//! | i16   | i16  | i16 | i16 | i16 | i32 | i32 | i64 | i64 | f16 | f16 | f32 | f64 |
//! | u16   | u16  | i32 | u16 | i32 | u16 | i32 | u32 | i64 | u64 | f16 | f32 | f64 |
//! | i32   | i32  | i32 | i32 | i32 | i32 | i32 | i64 | i64 | f16 | f16 | f32 | f64 |
//! | u32   | u32  | i64 | u32 | i64 | u32 | i64 | u32 | i64 | u64 | f16 | f32 | f64 |
//! | i64   | i64  | i64 | i64 | i64 | i64 | i64 | i64 | i64 | f16 | f16 | f32 | f64 |
//! | u64   | u64  | f16 | u64 | f16 | u64 | f16 | u64 | f16 | u64 | f16 | f32 | f64 |
//! | f16   | f16  | f16 | f16 | f16 | f16 | f16 | f16 | f16 | f16 | f16 | f32 | f64 |
//! | f32   | f32  | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f32 | f64 |
//! | f64   | f64  | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 | f64 |
//!
//! (The 64-bit integers meet signed integers in f16: tinygrad's lattice puts every integer
//! below f16.) A scalar is weak: it takes the tensor's dtype, except that a float scalar with
//! an integer or bool tensor gives f32 and an integer scalar with a bool tensor gives i32.
//!
//! Float math (`exp`, `sin`, `sigmoid`, `/` ...) on integer or bool tensors returns the
//! default float, f32, as tinygrad does; f16 is computed in f32 and rounded once at the end;
//! f64 is computed in f64.
//!
//! # NaN
//!
//! NaN propagates and compares false (`ne` true) as in IEEE and numpy, also where tinygrad's
//! composition does otherwise: tinygrad gives `relu(NaN) = 0`, `sign(NaN) = 1` and
//! `NaN <= x` true (`le` as `!(a > b)`); tg gives NaN, NaN and false.

mod activation;
pub(crate) mod approx;
mod arith;
mod bitwise;
mod compare;
pub(crate) mod expr;
mod masked;
mod math;
mod more_math;
mod operand;
mod select;

pub use arith::Binary;
pub use operand::{Operand, meet, meet3, result_dtype};

use tg_runtime::{DType, Error, Result};

use self::expr::V;
use super::DynTensor;

/// The dtype float math is computed in: f64 for f64, f32 for everything else.
fn compute_of(dt: DType) -> DType {
    if dt == DType::F64 {
        DType::F64
    } else {
        DType::F32
    }
}

/// Applies `f` in the compute dtype of `x`'s float dtype, and rounds to that float dtype.
pub(crate) fn float_unary(x: &DynTensor, f: impl FnOnce(&V) -> V) -> Result<DynTensor> {
    let out = x.dtype().float_of();
    f(&V::of(&x.cast(compute_of(out)))).cast(out).done()
}

/// `Error::DType` for an op that does not take `dt`.
fn dtype_error(op: &'static str, dt: DType, message: &str) -> Error {
    Error::DType {
        op,
        dtype: dt,
        message: message.to_string(),
    }
}
