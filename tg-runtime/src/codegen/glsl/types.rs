//! GLSL spellings of tg dtypes: the register type each is computed in, its storage views, and
//! exact literals.

use crate::dtype::{DType, Scalar};

/// The GLSL type a value of `d` is computed in. Narrow integers live in 32-bit registers and
/// f16 in a `float` that always holds an f16-representable value.
pub fn reg(d: DType) -> &'static str {
    match d {
        DType::Bool => "bool",
        DType::I8 | DType::I16 | DType::I32 => "int",
        DType::U8 | DType::U16 | DType::U32 => "uint",
        DType::I64 => "int64_t",
        DType::U64 => "uint64_t",
        DType::F16 | DType::F32 => "float",
        DType::F64 => "double",
    }
}

/// Element type of a buffer read one element at a time (packed types: 32-bit words).
pub fn scalar_storage(d: DType) -> &'static str {
    match d {
        DType::F32 => "float",
        DType::I32 => "int",
        DType::F64 => "double",
        DType::I64 => "int64_t",
        DType::U64 => "uint64_t",
        _ => "uint",
    }
}

/// Element type of a buffer read `LANES` elements at a time.
pub fn vector_storage(d: DType) -> &'static str {
    match d.size() {
        1 => "uint",
        2 => "uvec2",
        _ => match d {
            DType::F32 => "vec4",
            DType::I32 => "ivec4",
            DType::U32 => "uvec4",
            DType::F64 => "dvec4",
            DType::I64 => "i64vec4",
            _ => "u64vec4",
        },
    }
}

/// The storage of eight consecutive elements (of at most 32 bits) read as one load: 32-bit
/// lanes in pairs as 64-bit words (needs `GL_ARB_gpu_shader_int64`).
pub fn wide_storage(d: DType) -> &'static str {
    match d.size() {
        1 => "uvec2",
        2 => "uvec4",
        _ => "u64vec4",
    }
}

/// Needs `GL_ARB_gpu_shader_int64`.
pub fn needs_int64(d: DType) -> bool {
    matches!(d, DType::I64 | DType::U64 | DType::F64)
}

fn float_literal(v: f32) -> String {
    if v.is_finite() {
        let s = format!("{v:?}");
        // glslang parses decimals through f64: accept the text only if that lands on v exactly
        if s.parse::<f64>().is_ok_and(|d| d as f32 == v) && !s.contains(['e', 'E']) {
            return s;
        }
    }
    format!("uintBitsToFloat(0x{:08x}u)", v.to_bits())
}

/// An exact GLSL literal of `v` as a `d` register value.
pub fn literal(v: Scalar, d: DType) -> String {
    let v = v.cast(d);
    match d {
        DType::Bool => (if v.as_i128() != 0 { "true" } else { "false" }).into(),
        DType::I8 | DType::I16 | DType::I32 => {
            let i = v.as_i128() as i32;
            if i == i32::MIN {
                "(-2147483647 - 1)".into()
            } else if i < 0 {
                format!("({i})")
            } else {
                i.to_string()
            }
        }
        DType::U8 | DType::U16 | DType::U32 => format!("{}u", v.as_i128() as u32),
        DType::I64 => {
            let i = v.as_i128() as i64;
            if i == i64::MIN {
                "(-9223372036854775807l - 1l)".into()
            } else if i < 0 {
                format!("({i}l)")
            } else {
                format!("{i}l")
            }
        }
        DType::U64 => format!("{}ul", v.as_i128() as u64),
        DType::F16 | DType::F32 => float_literal(v.as_f64() as f32),
        DType::F64 => {
            let f = v.as_f64();
            if f.is_finite() {
                format!("({f:e}lf)")
            } else {
                format!("double({})", float_literal(f as f32))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_are_exact() {
        assert_eq!(literal(Scalar::Float(0.5), DType::F32), "0.5");
        assert_eq!(literal(Scalar::Float(0.1), DType::F32), "0.1");
        assert_eq!(
            literal(Scalar::Float(f64::INFINITY), DType::F32),
            "uintBitsToFloat(0x7f800000u)"
        );
        assert_eq!(
            literal(Scalar::Int(i32::MIN as i64), DType::I32),
            "(-2147483647 - 1)"
        );
        assert_eq!(literal(Scalar::Int(-3), DType::U8), "253u");
        assert_eq!(
            literal(Scalar::Float(1e30), DType::F32),
            "uintBitsToFloat(0x7149f2cau)"
        );
    }
}
