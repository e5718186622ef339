//! Element types and how each is stored and computed on a Vulkan device.
//!
//! Types narrower than 32 bits are stored packed in 32-bit words so that every device can hold
//! them, with or without the 8- and 16-bit storage features; they are computed in 32-bit
//! registers and wrapped (integers) or rounded (f16) after every operation, so results equal
//! numpy's per-op semantics. Storage and arithmetic precision are thus kept apart.

use std::fmt;

/// An element type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    F64,
}

impl DType {
    /// Every dtype, in promotion-lattice order within each kind.
    pub const ALL: [DType; 12] = [
        DType::Bool,
        DType::I8,
        DType::U8,
        DType::I16,
        DType::U16,
        DType::I32,
        DType::U32,
        DType::I64,
        DType::U64,
        DType::F16,
        DType::F32,
        DType::F64,
    ];

    /// Bytes per element in host memory and in device storage.
    pub const fn size(self) -> usize {
        match self {
            DType::Bool | DType::I8 | DType::U8 => 1,
            DType::I16 | DType::U16 | DType::F16 => 2,
            DType::I32 | DType::U32 | DType::F32 => 4,
            DType::I64 | DType::U64 | DType::F64 => 8,
        }
    }

    pub const fn bits(self) -> u32 {
        self.size() as u32 * 8
    }

    pub const fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::F32 | DType::F64)
    }

    /// Integer types, bool excluded.
    pub const fn is_int(self) -> bool {
        !self.is_float() && !self.is_bool()
    }

    pub const fn is_bool(self) -> bool {
        matches!(self, DType::Bool)
    }

    pub const fn is_unsigned(self) -> bool {
        matches!(self, DType::U8 | DType::U16 | DType::U32 | DType::U64)
    }

    pub const fn is_signed_int(self) -> bool {
        matches!(self, DType::I8 | DType::I16 | DType::I32 | DType::I64)
    }

    /// Stored several to a 32-bit word.
    pub const fn is_packed(self) -> bool {
        self.size() < 4
    }

    pub const fn is_64bit(self) -> bool {
        self.size() == 8
    }

    /// Short name, as numpy spells it.
    pub const fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::I8 => "int8",
            DType::U8 => "uint8",
            DType::I16 => "int16",
            DType::U16 => "uint16",
            DType::I32 => "int32",
            DType::U32 => "uint32",
            DType::I64 => "int64",
            DType::U64 => "uint64",
            DType::F16 => "float16",
            DType::F32 => "float32",
            DType::F64 => "float64",
        }
    }

    /// Parses numpy's names and tg's short names (`f32`, `i8`, ...).
    pub fn from_name(name: &str) -> Option<DType> {
        Some(match name {
            "bool" => DType::Bool,
            "int8" | "i8" => DType::I8,
            "uint8" | "u8" => DType::U8,
            "int16" | "i16" => DType::I16,
            "uint16" | "u16" => DType::U16,
            "int32" | "i32" => DType::I32,
            "uint32" | "u32" => DType::U32,
            "int64" | "i64" => DType::I64,
            "uint64" | "u64" => DType::U64,
            "float16" | "f16" | "half" => DType::F16,
            "float32" | "f32" | "float" => DType::F32,
            "float64" | "f64" | "double" => DType::F64,
            _ => return None,
        })
    }

    /// Smallest value, as f64 (exact for every type but the 64-bit integers' extremes).
    pub fn min_f64(self) -> f64 {
        match self {
            DType::Bool => 0.0,
            DType::F16 => -65504.0,
            DType::F32 => f32::MIN as f64,
            DType::F64 => f64::MIN,
            _ => self.int_min() as f64,
        }
    }

    pub fn max_f64(self) -> f64 {
        match self {
            DType::Bool => 1.0,
            DType::F16 => 65504.0,
            DType::F32 => f32::MAX as f64,
            DType::F64 => f64::MAX,
            _ => self.int_max() as f64,
        }
    }

    /// Range of an integer type (bool is 0..=1; floats give the i128 extremes).
    pub fn int_min(self) -> i128 {
        match self {
            DType::Bool => 0,
            DType::I8 => i8::MIN as i128,
            DType::I16 => i16::MIN as i128,
            DType::I32 => i32::MIN as i128,
            DType::I64 => i64::MIN as i128,
            DType::U8 | DType::U16 | DType::U32 | DType::U64 => 0,
            _ => i128::MIN,
        }
    }

    pub fn int_max(self) -> i128 {
        match self {
            DType::Bool => 1,
            DType::I8 => i8::MAX as i128,
            DType::U8 => u8::MAX as i128,
            DType::I16 => i16::MAX as i128,
            DType::U16 => u16::MAX as i128,
            DType::I32 => i32::MAX as i128,
            DType::U32 => u32::MAX as i128,
            DType::I64 => i64::MAX as i128,
            DType::U64 => u64::MAX as i128,
            _ => i128::MAX,
        }
    }

    /// Dtypes one step up in tinygrad's promotion lattice (bfloat16 and fp8 left out).
    const fn lattice_parents(self) -> &'static [DType] {
        use DType::*;
        match self {
            Bool => &[I8, U8],
            I8 => &[I16],
            U8 => &[I16, U16],
            I16 => &[I32],
            U16 => &[I32, U32],
            I32 => &[I64],
            U32 => &[I64, U64],
            I64 | U64 => &[F16],
            F16 => &[F32],
            F32 => &[F64],
            F64 => &[],
        }
    }

    /// Bit set (by enum order) of `self` and every dtype above it in the lattice.
    fn lattice_ancestors(self) -> u32 {
        self.lattice_parents()
            .iter()
            .fold(1u32 << self as u32, |acc, p| acc | p.lattice_ancestors())
    }

    /// The lowest-priority dtype that both promote to, as tinygrad's `least_upper_dtype`:
    /// `int8 + uint8 -> int16`, `uint32 + int32 -> int64`, `int64 + uint64 -> float16`
    /// (tinygrad's lattice, where the 64-bit integers meet in the 16-bit float).
    pub fn least_upper(self, other: DType) -> DType {
        let common = self.lattice_ancestors() & other.lattice_ancestors();
        DType::ALL[common.trailing_zeros() as usize]
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A scalar value of some dtype; the payload kind follows the dtype's kind.
#[derive(Copy, Clone, Debug)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
}

impl Scalar {
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
                    Scalar::Float(f) => {
                        // `as i128` saturates and maps NaN to 0; clamp into the target in i128
                        (f.trunc() as i128).clamp(t.int_min(), t.int_max())
                    }
                };
                let wrapped = wrap_int(wide, t);
                if t.is_unsigned() {
                    Scalar::UInt(wrapped as u64)
                } else {
                    Scalar::Int(wrapped as i64)
                }
            }
        }
    }

    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Bool(b) => b as u8 as f64,
            Scalar::Int(i) => i as f64,
            Scalar::UInt(u) => u as f64,
            Scalar::Float(f) => f,
        }
    }

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

/// Two's-complement truncation of `v` to the width of integer type `t`.
fn wrap_int(v: i128, t: DType) -> i128 {
    let bits = t.bits();
    let m = v & ((1i128 << bits) - 1);
    if t.is_signed_int() && m >= (1i128 << (bits - 1)) {
        m - (1i128 << bits)
    } else {
        m
    }
}

/// Rust element types that map to a tg dtype, for host I/O.
pub trait Element: Copy + Send + Sync + 'static + fmt::Debug {
    const DTYPE: DType;
    fn to_scalar(self) -> Scalar;
    fn from_scalar(s: Scalar) -> Self;
    fn write_le(self, out: &mut Vec<u8>);
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
    fn promotion_follows_tinygrad() {
        use DType::*;
        assert_eq!(Bool.least_upper(I8), I8);
        assert_eq!(I8.least_upper(U8), I16);
        assert_eq!(U8.least_upper(I32), I32);
        assert_eq!(U32.least_upper(I32), I64);
        assert_eq!(U64.least_upper(I64), F16);
        assert_eq!(I64.least_upper(F16), F16);
        assert_eq!(F16.least_upper(F32), F32);
        assert_eq!(U16.least_upper(I8), I32);
    }

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
