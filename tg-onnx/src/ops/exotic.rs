//! Conversions into ONNX's exotic types (bfloat16, the 8- and 4-bit floats, the 4- and
//! 2-bit integers), held in their storage dtypes (`tg_onnx_format::exotic`): compositions of
//! bit operations, comparisons and rounding, so they run in the fused kernels of any device.
//!
//! A small float rounds as `round_half_even(|x| / ulp) * ulp`, where `ulp` is the spacing of
//! the format at `|x|`'s binade (clamped at the smallest normal binade, which makes the
//! subnormals come out right): dividing by a power of two is exact, so this is the format's
//! round-to-nearest-even. Overflow saturates, or gives infinity or NaN, as ONNX's Cast table
//! says for each format.

use tg_onnx_format::exotic::FloatFormat;
use tg_onnx_format::{DType, Exotic};
use tg_ops::DynTensor;

type R<T> = std::result::Result<T, tg_runtime::Error>;

/// A power of two `2^e` per element, from an i32 exponent tensor (built on its bits).
fn pow2(e: &DynTensor) -> R<DynTensor> {
    e.add(127)?.cast(DType::U32).shl(23)?.bitcast(DType::F32)
}

/// `x` (f32) rounded to bfloat16, nearest even; NaN stays NaN.
pub(crate) fn round_bf16(x: &DynTensor) -> R<DynTensor> {
    let u = x.bitcast(DType::U32)?;
    let odd = u.shr(16)?.bitwise_and(1u32)?;
    let r = u
        .add(0x7FFFu32)?
        .add(&odd)?
        .bitwise_and(0xFFFF_0000u32)?
        .bitcast(DType::F32)?;
    x.isnan()?.where_(x, &r)
}

/// `x` (f32) rounded to a small float format.
fn round_float(x: &DynTensor, f: &FloatFormat, saturate: bool) -> R<DynTensor> {
    let a = x.abs()?;
    let exp = a
        .bitcast(DType::U32)?
        .shr(23)?
        .bitwise_and(0xFFu32)?
        .cast(DType::I32)
        .sub(127)?
        .maximum(f.min_exp)?;
    let shift = exp.sub(f.mantissa as i32)?;
    let q = a.mul(&pow2(&shift.neg()?)?)?.round()?.mul(&pow2(&shift)?)?;
    let max = f.max;
    let inf_in = a.isinf(true, true)?;
    let over = q.gt(max)?.logical_or(&inf_in)?;
    let big = if saturate || !f.has_nan {
        // saturating: overflow and infinities are the largest value
        over.where_(q.full_like(max), &q)?
    } else if f.has_inf {
        over.where_(q.full_like(f64::INFINITY), &q)?
    } else {
        over.where_(q.full_like(f64::NAN), &q)?
    };
    let signed = big.copysign(x)?;
    if f.has_nan {
        Ok(signed)
    } else {
        // E2M1 has no NaN: ml_dtypes (the reference) gives zero
        x.isnan()?.where_(signed.zeros_like(), &signed)
    }
}

/// `x` converted to the exotic type `to`, in `to`'s storage dtype. Float sources round to
/// the format (saturating or not); integer targets take float sources truncated and in
/// range (else 0, as the reference's `ml_dtypes` does) and wrap integer sources.
pub(crate) fn to_exotic(x: &DynTensor, to: Exotic, saturate: bool) -> R<DynTensor> {
    if let Some((lo, hi)) = to.int_range() {
        let bits = to.bits() as u32;
        if x.dtype().is_float() {
            let t = x.cast(DType::F64).trunc()?;
            let ok = t.ge(lo as f64)?.logical_and(&t.le(hi as f64)?)?;
            return Ok(ok.where_(&t, t.zeros_like())?.cast(to.storage()));
        }
        // wrap into `bits` bits, then sign-extend
        let m = x.cast(DType::I64).bitwise_and((1i64 << bits) - 1)?;
        let v = if lo < 0 {
            m.ge(1i64 << (bits - 1))?.where_(m.sub(1i64 << bits)?, &m)?
        } else {
            m
        };
        return Ok(v.cast(to.storage()));
    }
    let xf = x.cast(DType::F32);
    match to.float_format() {
        Some(f) => round_float(&xf, &f, saturate),
        None => round_bf16(&xf),
    }
}

/// Rounds a float result to the float exotic type `to` (saturating): what an op on values of
/// that type gives.
pub(crate) fn round_result(x: &DynTensor, to: Exotic) -> R<DynTensor> {
    if to.int_range().is_some() || !x.dtype().is_float() {
        return Ok(x.clone());
    }
    to_exotic(x, to, true)
}
