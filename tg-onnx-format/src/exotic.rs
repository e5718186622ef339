//! ONNX's element types narrower or stranger than tg's: bfloat16, the 8-bit floats (E4M3FN,
//! E4M3FNUZ, E5M2, E5M2FNUZ), the 4-bit float E2M1 and the 4- and 2-bit integers.
//!
//! tg computes none of them natively. A value of such a type is held in a *storage* dtype
//! that represents every one of its values exactly (f32 for the floats, i8 or u8 for the
//! integers) and tagged with the type, so that casts and quantization into it round as the
//! type does and ops on bfloat16 values round their results to bfloat16 (as numpy's
//! `ml_dtypes` computes them: in f32, rounded once per op). File data is decoded into the
//! storage dtype when read.

use tg_core::DType;

use crate::proto::tensor_proto::DataType;

/// An element type tg holds in a wider storage dtype.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Exotic {
    /// bfloat16: f32's exponent, 7 mantissa bits.
    BF16,
    /// 8-bit float, 4 exponent bits, 3 mantissa bits, no infinities (max 448).
    F8E4M3FN,
    /// As E4M3FN with no negative zero and bias 8 (max 240).
    F8E4M3FNUZ,
    /// 8-bit float, 5 exponent bits, 2 mantissa bits, with infinities (max 57344).
    F8E5M2,
    /// As E5M2 with no infinities, no negative zero and bias 16 (max 57344).
    F8E5M2FNUZ,
    /// 4-bit float, 2 exponent bits, 1 mantissa bit (max 6).
    F4E2M1,
    /// 4-bit signed integer.
    I4,
    /// 4-bit unsigned integer.
    U4,
    /// 2-bit signed integer.
    I2,
    /// 2-bit unsigned integer.
    U2,
}

/// A small float format's parameters.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FloatFormat {
    /// Mantissa bits.
    pub mantissa: u32,
    /// The exponent of the smallest normal number (`1 - bias`).
    pub min_exp: i32,
    /// The largest finite value.
    pub max: f64,
    /// Whether the format has infinities (else overflow saturates or gives NaN).
    pub has_inf: bool,
    /// Whether the format has NaN (E2M1 has none: NaN becomes 0 there).
    pub has_nan: bool,
}

impl Exotic {
    /// The exotic type of an ONNX element type code, if it is one.
    pub fn from_onnx(code: i32) -> Option<Exotic> {
        Some(match DataType::try_from(code).ok()? {
            DataType::Bfloat16 => Exotic::BF16,
            DataType::Float8e4m3fn => Exotic::F8E4M3FN,
            DataType::Float8e4m3fnuz => Exotic::F8E4M3FNUZ,
            DataType::Float8e5m2 => Exotic::F8E5M2,
            DataType::Float8e5m2fnuz => Exotic::F8E5M2FNUZ,
            DataType::Float4e2m1 => Exotic::F4E2M1,
            DataType::Int4 => Exotic::I4,
            DataType::Uint4 => Exotic::U4,
            DataType::Int2 => Exotic::I2,
            DataType::Uint2 => Exotic::U2,
            _ => return None,
        })
    }

    /// The ONNX element type code.
    pub fn to_onnx(self) -> i32 {
        (match self {
            Exotic::BF16 => DataType::Bfloat16,
            Exotic::F8E4M3FN => DataType::Float8e4m3fn,
            Exotic::F8E4M3FNUZ => DataType::Float8e4m3fnuz,
            Exotic::F8E5M2 => DataType::Float8e5m2,
            Exotic::F8E5M2FNUZ => DataType::Float8e5m2fnuz,
            Exotic::F4E2M1 => DataType::Float4e2m1,
            Exotic::I4 => DataType::Int4,
            Exotic::U4 => DataType::Uint4,
            Exotic::I2 => DataType::Int2,
            Exotic::U2 => DataType::Uint2,
        }) as i32
    }

    /// ONNX's name of the type.
    pub fn name(self) -> &'static str {
        DataType::try_from(self.to_onnx())
            .map(|d| d.as_str_name())
            .unwrap_or("?")
    }

    /// The tg dtype values of this type are held in.
    pub fn storage(self) -> DType {
        match self {
            Exotic::I4 | Exotic::I2 => DType::I8,
            Exotic::U4 | Exotic::U2 => DType::U8,
            _ => DType::F32,
        }
    }

    /// Bits per element in a file.
    pub fn bits(self) -> usize {
        match self {
            Exotic::BF16 => 16,
            Exotic::F4E2M1 | Exotic::I4 | Exotic::U4 => 4,
            Exotic::I2 | Exotic::U2 => 2,
            _ => 8,
        }
    }

    /// The integer range of the integer types.
    pub fn int_range(self) -> Option<(i64, i64)> {
        match self {
            Exotic::I4 => Some((-8, 7)),
            Exotic::U4 => Some((0, 15)),
            Exotic::I2 => Some((-2, 1)),
            Exotic::U2 => Some((0, 3)),
            _ => None,
        }
    }

    /// The float format of the small float types (bfloat16 is rounded on its bits instead).
    pub fn float_format(self) -> Option<FloatFormat> {
        let f = |mantissa, min_exp, max, has_inf, has_nan| FloatFormat {
            mantissa,
            min_exp,
            max,
            has_inf,
            has_nan,
        };
        match self {
            Exotic::F8E4M3FN => Some(f(3, -6, 448.0, false, true)),
            Exotic::F8E4M3FNUZ => Some(f(3, -7, 240.0, false, true)),
            Exotic::F8E5M2 => Some(f(2, -14, 57344.0, true, true)),
            Exotic::F8E5M2FNUZ => Some(f(2, -15, 57344.0, false, true)),
            Exotic::F4E2M1 => Some(f(1, 0, 6.0, false, false)),
            _ => None,
        }
    }

    /// Whether `-0` and one NaN share the encoding `0x80` (the "FNUZ" types): their only
    /// NaN is unsigned and infinities saturate to NaN.
    pub fn fnuz(self) -> bool {
        matches!(self, Exotic::F8E4M3FNUZ | Exotic::F8E5M2FNUZ)
    }

    /// Decodes one element's bits (`bits()` wide, right-aligned) to its value.
    pub fn decode(self, code: u32) -> f64 {
        if let Some((lo, _)) = self.int_range() {
            let bits = self.bits() as u32;
            let v = code as i64 & ((1 << bits) - 1);
            return (if lo < 0 && v >= 1 << (bits - 1) {
                v - (1 << bits)
            } else {
                v
            }) as f64;
        }
        match self {
            Exotic::BF16 => f32::from_bits(code << 16) as f64,
            _ => {
                let (e_bits, m_bits, bias) = match self {
                    Exotic::F8E4M3FN => (4, 3, 7),
                    Exotic::F8E4M3FNUZ => (4, 3, 8),
                    Exotic::F8E5M2 => (5, 2, 15),
                    Exotic::F8E5M2FNUZ => (5, 2, 16),
                    _ => (2, 1, 1),
                };
                let total = 1 + e_bits + m_bits;
                let sign = (code >> (total - 1)) & 1;
                let e = (code >> m_bits) & ((1 << e_bits) - 1);
                let m = code & ((1 << m_bits) - 1);
                if self.fnuz() && sign == 1 && e == 0 && m == 0 {
                    return f64::NAN;
                }
                let emax = (1 << e_bits) - 1;
                match self {
                    Exotic::F8E4M3FN if e == emax && m == (1 << m_bits) - 1 => return f64::NAN,
                    Exotic::F8E5M2 if e == emax => {
                        return if m == 0 {
                            if sign == 1 {
                                f64::NEG_INFINITY
                            } else {
                                f64::INFINITY
                            }
                        } else {
                            f64::NAN
                        };
                    }
                    _ => {}
                }
                let mag = if e == 0 {
                    m as f64 * 2f64.powi(1 - bias - m_bits)
                } else {
                    (1.0 + m as f64 / (1 << m_bits) as f64) * 2f64.powi(e as i32 - bias)
                };
                if sign == 1 { -mag } else { mag }
            }
        }
    }

    /// Decodes `n` elements packed in `bytes` (little-endian, the lowest bits first).
    pub fn decode_all(self, bytes: &[u8], n: usize) -> Option<Vec<f64>> {
        let bits = self.bits();
        if bytes.len() * 8 < n * bits {
            return None;
        }
        Some(
            (0..n)
                .map(|i| {
                    let code = if bits == 16 {
                        u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]) as u32
                    } else {
                        let bit = i * bits;
                        ((bytes[bit / 8] >> (bit % 8)) as u32) & ((1 << bits) - 1)
                    };
                    self.decode(code)
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_extremes() {
        assert_eq!(Exotic::F8E4M3FN.decode(0x7E), 448.0);
        assert!(Exotic::F8E4M3FN.decode(0x7F).is_nan());
        assert_eq!(Exotic::F8E4M3FNUZ.decode(0x7F), 240.0);
        assert!(Exotic::F8E4M3FNUZ.decode(0x80).is_nan());
        assert_eq!(Exotic::F8E5M2.decode(0x7B), 57344.0);
        assert_eq!(Exotic::F8E5M2.decode(0x7C), f64::INFINITY);
        assert_eq!(Exotic::F8E4M3FN.decode(0x01), 2f64.powi(-9));
        assert_eq!(Exotic::F4E2M1.decode(0x7), 6.0);
        assert_eq!(Exotic::F4E2M1.decode(0x1), 0.5);
        assert_eq!(Exotic::I4.decode(0xF), -1.0);
        assert_eq!(Exotic::U2.decode(0x3), 3.0);
        assert_eq!(Exotic::BF16.decode(0x3F80), 1.0);
        assert_eq!(
            Exotic::I4.decode_all(&[0x21, 0x0F], 3).unwrap(),
            vec![1.0, 2.0, -1.0]
        );
    }
}
