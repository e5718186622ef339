//! Element types: what each is, tinygrad's promotion lattice, the dtypes ops compute in, and
//! how a value is cast into an integer type.
//!
//! The runtime stores and computes them (`tg_runtime::dtype` adds scalars and the Rust element
//! types), tg-ops names them as Rust types, and the macros type kernel bodies with them: all
//! three read these rules, so they cannot drift apart.

use std::fmt;

/// An element type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    /// `bool`: one byte, 0 or 1.
    Bool,
    /// `i8`.
    I8,
    /// `u8`.
    U8,
    /// `i16`.
    I16,
    /// `u16`.
    U16,
    /// `i32`, the default integer type.
    I32,
    /// `u32`.
    U32,
    /// `i64`; needs the device feature `shaderInt64`.
    I64,
    /// `u64`; needs the device feature `shaderInt64`.
    U64,
    /// `f16` (IEEE half precision), computed in f32 and rounded after every op.
    F16,
    /// `f32`, the default float type.
    F32,
    /// `f64`; needs the device feature `shaderFloat64`.
    F64,
}

/// The kind of a Rust scalar operand (a literal or a scalar argument), which is "weak": it
/// takes the dtype of the tensor it meets (see [`DType::weak`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScalarKind {
    /// `1.5`, an `f32` or `f64` argument.
    Float,
    /// `2`, an integer argument.
    Int,
    /// `true`, a `bool` argument.
    Bool,
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

    /// The Rust spellings of [`DType::ALL`], in order: what `tensor!` suffixes and kernel
    /// bodies accept, listed in error messages.
    pub const RUST_NAMES: &'static str =
        "bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, f32, f64";

    /// Bytes per element in host memory and in device storage.
    pub const fn size(self) -> usize {
        match self {
            DType::Bool | DType::I8 | DType::U8 => 1,
            DType::I16 | DType::U16 | DType::F16 => 2,
            DType::I32 | DType::U32 | DType::F32 => 4,
            DType::I64 | DType::U64 | DType::F64 => 8,
        }
    }

    /// Bits per element.
    pub const fn bits(self) -> u32 {
        self.size() as u32 * 8
    }

    /// f16, f32 or f64.
    pub const fn is_float(self) -> bool {
        matches!(self, DType::F16 | DType::F32 | DType::F64)
    }

    /// Integer types, bool excluded.
    pub const fn is_int(self) -> bool {
        !self.is_float() && !self.is_bool()
    }

    /// `bool`.
    pub const fn is_bool(self) -> bool {
        matches!(self, DType::Bool)
    }

    /// u8, u16, u32 or u64.
    pub const fn is_unsigned(self) -> bool {
        matches!(self, DType::U8 | DType::U16 | DType::U32 | DType::U64)
    }

    /// i8, i16, i32 or i64.
    pub const fn is_signed_int(self) -> bool {
        matches!(self, DType::I8 | DType::I16 | DType::I32 | DType::I64)
    }

    /// Stored several to a 32-bit word.
    pub const fn is_packed(self) -> bool {
        self.size() < 4
    }

    /// Eight bytes wide: needs a device feature (`shaderInt64`, `shaderFloat64`).
    pub const fn is_64bit(self) -> bool {
        self.size() == 8
    }

    /// The dtype positions held in this integer dtype are compared in: i32 for types of up to
    /// 32 bits (u32 values past `i32::MAX` wrap negative, outside every axis as they would be
    /// anyway), i64 for the 64-bit ones. Narrow types are widened, so an axis longer than
    /// they reach is not wrapped into their range.
    pub const fn position_dtype(self) -> DType {
        if self.is_64bit() {
            DType::I64
        } else {
            DType::I32
        }
    }

    /// Short name, as numpy spells it (`float32`); what `Display` writes.
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

    /// The Rust type's name (`f32`), as the macros and tg-ops' typed API spell it.
    pub const fn rust_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::I8 => "i8",
            DType::U8 => "u8",
            DType::I16 => "i16",
            DType::U16 => "u16",
            DType::I32 => "i32",
            DType::U32 => "u32",
            DType::I64 => "i64",
            DType::U64 => "u64",
            DType::F16 => "f16",
            DType::F32 => "f32",
            DType::F64 => "f64",
        }
    }

    /// Parses a Rust type's name only (`f32`, not `float`): in a kernel body any other word is
    /// a variable.
    pub fn from_rust_name(name: &str) -> Option<DType> {
        DType::ALL.into_iter().find(|d| d.rust_name() == name)
    }

    /// Parses numpy's names and tg's short names (`f32`, `i8`, ...), and `half`, `float`,
    /// `double`.
    pub fn from_name(name: &str) -> Option<DType> {
        if let Some(d) = DType::from_rust_name(name) {
            return Some(d);
        }
        Some(match name {
            "int8" => DType::I8,
            "uint8" => DType::U8,
            "int16" => DType::I16,
            "uint16" => DType::U16,
            "int32" => DType::I32,
            "uint32" => DType::U32,
            "int64" => DType::I64,
            "uint64" => DType::U64,
            "float16" | "half" => DType::F16,
            "float32" | "float" => DType::F32,
            "float64" | "double" => DType::F64,
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

    /// Largest value, as f64 (exact for every type but the 64-bit integers' extremes).
    pub fn max_f64(self) -> f64 {
        match self {
            DType::Bool => 1.0,
            DType::F16 => 65504.0,
            DType::F32 => f32::MAX as f64,
            DType::F64 => f64::MAX,
            _ => self.int_max() as f64,
        }
    }

    /// Lower end of an integer type's range (bool is 0..=1; floats give the i128 extremes).
    pub const fn int_min(self) -> i128 {
        match self {
            DType::Bool => 0,
            DType::I8 => i8::MIN as i128,
            DType::I16 => i16::MIN as i128,
            DType::I32 => i32::MIN as i128,
            DType::I64 => i64::MIN as i128,
            DType::U8 | DType::U16 | DType::U32 | DType::U64 => 0,
            DType::F16 | DType::F32 | DType::F64 => i128::MIN,
        }
    }

    /// Upper end of an integer type's range (bool is 0..=1; floats give the i128 extremes).
    pub const fn int_max(self) -> i128 {
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
            DType::F16 | DType::F32 | DType::F64 => i128::MAX,
        }
    }

    /// Dtypes one step up in tinygrad's promotion lattice (bfloat16 and fp8 left out).
    pub const fn lattice_parents(self) -> &'static [DType] {
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
        // F64 is above every dtype, so the set is never empty
        DType::ALL[common.trailing_zeros() as usize]
    }

    /// The dtype of `tensor op scalar` for a tensor of this dtype: the tensor's, except that a
    /// float scalar with an integer or bool tensor gives the default float (f32), and an
    /// integer scalar with a bool tensor gives the default int (i32) (tinygrad's weak
    /// Python numbers).
    pub const fn weak(self, scalar: ScalarKind) -> DType {
        match scalar {
            ScalarKind::Float if !self.is_float() => DType::F32,
            ScalarKind::Int if self.is_bool() => DType::I32,
            _ => self,
        }
    }

    /// The dtype of a scalar on its own: the default float, the default int, or bool.
    pub const fn of_scalar(scalar: ScalarKind) -> DType {
        match scalar {
            ScalarKind::Float => DType::F32,
            ScalarKind::Int => DType::I32,
            ScalarKind::Bool => DType::Bool,
        }
    }

    /// The dtype float ops (exp, sqrt, division, mean) compute in: a float keeps its dtype,
    /// integers and bool give the default float.
    pub const fn float_of(self) -> DType {
        if self.is_float() { self } else { DType::F32 }
    }

    /// The dtype a sum of products of two `self` values, accumulated in `acc`, forms its
    /// products in: `acc` where it holds every such product exactly (f16 products in f32: 22
    /// significant bits of 24; f32 products in f64: 48 of 53), so the sum's rounding is the
    /// only one, as tensor cores and mixed-precision GEMMs form them; else `self`, where
    /// products round (floats) or wrap (integers, as tinygrad's `dot`) before the sum.
    /// Matmul, the direct convolution and two-operand einsum follow it. (On a device without
    /// f16 arithmetic, rounding each product to f16 is also a software rounding per
    /// multiply-add: it made f16 matmuls 4-5x slower than f32 on lavapipe.)
    ///
    /// ```
    /// use tg_core::dtype::DType;
    /// assert_eq!(DType::F16.product_dtype(DType::F32), DType::F32);
    /// assert_eq!(DType::F32.product_dtype(DType::F32), DType::F32);
    /// assert_eq!(DType::I8.product_dtype(DType::I32), DType::I8);
    /// ```
    pub const fn product_dtype(self, acc: DType) -> DType {
        match (self, acc) {
            (DType::F16, DType::F32 | DType::F64) | (DType::F32, DType::F64) => acc,
            _ => self,
        }
    }

    /// The dtype a sum accumulates in (tinygrad's `sum_acc_dtype`): bool and signed integers
    /// in at least i32, unsigned in at least u32, f16 in f32.
    pub fn sum_acc_dtype(self) -> DType {
        if self.is_unsigned() {
            self.least_upper(DType::U32)
        } else if self.is_int() || self.is_bool() {
            self.least_upper(DType::I32)
        } else {
            self.least_upper(DType::F32)
        }
    }

    /// The dtype a sum returns: its accumulation dtype, but f16 sums (accumulated in f32)
    /// are rounded back to f16, as numpy's.
    pub fn sum_dtype(self) -> DType {
        if self == DType::F16 {
            DType::F16
        } else {
            self.sum_acc_dtype()
        }
    }

    /// Two's-complement truncation of `v` to this integer type's width (a cast from a wider
    /// integer wraps). Bool and floats return `v`.
    pub const fn wrap_int(self, v: i128) -> i128 {
        if !self.is_int() {
            return v;
        }
        let bits = self.bits();
        let m = v & ((1i128 << bits) - 1);
        if self.is_signed_int() && m >= (1i128 << (bits - 1)) {
            m - (1i128 << bits)
        } else {
            m
        }
    }

    /// A float cast into this integer type: truncated toward zero and saturated at the
    /// type's range, NaN to 0 (Rust's `as`).
    pub fn saturate_float(self, f: f64) -> i128 {
        // `as i128` saturates and maps NaN to 0; then clamp into the target
        (f.trunc() as i128).clamp(self.int_min(), self.int_max())
    }

    /// Whether the bits of this dtype may be reinterpreted as `to` (`bitcast`): two non-bool
    /// dtypes of one size.
    pub const fn can_bitcast(self, to: DType) -> bool {
        self.size() == to.size() && !self.is_bool() && !to.is_bool()
    }

    /// Whether an integer value fits this type without wrapping (bool: 0 or 1).
    pub const fn holds_int(self, v: i128) -> bool {
        v >= self.int_min() && v <= self.int_max()
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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
    fn the_lattice_is_a_join_semilattice() {
        for a in DType::ALL {
            assert_eq!(a.least_upper(a), a);
            for b in DType::ALL {
                let j = a.least_upper(b);
                assert_eq!(j, b.least_upper(a), "{a} {b}");
                assert_eq!(j.least_upper(a), j, "{a} {b}: the join is above both");
                for c in DType::ALL {
                    assert_eq!(j.least_upper(c), a.least_upper(b.least_upper(c)));
                }
            }
        }
    }

    #[test]
    fn weak_scalars_and_accumulation() {
        use DType::*;
        assert_eq!(U8.weak(ScalarKind::Float), F32);
        assert_eq!(F16.weak(ScalarKind::Float), F16);
        assert_eq!(Bool.weak(ScalarKind::Int), I32);
        assert_eq!(U8.weak(ScalarKind::Int), U8);
        assert_eq!(Bool.weak(ScalarKind::Bool), Bool);
        assert_eq!(I8.sum_acc_dtype(), I32);
        assert_eq!(U16.sum_acc_dtype(), U32);
        assert_eq!(U64.sum_acc_dtype(), U64);
        assert_eq!(F16.sum_acc_dtype(), F32);
        assert_eq!(F16.sum_dtype(), F16);
        assert_eq!(Bool.sum_dtype(), I32);
        assert_eq!(I32.float_of(), F32);
        assert_eq!(F64.float_of(), F64);
    }

    #[test]
    fn names_round_trip() {
        for d in DType::ALL {
            assert_eq!(DType::from_name(d.name()), Some(d));
            assert_eq!(DType::from_name(d.rust_name()), Some(d));
            assert_eq!(DType::from_rust_name(d.rust_name()), Some(d));
        }
        assert_eq!(DType::from_rust_name("float"), None);
        assert_eq!(DType::from_name("double"), Some(DType::F64));
        let listed: Vec<&str> = DType::ALL.iter().map(|d| d.rust_name()).collect();
        assert_eq!(listed.join(", "), DType::RUST_NAMES);
    }

    #[test]
    fn integer_casts_wrap_and_floats_saturate() {
        assert_eq!(DType::U8.wrap_int(300), 44);
        assert_eq!(DType::I8.wrap_int(200), -56);
        assert_eq!(DType::U32.wrap_int(-1), u32::MAX as i128);
        assert_eq!(DType::I32.saturate_float(1e10), i32::MAX as i128);
        assert_eq!(DType::I8.saturate_float(-3.7), -3);
        assert_eq!(DType::I32.saturate_float(f64::NAN), 0);
        assert!(DType::U8.holds_int(255) && !DType::U8.holds_int(256));
        assert!(DType::F32.can_bitcast(DType::I32) && DType::U16.can_bitcast(DType::F16));
        assert!(!DType::F32.can_bitcast(DType::I64) && !DType::U8.can_bitcast(DType::Bool));
    }
}
