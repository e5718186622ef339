//! Dequantization on the host, in f32 with the operation order of ggml's reference rows (and
//! of the `gguf` package's numpy dequantizers, which the fixtures check bit for bit). Rust
//! never contracts `a * b + c` into a fused multiply-add, so these are exact references.

use half::{bf16, f16};

use crate::{Error, GgmlType, Result, TensorInfo};

fn f16_at(b: &[u8], i: usize) -> f32 {
    f16::from_bits(u16::from_le_bytes([b[i], b[i + 1]])).to_f32()
}

/// The 6-bit scales and minimums of a Q4_K/Q5_K super-block's 8 sub-blocks, from its 12
/// packed bytes: sub-blocks 0-3 keep 6 bits in bytes 0-3 (scales) and 4-7 (minimums);
/// sub-blocks 4-7 take 4 low bits from bytes 8-11 and their 2 high bits from the top of
/// bytes 0-7.
pub fn k_scale_min(s: &[u8]) -> ([u8; 8], [u8; 8]) {
    let mut sc = [0u8; 8];
    let mut mn = [0u8; 8];
    for j in 0..4 {
        sc[j] = s[j] & 63;
        mn[j] = s[j + 4] & 63;
        sc[j + 4] = (s[j + 8] & 15) | ((s[j] >> 2) & 0x30);
        mn[j + 4] = (s[j + 8] >> 4) | ((s[j + 4] >> 2) & 0x30);
    }
    (sc, mn)
}

/// Decodes one block of `ty` into `out` (`ty.block_elems()` values); `ty` is a supported
/// type ([`dequantize_tensor`] checks), anything else is [`Error::Internal`].
fn block(ty: GgmlType, b: &[u8], out: &mut [f32]) -> Result<()> {
    match ty {
        GgmlType::F32 => out[0] = f32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        GgmlType::F16 => out[0] = f16_at(b, 0),
        GgmlType::Bf16 => out[0] = bf16::from_bits(u16::from_le_bytes([b[0], b[1]])).to_f32(),
        GgmlType::Q8_0 => {
            let d = f16_at(b, 0);
            for j in 0..32 {
                out[j] = (b[2 + j] as i8) as f32 * d;
            }
        }
        GgmlType::Q4_0 | GgmlType::Q4_1 => {
            let d = f16_at(b, 0);
            let (m, qs) = if ty == GgmlType::Q4_1 {
                (f16_at(b, 2), &b[4..20])
            } else {
                (0.0, &b[2..18])
            };
            for j in 0..32 {
                let q = (qs[j % 16] >> (4 * (j / 16))) & 15;
                out[j] = if ty == GgmlType::Q4_1 {
                    d * q as f32 + m
                } else {
                    d * (q as i32 - 8) as f32
                };
            }
        }
        GgmlType::Q5_0 | GgmlType::Q5_1 => {
            let d = f16_at(b, 0);
            let (m, rest) = if ty == GgmlType::Q5_1 {
                (f16_at(b, 2), &b[4..24])
            } else {
                (0.0, &b[2..22])
            };
            let qh = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
            let qs = &rest[4..20];
            for j in 0..32 {
                let lo = (qs[j % 16] >> (4 * (j / 16))) & 15;
                let q = lo as u32 | (((qh >> j) & 1) << 4);
                out[j] = if ty == GgmlType::Q5_1 {
                    d * q as f32 + m
                } else {
                    d * (q as i32 - 16) as f32
                };
            }
        }
        GgmlType::Q4K | GgmlType::Q5K => {
            let d = f16_at(b, 0);
            let dmin = f16_at(b, 2);
            let (sc, mn) = k_scale_min(&b[4..16]);
            let (qh, qs) = if ty == GgmlType::Q5K {
                (&b[16..48], &b[48..176])
            } else {
                (&b[0..0], &b[16..144])
            };
            for (e, o) in out.iter_mut().enumerate().take(256) {
                let sub = e / 32;
                let (g, s, l) = (e / 64, (e / 32) % 2, e % 32);
                let mut q = ((qs[32 * g + l] >> (4 * s)) & 15) as u32;
                if ty == GgmlType::Q5K {
                    q |= (((qh[l] >> sub) & 1) as u32) << 4;
                }
                let scale = d * sc[sub] as f32;
                let min = dmin * mn[sub] as f32;
                *o = scale * q as f32 - min;
            }
        }
        GgmlType::Q6K => {
            let (ql, qh, scales) = (&b[0..128], &b[128..192], &b[192..208]);
            let d = f16_at(b, 208);
            for e in 0..256 {
                let (h, r) = (e / 128, e % 128);
                let lo = (ql[64 * h + r % 64] >> (4 * (r / 64))) & 15;
                let hi = (qh[32 * h + r % 32] >> (2 * (r / 32))) & 3;
                let q = (lo | (hi << 4)) as i32 - 32;
                let scale = d * (scales[e / 16] as i8) as f32;
                out[e] = scale * q as f32;
            }
        }
        _ => {
            return Err(Error::Internal {
                context: "host dequantization",
                message: format!("no decoder for {ty:?}, which GgmlType::supported accepts"),
            });
        }
    }
    Ok(())
}

/// The values of a tensor of a file in row-major order, from its bytes, or
/// [`Error::UnsupportedTensorType`].
pub fn dequantize_tensor(info: &TensorInfo, bytes: &[u8]) -> Result<Vec<f32>> {
    let ty = info.supported_type()?;
    let (per, size) = ty.block();
    let mut out = vec![0f32; bytes.len() / size * per];
    for (b, o) in bytes.chunks_exact(size).zip(out.chunks_exact_mut(per)) {
        block(ty, b, o)?;
    }
    Ok(out)
}
