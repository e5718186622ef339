//! Where each field of a block lies, and how a quantized tensor is laid out on the device.
//!
//! A block of every supported type is a handful of fields: f16 scales (`Half`) and runs of
//! packed bits read as little-endian 32-bit words (`Words`). The decode formulas
//! (`decode.rs`) are written once over those fields; a [`Layout`] only says how a field is
//! read from device memory.

use crate::GgmlType;

/// How a quantized tensor is held in device memory. Both hold exactly the file's bytes (up to
/// rounding each buffer to whole 32-bit words) and decode to the same values bit for bit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Layout {
    /// The file's block layout: one u8 tensor `[rows, blocks, block bytes]`. A field is
    /// assembled from its bytes (a 32-bit word from four byte reads), since blocks of 18, 22,
    /// 34 or 210 bytes do not keep words aligned.
    Blocks,
    /// Each field of every block gathered into a tensor of its own (f16 scales as u16
    /// `[rows, blocks]`, packed bits as u32 `[rows, blocks, words]`), so a kernel reads a
    /// field's word with one aligned load; the 4-bit quants (`nibble_field`) reordered so
    /// that element `e` of a block is nibble `e % 8` of word `e / 8` (ggml interleaves halves
    /// of a block in a byte, so a run of 8 consecutive elements would take two words). Float
    /// types keep their own dtype. On a device planned with CPU kernels a block type's planes
    /// store their rows in the order side-by-side invocations read them (block by block, rows
    /// grouped by their remainder mod 4; `qtensor.rs`'s `RowOrder`). The default.
    #[default]
    Planes,
}

/// One field of a block.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// An f16 (or bf16) at this byte offset.
    Half(usize),
    /// `n` little-endian 32-bit words starting at this byte offset.
    Words(usize, usize),
}

impl Field {
    /// The field's bytes in a block.
    pub fn bytes(self) -> usize {
        match self {
            Field::Half(_) => 2,
            Field::Words(_, n) => 4 * n,
        }
    }

    /// Its byte offset in the block.
    pub fn offset(self) -> usize {
        match self {
            Field::Half(o) | Field::Words(o, _) => o,
        }
    }
}

/// The fields of a block of `ty`, in the order `decode.rs` takes them. Empty for types tg
/// does not decode.
pub fn fields(ty: GgmlType) -> &'static [Field] {
    use Field::{Half, Words};
    match ty {
        GgmlType::F32 => &[Words(0, 1)],
        GgmlType::F16 | GgmlType::Bf16 => &[Half(0)],
        // d, qs
        GgmlType::Q8_0 => &[Half(0), Words(2, 8)],
        GgmlType::Q4_0 => &[Half(0), Words(2, 4)],
        // d, m, qs
        GgmlType::Q4_1 => &[Half(0), Half(2), Words(4, 4)],
        // d, qh, qs
        GgmlType::Q5_0 => &[Half(0), Words(2, 1), Words(6, 4)],
        // d, m, qh, qs
        GgmlType::Q5_1 => &[Half(0), Half(2), Words(4, 1), Words(8, 4)],
        // d, dmin, scales, qs
        GgmlType::Q4K => &[Half(0), Half(2), Words(4, 3), Words(16, 32)],
        // d, dmin, scales, qh, qs
        GgmlType::Q5K => &[Half(0), Half(2), Words(4, 3), Words(16, 8), Words(48, 32)],
        // ql, qh, scales, d
        GgmlType::Q6K => &[Words(0, 32), Words(128, 16), Words(192, 4), Half(208)],
        _ => &[],
    }
}

/// Which field of `ty` holds each element's low 4 bits (ggml's `qs`, Q6_K's `ql`), which the
/// `Planes` layout stores in element order.
pub fn nibble_field(ty: GgmlType) -> Option<usize> {
    match ty {
        GgmlType::Q4_0 => Some(1),
        GgmlType::Q4_1 | GgmlType::Q5_0 => Some(2),
        GgmlType::Q5_1 => Some(3),
        GgmlType::Q4K => Some(3),
        GgmlType::Q5K => Some(4),
        GgmlType::Q6K => Some(0),
        _ => None,
    }
}

/// The low 4 bits of element `e` of a block of `ty` (one with a [`nibble_field`]).
pub fn low_nibble(ty: GgmlType, block: &[u8], e: usize) -> u8 {
    let byte = |field: usize, i: usize| block[fields(ty)[field].offset() + i];
    let f = nibble_field(ty).unwrap_or(0);
    match ty {
        GgmlType::Q4K | GgmlType::Q5K => {
            (byte(f, 32 * (e / 64) + e % 32) >> (4 * ((e / 32) % 2))) & 15
        }
        GgmlType::Q6K => {
            let r = e % 128;
            (byte(f, 64 * (e / 128) + r % 64) >> (4 * (r / 64))) & 15
        }
        _ => (byte(f, e % 16) >> (4 * (e / 16))) & 15,
    }
}
