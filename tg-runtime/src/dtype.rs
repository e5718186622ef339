//! Element types and how each is stored and computed on a Vulkan device.
//!
//! Types narrower than 32 bits are stored packed in 32-bit words so that every device can hold
//! them, with or without the 8- and 16-bit storage features; they are computed in 32-bit
//! registers and wrapped (integers) or rounded (f16) after every operation, so results equal
//! numpy's per-op semantics. Storage and arithmetic precision are thus kept apart.

use std::fmt;

/// The element types and their rules (size, kind, promotion lattice, cast rules) live in
/// tg-core, shared with tg-ops and the macros; the runtime adds how values of them are held.
pub use tg_core::DType;

/// A scalar value of some dtype; the payload kind follows the dtype's kind.
#[derive(Copy, Clone, Debug)]
pub enum Scalar {
    /// `true` or `false`.
    Bool(bool),
    /// A signed integer.
    Int(i64),
    /// An unsigned integer.
    UInt(u64),
    /// A float.
    Float(f64),
}

impl Scalar {
    /// The kind of Rust scalar this is, which decides the dtype it takes next to a tensor
    /// ([`DType::weak`]).
    pub fn kind(self) -> tg_core::ScalarKind {
        match self {
            Scalar::Bool(_) => tg_core::ScalarKind::Bool,
            Scalar::Int(_) | Scalar::UInt(_) => tg_core::ScalarKind::Int,
            Scalar::Float(_) => tg_core::ScalarKind::Float,
        }
    }

    /// Converts to `dtype` with tg's cast semantics: integers wrap, floats saturate into integer
    /// types (NaN becomes 0), f16 rounds to nearest even.
    pub fn cast(self, dtype: DType) -> Scalar {
        match dtype {
            DType::Bool => Scalar::Bool(match self {
                Scalar::Bool(b) => b,
                Scalar::Int(i) => i != 0,
                Scalar::UInt(u) => u != 0,
                Scalar::Float(f) => f != 0.0,
            }),
            DType::F16 => Scalar::Float(half::f16::from_f64(self.as_f64()).to_f64()),
            DType::F32 => Scalar::Float(self.as_f64() as f32 as f64),
            DType::F64 => Scalar::Float(self.as_f64()),
            t => {
                let wide: i128 = match self {
                    Scalar::Bool(b) => b as i128,
                    Scalar::Int(i) => i as i128,
                    Scalar::UInt(u) => u as i128,
                    Scalar::Float(f) => t.saturate_float(f),
                };
                let wrapped = t.wrap_int(wide);
                if t.is_unsigned() {
                    Scalar::UInt(wrapped as u64)
                } else {
                    Scalar::Int(wrapped as i64)
                }
            }
        }
    }

    /// The value as f64 (exact for floats and integers up to 2^53).
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as u8 as f64,
            Scalar::Int(i) => i as f64,
            Scalar::UInt(u) => u as f64,
            Scalar::Float(f) => f,
        }
    }

    /// The value as i128 (floats truncate toward zero).
    pub fn as_i128(self) -> i128 {
        match self {
            Scalar::Bool(b) => b as i128,
            Scalar::Int(i) => i as i128,
            Scalar::UInt(u) => u as i128,
            Scalar::Float(f) => f as i128,
        }
    }

    /// Bits that identify the value for hashing; distinct NaN payloads collapse.
    pub fn key_bits(self) -> u64 {
        match self {
            Scalar::Bool(b) => b as u64,
            Scalar::Int(i) => i as u64,
            Scalar::UInt(u) => u,
            Scalar::Float(f) if f.is_nan() => f64::NAN.to_bits(),
            Scalar::Float(f) => f.to_bits(),
        }
    }

    /// The little-endian bytes of this value stored as `dtype`.
    pub fn to_le_bytes(self, dtype: DType) -> Vec<u8> {
        match self.cast(dtype) {
            Scalar::Bool(b) => vec![b as u8],
            Scalar::Float(f) => match dtype {
                DType::F16 => half::f16::from_f64(f).to_le_bytes().to_vec(),
                DType::F32 => (f as f32).to_le_bytes().to_vec(),
                _ => f.to_le_bytes().to_vec(),
            },
            Scalar::Int(i) => i.to_le_bytes()[..dtype.size()].to_vec(),
            Scalar::UInt(u) => u.to_le_bytes()[..dtype.size()].to_vec(),
        }
    }
}

impl From<f32> for Scalar {
    fn from(v: f32) -> Self {
        Scalar::Float(v as f64)
    }
}
impl From<f64> for Scalar {
    fn from(v: f64) -> Self {
        Scalar::Float(v)
    }
}
impl From<i32> for Scalar {
    fn from(v: i32) -> Self {
        Scalar::Int(v as i64)
    }
}
impl From<i64> for Scalar {
    fn from(v: i64) -> Self {
        Scalar::Int(v)
    }
}
impl From<u32> for Scalar {
    fn from(v: u32) -> Self {
        Scalar::UInt(v as u64)
    }
}
impl From<u64> for Scalar {
    fn from(v: u64) -> Self {
        Scalar::UInt(v)
    }
}
impl From<bool> for Scalar {
    fn from(v: bool) -> Self {
        Scalar::Bool(v)
    }
}

/// Rust element types that map to a tg dtype, for host I/O.
pub trait Element: Copy + Send + Sync + 'static + fmt::Debug {
    /// The tg dtype of the Rust type.
    const DTYPE: DType;
    /// The value as a scalar.
    fn to_scalar(self) -> Scalar;
    /// The Rust value of a scalar, cast with tg's cast rules.
    fn from_scalar(s: Scalar) -> Self;
    /// Appends the little-endian bytes.
    fn write_le(self, out: &mut Vec<u8>);
    /// Reads the little-endian bytes of one element.
    fn read_le(bytes: &[u8]) -> Self;
}

macro_rules! element {
    ($t:ty, $d:expr, $to:expr, $from:expr) => {
        impl Element for $t {
            const DTYPE: DType = $d;
            fn to_scalar(self) -> Scalar {
                #[allow(clippy::redundant_closure_call)]
                ($to)(self)
            }
            fn from_scalar(s: Scalar) -> Self {
                #[allow(clippy::redundant_closure_call)]
                ($from)(s.cast($d))
            }
            fn write_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn read_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("element size"))
            }
        }
    };
}

element!(
    f32,
    DType::F32,
    |v: f32| Scalar::Float(v as f64),
    |s: Scalar| s.as_f64() as f32
);
element!(f64, DType::F64, Scalar::Float, |s: Scalar| s.as_f64());
element!(
    half::f16,
    DType::F16,
    |v: half::f16| Scalar::Float(v.to_f64()),
    |s: Scalar| half::f16::from_f64(s.as_f64())
);
element!(
    i8,
    DType::I8,
    |v: i8| Scalar::Int(v as i64),
    |s: Scalar| s.as_i128() as i8
);
element!(
    u8,
    DType::U8,
    |v: u8| Scalar::UInt(v as u64),
    |s: Scalar| s.as_i128() as u8
);
element!(
    i16,
    DType::I16,
    |v: i16| Scalar::Int(v as i64),
    |s: Scalar| s.as_i128() as i16
);
element!(
    u16,
    DType::U16,
    |v: u16| Scalar::UInt(v as u64),
    |s: Scalar| s.as_i128() as u16
);
element!(
    i32,
    DType::I32,
    |v: i32| Scalar::Int(v as i64),
    |s: Scalar| s.as_i128() as i32
);
element!(
    u32,
    DType::U32,
    |v: u32| Scalar::UInt(v as u64),
    |s: Scalar| s.as_i128() as u32
);
element!(i64, DType::I64, Scalar::Int, |s: Scalar| s.as_i128() as i64);
element!(u64, DType::U64, Scalar::UInt, |s: Scalar| s.as_i128()
    as u64);

impl Element for bool {
    const DTYPE: DType = DType::Bool;
    fn to_scalar(self) -> Scalar {
        Scalar::Bool(self)
    }
    fn from_scalar(s: Scalar) -> Self {
        matches!(s.cast(DType::Bool), Scalar::Bool(true))
    }
    fn write_le(self, out: &mut Vec<u8>) {
        out.push(self as u8);
    }
    fn read_le(bytes: &[u8]) -> Self {
        bytes[0] != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casts_wrap_and_saturate() {
        assert_eq!(Scalar::Int(300).cast(DType::U8).as_i128(), 44);
        assert_eq!(Scalar::Int(-1).cast(DType::U32).as_i128(), u32::MAX as i128);
        assert_eq!(
            Scalar::Float(1e10).cast(DType::I32).as_i128(),
            i32::MAX as i128
        );
        assert_eq!(Scalar::Float(-3.7).cast(DType::I8).as_i128(), -3);
        assert_eq!(Scalar::Float(f64::NAN).cast(DType::I32).as_i128(), 0);
        assert_eq!(Scalar::Float(300.0).cast(DType::U8).as_i128(), 255);
        assert_eq!(
            Scalar::Float(f64::INFINITY).cast(DType::I64).as_i128(),
            i64::MAX as i128
        );
        assert_eq!(
            Scalar::Float(1e300).cast(DType::U64).as_i128(),
            u64::MAX as i128
        );
        assert_eq!(
            Scalar::Float(-1e300).cast(DType::I64).as_i128(),
            i64::MIN as i128
        );
    }
}
