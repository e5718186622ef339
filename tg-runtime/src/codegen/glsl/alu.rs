//! GLSL expressions for the elementwise instructions, with tg's semantics on every dtype.

use super::helpers::Helpers;
use super::types::{literal, reg};
use crate::dtype::{DType, Scalar};
use crate::ops::{BinaryOp, TernaryOp, UnaryOp};

/// Brings a 32-bit register back into the range of a narrow dtype (two's complement wrap), or
/// rounds a float register to f16.
pub fn wrap(e: String, d: DType, h: &mut Helpers) -> String {
    match d {
        DType::I8 => format!("(({e}) << 24 >> 24)"),
        DType::I16 => format!("(({e}) << 16 >> 16)"),
        DType::U8 => format!("(({e}) & 0xffu)"),
        DType::U16 => format!("(({e}) & 0xffffu)"),
        DType::F16 => format!("{}({e})", h.use_fn("tg_rh")),
        _ => e,
    }
}

fn is_double(d: DType) -> bool {
    d == DType::F64
}

/// A float-only unary function; GLSL has no f64 exp2/log2/sin, so tg brings its own.
fn float_fn(name: &'static str, a: &str, d: DType, h: &mut Helpers) -> String {
    let f = if is_double(d) {
        h.use_fn(&name.replace("_f", "_d"))
    } else {
        h.use_fn(name)
    };
    format!("{f}({a})")
}

pub fn unary(op: UnaryOp, a: &str, d: DType, h: &mut Helpers) -> String {
    let e = match op {
        UnaryOp::Exp2 => float_fn("tg_exp2_f", a, d, h),
        UnaryOp::Log2 => float_fn("tg_log2_f", a, d, h),
        UnaryOp::Sin => float_fn("tg_sin_f", a, d, h),
        UnaryOp::Sqrt if is_double(d) => format!("{}({a})", h.use_fn("tg_sqrt_d")),
        UnaryOp::Sqrt => format!("{}({a})", h.use_fn("tg_sqrt_f")),
        UnaryOp::Recip if is_double(d) => format!("(1.0lf / {a})"),
        UnaryOp::Recip => format!("(1.0 / {a})"),
        UnaryOp::Neg if d.is_bool() => format!("(!{a})"),
        UnaryOp::Neg => format!("(-{a})"),
        UnaryOp::Trunc if d.is_float() => format!("trunc({a})"),
        UnaryOp::Trunc => a.to_string(),
    };
    match op {
        UnaryOp::Trunc => e,
        UnaryOp::Neg if d.is_float() => e,
        _ => wrap(e, d, h),
    }
}

/// `d` is the operand dtype.
pub fn binary(op: BinaryOp, a: &str, b: &str, d: DType, h: &mut Helpers) -> String {
    let ty = reg(d);
    let e = match op {
        BinaryOp::Add if d.is_bool() => format!("({a} || {b})"),
        BinaryOp::Add => format!("({a} + {b})"),
        BinaryOp::Mul if d.is_bool() => format!("({a} && {b})"),
        BinaryOp::Mul => format!("({a} * {b})"),
        BinaryOp::Idiv => format!("{}({a}, {b})", h.use_int("idiv", ty)),
        BinaryOp::Mod => format!("{}({a}, {b})", h.use_int("imod", ty)),
        BinaryOp::Max if d.is_bool() => format!("({a} || {b})"),
        BinaryOp::Max if d == DType::F64 => format!("{}({a}, {b})", h.use_fn("tg_max_d")),
        BinaryOp::Max if d.is_float() => format!("{}({a}, {b})", h.use_fn("tg_max_f")),
        BinaryOp::Max => format!("max({a}, {b})"),
        BinaryOp::CmpLt if d.is_bool() => format!("(!{a} && {b})"),
        BinaryOp::CmpLt => format!("({a} < {b})"),
        // ordered == is false on NaN, so its negation is IEEE's !=
        BinaryOp::CmpNe => format!("(!({a} == {b}))"),
        BinaryOp::CmpEq => format!("({a} == {b})"),
        BinaryOp::And if d.is_bool() => format!("({a} && {b})"),
        BinaryOp::And => format!("({a} & {b})"),
        BinaryOp::Or if d.is_bool() => format!("({a} || {b})"),
        BinaryOp::Or => format!("({a} | {b})"),
        BinaryOp::Xor if d.is_bool() => format!("({a} != {b})"),
        BinaryOp::Xor => format!("({a} ^ {b})"),
        BinaryOp::Shl => format!("{}({a}, {b})", h.use_int("shl", ty)),
        BinaryOp::Shr => format!("{}({a}, {b})", h.use_int("shr", ty)),
        BinaryOp::Pow if d == DType::F64 => format!("{}({a}, {b})", h.use_fn("tg_pow_d")),
        BinaryOp::Pow if d.is_float() => format!("{}({a}, {b})", h.use_fn("tg_pow_f")),
        BinaryOp::Pow => format!("{}({a}, {b})", h.use_int("pow", ty)),
    };
    match op {
        BinaryOp::Add | BinaryOp::Mul | BinaryOp::Idiv | BinaryOp::Shl | BinaryOp::Pow => {
            wrap(e, d, h)
        }
        _ => e,
    }
}

pub fn ternary(op: TernaryOp, a: &str, b: &str, c: &str, d: DType, h: &mut Helpers) -> String {
    match op {
        TernaryOp::Where => format!("({a} ? {b} : {c})"),
        TernaryOp::MulAcc if d.is_bool() => format!("(({a} && {b}) || {c})"),
        TernaryOp::MulAcc => {
            let m = wrap(format!("({a} * {b})"), d, h);
            wrap(format!("({m} + {c})"), d, h)
        }
    }
}

/// Saturating float -> integer conversion (NaN gives 0), as Rust's `as`.
fn float_to_int(a: &str, from: DType, to: DType) -> String {
    let sfx = if from == DType::F64 { "lf" } else { "" };
    let ty = reg(to);
    let (lo, hi) = (to.int_min(), to.int_max());
    let zero = literal(Scalar::Int(0), to);
    if to.size() < 4 {
        return format!("(isnan({a}) ? {zero} : {ty}(clamp({a}, {lo}.0{sfx}, {hi}.0{sfx})))");
    }
    // 2^(bits-1) or 2^bits is the first value out of range above; the lower bound is exact
    let top = format!("{}.0", (hi as u128) + 1);
    let (min_lit, max_lit) = (
        literal(Scalar::Int(lo as i64), to),
        literal(Scalar::UInt(hi as u64), to),
    );
    format!(
        "(isnan({a}) ? {zero} : ({a} >= {top}{sfx} ? {max_lit} : ({a} <= {lo}.0{sfx} ? {min_lit} : {ty}({a}))))"
    )
}

pub fn cast(a: &str, from: DType, to: DType, h: &mut Helpers) -> String {
    let ty = reg(to);
    if to.is_bool() {
        let zero = literal(Scalar::Int(0), from);
        return if from.is_float() {
            format!("(!({a} == {zero}))")
        } else {
            format!("({a} != {zero})")
        };
    }
    if from.is_bool() {
        let (one, zero) = (literal(Scalar::Int(1), to), literal(Scalar::Int(0), to));
        return format!("({a} ? {one} : {zero})");
    }
    match (from.is_float(), to.is_float()) {
        (true, true) => match (from, to) {
            (DType::F64, DType::F16) => {
                format!("{}({}({a}))", h.use_fn("tg_h2f"), h.use_fn("tg_d2h"))
            }
            (_, DType::F16) => wrap(a.to_string(), DType::F16, h),
            (_, DType::F64) => format!("double({a})"),
            _ => format!("float({a})"),
        },
        (true, false) => float_to_int(a, from, to),
        (false, true) => {
            let conv = format!("{ty}({a})");
            if to == DType::F16 {
                wrap(conv, to, h)
            } else {
                conv
            }
        }
        (false, false) => {
            // signed sources are sign-extended in their registers, so widening keeps the sign
            let conv = if to == DType::U64 && from.is_signed_int() {
                format!("uint64_t(int64_t({a}))")
            } else {
                format!("{ty}({a})")
            };
            wrap(conv, to, h)
        }
    }
}

pub fn bitcast(a: &str, from: DType, to: DType, h: &mut Helpers) -> String {
    use DType::*;
    match (from, to) {
        (F32, I32) => format!("floatBitsToInt({a})"),
        (F32, U32) => format!("floatBitsToUint({a})"),
        (I32, F32) => format!("intBitsToFloat({a})"),
        (U32, F32) => format!("uintBitsToFloat({a})"),
        (F64, I64) => format!("doubleBitsToInt64({a})"),
        (F64, U64) => format!("doubleBitsToUint64({a})"),
        (I64, F64) => format!("int64BitsToDouble({a})"),
        (U64, F64) => format!("uint64BitsToDouble({a})"),
        (F16, U16) => format!("{}({a})", h.use_fn("tg_f2h")),
        (F16, I16) => wrap(format!("int({}({a}))", h.use_fn("tg_f2h")), I16, h),
        (U16 | I16, F16) => format!("{}(uint({a}) & 0xffffu)", h.use_fn("tg_h2f")),
        _ => wrap(format!("{}({a})", reg(to)), to, h),
    }
}
