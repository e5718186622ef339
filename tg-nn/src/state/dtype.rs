//! Element types as safetensors stores them, and the one conversion tg does while loading:
//! bf16 (which tg does not compute in) to a float dtype.

use std::fmt;

use half::f16;
use safetensors::Dtype as St;
use tg_runtime::DType;

/// A tensor's element type in a safetensors file: one of tg's, bf16 (common in published
/// checkpoints; loaded as a float dtype), or one tg cannot hold (named as the file spells it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileDtype {
    /// A dtype tg has.
    Native(DType),
    /// bfloat16, converted exactly to f32 (or f64), or rounded to f16, when loaded.
    Bf16,
    /// Any other (f8 variants, complex, sub-byte floats), as the file names it.
    Unsupported(String),
}

impl FileDtype {
    /// The file's dtype as tg sees it.
    pub(crate) fn of(d: St) -> FileDtype {
        match d {
            St::BOOL => FileDtype::Native(DType::Bool),
            St::I8 => FileDtype::Native(DType::I8),
            St::U8 => FileDtype::Native(DType::U8),
            St::I16 => FileDtype::Native(DType::I16),
            St::U16 => FileDtype::Native(DType::U16),
            St::I32 => FileDtype::Native(DType::I32),
            St::U32 => FileDtype::Native(DType::U32),
            St::I64 => FileDtype::Native(DType::I64),
            St::U64 => FileDtype::Native(DType::U64),
            St::F16 => FileDtype::Native(DType::F16),
            St::F32 => FileDtype::Native(DType::F32),
            St::F64 => FileDtype::Native(DType::F64),
            St::BF16 => FileDtype::Bf16,
            // `Dtype` is non-exhaustive: every other kind, present or future, is one tg lacks
            other => FileDtype::Unsupported(format!("{other:?}")),
        }
    }

    /// The dtype `load` gives a tensor stored as `self` when nothing else is asked: its own,
    /// f32 for bf16; `None` where tg has no dtype for it.
    pub(crate) fn default_target(&self) -> Option<DType> {
        match self {
            FileDtype::Native(d) => Some(*d),
            FileDtype::Bf16 => Some(DType::F32),
            FileDtype::Unsupported(_) => None,
        }
    }

    /// Whether a tensor stored as `self` loads as `want`: the same dtype, or bf16 into any
    /// float dtype.
    pub(crate) fn loads_as(&self, want: DType) -> bool {
        match self {
            FileDtype::Native(d) => *d == want,
            FileDtype::Bf16 => want.is_float(),
            FileDtype::Unsupported(_) => false,
        }
    }
}

impl fmt::Display for FileDtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileDtype::Native(d) => write!(f, "{d}"),
            FileDtype::Bf16 => f.write_str("bfloat16"),
            FileDtype::Unsupported(name) => write!(f, "{name} (not supported by tg)"),
        }
    }
}

/// safetensors' name for a tg dtype (every tg dtype has one).
pub(crate) fn file_dtype(d: DType) -> St {
    match d {
        DType::Bool => St::BOOL,
        DType::I8 => St::I8,
        DType::U8 => St::U8,
        DType::I16 => St::I16,
        DType::U16 => St::U16,
        DType::I32 => St::I32,
        DType::U32 => St::U32,
        DType::I64 => St::I64,
        DType::U64 => St::U64,
        DType::F16 => St::F16,
        DType::F32 => St::F32,
        DType::F64 => St::F64,
    }
}

/// The little-endian bytes of a tensor stored as `stored`, as tg's bytes of `target`
/// (`stored.loads_as(target)` holds). bf16 to f32 and f64 is exact (a bf16 is the top half of
/// an f32); to f16 it rounds to nearest even. Bool bytes other than 0 become 1, so tg's bool
/// buffers hold only 0 and 1.
pub(crate) fn convert(stored: &FileDtype, target: DType, bytes: &[u8]) -> Vec<u8> {
    match (stored, target) {
        (FileDtype::Bf16, _) => {
            let values = bytes
                .chunks_exact(2)
                .map(|b| f32::from_bits(u32::from(u16::from_le_bytes([b[0], b[1]])) << 16));
            match target {
                DType::F64 => values.flat_map(|v| f64::from(v).to_le_bytes()).collect(),
                DType::F16 => values
                    .flat_map(|v| f16::from_f32(v).to_le_bytes())
                    .collect(),
                _ => values.flat_map(f32::to_le_bytes).collect(),
            }
        }
        (FileDtype::Native(DType::Bool), _) => bytes.iter().map(|&b| u8::from(b != 0)).collect(),
        _ => bytes.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tg_dtype_round_trips_through_the_file_names() {
        for d in DType::ALL {
            assert_eq!(FileDtype::of(file_dtype(d)), FileDtype::Native(d));
        }
    }

    #[test]
    fn bf16_widens_exactly_and_rounds_to_f16_to_nearest_even() {
        // 1.0, -2.5, the largest finite bf16, the smallest subnormal bf16, -inf, a NaN
        let bits: [u16; 6] = [0x3F80, 0xC020, 0x7F7F, 0x0001, 0xFF80, 0x7FC0];
        let bytes: Vec<u8> = bits.iter().flat_map(|b| b.to_le_bytes()).collect();
        let f32s: Vec<f32> = convert(&FileDtype::Bf16, DType::F32, &bytes)
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(f32s[..3], [1.0, -2.5, 3.3895314e38]);
        assert_eq!(f32s[3], f32::from_bits(0x0001_0000));
        assert_eq!(f32s[4], f32::NEG_INFINITY);
        assert!(f32s[5].is_nan());
        let f64s: Vec<f64> = convert(&FileDtype::Bf16, DType::F64, &bytes)
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(f64s[2], 3.3895314e38f32 as f64);
        // bf16's 8 significant bits fit f16's 11, so only values outside f16's normal range
        // round: the largest bf16 overflows to inf, the smallest underflows to 0
        let f16s: Vec<f16> = convert(&FileDtype::Bf16, DType::F16, &bytes)
            .chunks_exact(2)
            .map(|c| f16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(f16s[0], f16::ONE);
        assert_eq!(f16s[1].to_f32(), -2.5);
        assert_eq!(f16s[2], f16::INFINITY);
        assert_eq!(f16s[3], f16::ZERO);
        // in f16's subnormal range (steps of 2^-24): 2.5 and 3.5 steps are ties, to even
        let ties: Vec<u8> = [0x3420u16, 0x3460]
            .iter()
            .flat_map(|b| b.to_le_bytes())
            .collect();
        let out = convert(&FileDtype::Bf16, DType::F16, &ties);
        assert_eq!(out, vec![0x02, 0x00, 0x04, 0x00]);
    }

    #[test]
    fn bool_bytes_are_normalized() {
        let out = convert(
            &FileDtype::Native(DType::Bool),
            DType::Bool,
            &[0, 1, 2, 255],
        );
        assert_eq!(out, vec![0, 1, 1, 1]);
    }

    #[test]
    fn loads_as_allows_bf16_into_floats_only() {
        assert!(FileDtype::Bf16.loads_as(DType::F16));
        assert!(FileDtype::Bf16.loads_as(DType::F64));
        assert!(!FileDtype::Bf16.loads_as(DType::I16));
        assert!(!FileDtype::Native(DType::F16).loads_as(DType::F32));
        assert!(!FileDtype::Unsupported("F8_E4M3".into()).loads_as(DType::F32));
    }
}
