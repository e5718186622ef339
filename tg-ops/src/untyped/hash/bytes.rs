//! Little-endian bytes of any tensor and the u64 lanes of byte blocks, composed of shifts and
//! masks (the runtime's bitcast keeps the element size, so tinygrad's `bitcast(uint8)` that
//! widens the last axis is spelled out here).

use tg_runtime::{BinaryOp, DType, Lazy, ReduceOp, Result};

use crate::untyped::DynTensor;

/// The unsigned type of `bytes` bytes.
fn unsigned_of(bytes: usize) -> DType {
    match bytes {
        1 => DType::U8,
        2 => DType::U16,
        4 => DType::U32,
        _ => DType::U64,
    }
}

/// `0, 8, 16, ...` (`n` values) as `dtype`, shaped `[1, ..., 1, n]` for rank `rank`.
fn byte_shifts(n: usize, dtype: DType, rank: usize) -> Result<Lazy> {
    let eight = Lazy::constant(8u32, DType::U32, &[n])?;
    let mut shape = vec![1; rank - 1];
    shape.push(n);
    Lazy::arange_u32(n)?
        .binary(BinaryOp::Mul, &eight)?
        .cast(dtype)
        .reshape(&shape)
}

/// The bytes of `x`'s elements, least significant first: shape `[..., n * size]`, u8. Bool is
/// one byte, 0 or 1, as in memory.
pub(crate) fn le_bytes(x: &DynTensor) -> Result<Lazy> {
    let size = x.dtype().size();
    if size == 1 {
        return Ok(if x.dtype().is_bool() {
            x.lazy().cast(DType::U8)
        } else {
            x.lazy().bitcast(DType::U8)?
        });
    }
    let bits = x.lazy().bitcast(unsigned_of(size))?;
    let dt = bits.dtype();
    let mut wide = bits.shape().to_vec();
    wide.push(1);
    let mut spread = bits.shape().to_vec();
    spread.push(size);
    let rank = spread.len();
    let v = bits.reshape(&wide)?.expand(&spread)?;
    let shifted = v.binary(
        BinaryOp::Shr,
        &byte_shifts(size, dt, rank)?.expand(&spread)?,
    )?;
    let mask = Lazy::constant(0xffu32, dt, &spread)?;
    let mut flat = x.shape().to_vec();
    match flat.last_mut() {
        Some(last) => *last *= size,
        None => flat.push(size),
    }
    shifted
        .binary(BinaryOp::And, &mask)?
        .cast(DType::U8)
        .reshape(&flat)
}

/// Blocks of 200 bytes `[..., 200]` as 25 little-endian u64 lanes `[..., 25]`.
pub(crate) fn lanes(bytes: &Lazy) -> Result<Lazy> {
    let lead = &bytes.shape()[..bytes.ndim() - 1];
    let mut split = lead.to_vec();
    split.extend([25, 8]);
    let rank = split.len();
    let v = bytes.reshape(&split)?.cast(DType::U64);
    let shifted = v.binary(
        BinaryOp::Shl,
        &byte_shifts(8, DType::U64, rank)?.expand(&split)?,
    )?;
    // the shifted bytes do not overlap, so their sum is their or
    let mut out = lead.to_vec();
    out.push(25);
    shifted.reduce(ReduceOp::Add, &[rank - 1])?.reshape(&out)
}
