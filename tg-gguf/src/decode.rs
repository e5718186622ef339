//! The dequantization of every supported type as a tg expression over its fields: views of
//! the packed words broadcast over the elements they hold, shifts by per-element amounts built
//! from index constants, masks, casts and the scale arithmetic, in the operation order of
//! ggml's reference (so values equal the host's bit for bit). Nothing here computes: a kernel
//! that reads the result (a matrix-vector product) unpacks the weights it reads.

use tg_runtime::{BinaryOp, DType, Lazy, Result, UnaryOp};

/// `v` as u32 everywhere in `shape`.
fn k(v: u32, shape: &[usize]) -> Result<Lazy> {
    Lazy::constant(v, DType::U32, shape)
}

/// `step * i` along `axis` of `shape`, the same across the other axes: a shift amount that
/// depends on an element's position, from index arithmetic alone (no buffer).
fn iota(shape: &[usize], axis: usize, step: u32) -> Result<Lazy> {
    let n = shape[axis];
    let mut one = vec![1usize; shape.len()];
    one[axis] = n;
    let ramp = Lazy::arange_u32(n)?.binary(BinaryOp::Mul, &k(step, &[n])?)?;
    ramp.reshape(&one)?.expand(shape)
}

/// A sum of [`iota`]s: `(axis, step)` pairs.
fn shifts(shape: &[usize], parts: &[(usize, u32)]) -> Result<Lazy> {
    let mut acc: Option<Lazy> = None;
    for &(axis, step) in parts {
        let t = iota(shape, axis, step)?;
        acc = Some(match acc {
            None => t,
            Some(a) => a.binary(BinaryOp::Add, &t)?,
        });
    }
    acc.ok_or_else(|| tg_runtime::Error::internal("tg-gguf decode", "shifts of no parts"))
}

fn shr(x: &Lazy, by: &Lazy) -> Result<Lazy> {
    x.binary(BinaryOp::Shr, by)
}

fn and(x: &Lazy, mask: u32) -> Result<Lazy> {
    x.binary(BinaryOp::And, &k(mask, x.shape())?)
}

fn or(a: &Lazy, b: &Lazy) -> Result<Lazy> {
    a.binary(BinaryOp::Or, b)
}

fn shl_k(x: &Lazy, by: u32) -> Result<Lazy> {
    x.binary(BinaryOp::Shl, &k(by, x.shape())?)
}

fn shr_k(x: &Lazy, by: u32) -> Result<Lazy> {
    x.binary(BinaryOp::Shr, &k(by, x.shape())?)
}

fn mul(a: &Lazy, b: &Lazy) -> Result<Lazy> {
    a.binary(BinaryOp::Mul, b)
}

fn add(a: &Lazy, b: &Lazy) -> Result<Lazy> {
    a.binary(BinaryOp::Add, b)
}

/// `a - b`, exactly (IEEE `a + (-b)` is `a - b`).
fn sub(a: &Lazy, b: &Lazy) -> Result<Lazy> {
    a.binary(BinaryOp::Add, &b.unary(UnaryOp::Neg)?)
}

/// An unsigned bit field as a signed value less `offset`, as f32 (exact: small integers).
fn centered(q: &Lazy, offset: i32) -> Result<Lazy> {
    let s = q.cast(DType::I32);
    let s = s.binary(
        BinaryOp::Add,
        &Lazy::constant(-offset, DType::I32, s.shape())?,
    )?;
    Ok(s.cast(DType::F32))
}

/// The low byte of each u32 as a signed value, as f32.
fn signed_byte(x: &Lazy) -> Result<Lazy> {
    Ok(x.cast(DType::U8).bitcast(DType::I8)?.cast(DType::F32))
}

/// f16 bits (u16) as f32.
fn half(bits: &Lazy) -> Result<Lazy> {
    Ok(bits.bitcast(DType::F16)?.cast(DType::F32))
}

/// `x` viewed as `view` (same elements, axes of 1 inserted) and broadcast to `to`.
fn spread(x: &Lazy, view: &[usize], to: &[usize]) -> Result<Lazy> {
    x.reshape(view)?.expand(to)
}

/// The fields of one tensor as the decoder takes them: halves as u16 `[rows, blocks]`, words as
/// u32 `[rows, blocks, n]`, in [`crate::layout::fields`] order.
pub(crate) type Fields = Vec<Lazy>;

/// Each element's low 4 bits from a nibble field in element order (`Layout::Planes`):
/// nibble `e % 8` of word `e / 8`, viewed as `shape` (which flattens to the block's elements).
fn ordered_nibbles(words: &Lazy, r: usize, n: usize, per: usize, shape: &[usize]) -> Result<Lazy> {
    let s = [r, n, per / 8, 8];
    let w = spread(words, &[r, n, per / 8, 1], &s)?;
    and(&shr(&w, &shifts(&s, &[(3, 4)])?)?, 15)?.reshape(shape)
}

/// The f32 values `[rows, blocks, per block]` of `ty` from its fields. `in_order`: the
/// nibble field holds each element's low 4 bits in element order (`Layout::Planes`), else
/// ggml's interleaved bytes.
pub(crate) fn decode(
    ty: crate::GgmlType,
    f: &Fields,
    rows: usize,
    nb: usize,
    in_order: bool,
) -> Result<Lazy> {
    use crate::GgmlType as T;
    let (r, n) = (rows, nb);
    Ok(match ty {
        T::F32 => f[0].bitcast(DType::F32)?,
        T::F16 => half(&f[0])?.reshape(&[r, n, 1])?,
        T::Bf16 => {
            let w = shl_k(&f[0].cast(DType::U32), 16)?;
            w.bitcast(DType::F32)?.reshape(&[r, n, 1])?
        }
        T::Q8_0 => {
            // element 4w + c is byte c of word w
            let s = [r, n, 8, 4];
            let qs = spread(&f[1], &[r, n, 8, 1], &s)?;
            let x = signed_byte(&shr(&qs, &shifts(&s, &[(3, 8)])?)?)?;
            let d = spread(&half(&f[0])?, &[r, n, 1, 1], &s)?;
            mul(&x, &d)?.reshape(&[r, n, 32])?
        }
        T::Q4_0 | T::Q4_1 | T::Q5_0 | T::Q5_1 => {
            // element 16 s + 4 w + c: nibble s of byte c of word w; for Q5 bit (16 s + 4 w + c)
            // of qh is its fifth bit
            let s = [r, n, 2, 4, 4];
            let qs_field = f[f.len() - 1].clone();
            let mut q = if in_order {
                ordered_nibbles(&qs_field, r, n, 32, &s)?
            } else {
                let qs = spread(&qs_field, &[r, n, 1, 4, 1], &s)?;
                and(&shr(&qs, &shifts(&s, &[(2, 4), (4, 8)])?)?, 15)?
            };
            let five = matches!(ty, T::Q5_0 | T::Q5_1);
            if five {
                let qh = spread(&f[f.len() - 2], &[r, n, 1, 1, 1], &s)?;
                let hb = and(&shr(&qh, &shifts(&s, &[(2, 16), (3, 4), (4, 1)])?)?, 1)?;
                q = or(&q, &shl_k(&hb, 4)?)?;
            }
            let d = spread(&half(&f[0])?, &[r, n, 1, 1, 1], &s)?;
            let v = match ty {
                T::Q4_0 => mul(&d, &centered(&q, 8)?)?,
                T::Q5_0 => mul(&d, &centered(&q, 16)?)?,
                _ => {
                    let m = spread(&half(&f[1])?, &[r, n, 1, 1, 1], &s)?;
                    add(&mul(&d, &q.cast(DType::F32))?, &m)?
                }
            };
            v.reshape(&[r, n, 32])?
        }
        T::Q4K | T::Q5K => {
            // element 64 g + 32 s + 4 w + c (sub-block 2 g + s): nibble s of byte c of word
            // 8 g + w; for Q5_K bit (2 g + s) of byte c of qh word w is its fifth bit
            let s = [r, n, 4, 2, 8, 4];
            let mut q = if in_order {
                ordered_nibbles(&f[f.len() - 1], r, n, 256, &s)?
            } else {
                let qs = spread(&f[f.len() - 1], &[r, n, 4, 1, 8, 1], &s)?;
                and(&shr(&qs, &shifts(&s, &[(3, 4), (5, 8)])?)?, 15)?
            };
            if ty == T::Q5K {
                let qh = spread(&f[3], &[r, n, 1, 1, 8, 1], &s)?;
                let hb = and(&shr(&qh, &shifts(&s, &[(2, 2), (3, 1), (5, 8)])?)?, 1)?;
                q = or(&q, &shl_k(&hb, 4)?)?;
            }
            let (sc, mn) = k_scales(&f[2], r, n)?;
            let d8 = spread(&half(&f[0])?, &[r, n, 1], &[r, n, 8])?;
            let dmin8 = spread(&half(&f[1])?, &[r, n, 1], &[r, n, 8])?;
            let scale = spread(&mul(&d8, &sc)?, &[r, n, 4, 2, 1, 1], &s)?;
            let min = spread(&mul(&dmin8, &mn)?, &[r, n, 4, 2, 1, 1], &s)?;
            sub(&mul(&scale, &q.cast(DType::F32))?, &min)?.reshape(&[r, n, 256])?
        }
        T::Q6K => {
            // element 128 h + 64 k2 + 32 k1 + 16 w2 + 4 w1 + c (w = 4 w2 + w1):
            // low nibble k2 of byte c of ql word 16 h + 8 k1 + w, two high bits (2 k) of byte
            // c of qh word 8 h + w, scale 8 h + 4 k2 + 2 k1 + w2
            let s = [r, n, 2, 2, 2, 2, 4, 4];
            let lo = if in_order {
                ordered_nibbles(&f[0], r, n, 256, &s)?
            } else {
                let ql = spread(&f[0], &[r, n, 2, 1, 2, 2, 4, 1], &s)?;
                and(&shr(&ql, &shifts(&s, &[(3, 4), (7, 8)])?)?, 15)?
            };
            let qh = spread(&f[1], &[r, n, 2, 1, 1, 2, 4, 1], &s)?;
            let hi = and(&shr(&qh, &shifts(&s, &[(3, 4), (4, 2), (7, 8)])?)?, 3)?;
            let q = or(&lo, &shl_k(&hi, 4)?)?;
            let ss = [r, n, 4, 4];
            let sw = spread(&f[2], &[r, n, 4, 1], &ss)?;
            let sc = signed_byte(&shr(&sw, &shifts(&ss, &[(3, 8)])?)?)?.reshape(&[r, n, 16])?;
            let d16 = spread(&half(&f[3])?, &[r, n, 1], &[r, n, 16])?;
            let scale = spread(&mul(&d16, &sc)?, &[r, n, 2, 2, 2, 2, 1, 1], &s)?;
            mul(&scale, &centered(&q, 32)?)?.reshape(&[r, n, 256])?
        }
        other => {
            return Err(tg_runtime::Error::internal(
                "dequantize",
                format!("{other} has no decoder (checked at upload)"),
            ));
        }
    })
}

/// The 8 six-bit scales and minimums of a K-quant super-block from its 3 scale words, as f32
/// `[rows, blocks, 8]` each (see [`crate::host::k_scale_min`]). Scale `j` takes byte `j % 4`
/// of the words: each word's bytes are viewed twice over (`[rows, blocks, 2, 4]`) and the
/// half `j / 4` picks the low or the high formula. Written as two halves padded and joined,
/// each of the four halves became a small kernel and buffer beside every product; now the
/// three bytes do (the scheduler's rule for values read 64 times per element,
/// `schedule/reuse.rs`: a byte feeds two scales of 32 weights each).
fn k_scales(words: &Lazy, r: usize, n: usize) -> Result<(Lazy, Lazy)> {
    let s4 = [r, n, 4];
    let s8 = [r, n, 2, 4];
    let sh = shifts(&s4, &[(2, 8)])?;
    let byte = |i: usize| -> Result<Lazy> {
        let w = words.shrink(&[(0, r), (0, n), (i, i + 1)])?;
        let b = and(&shr(&spread(&w, &[r, n, 1], &s4)?, &sh)?, 255)?;
        spread(&b, &[r, n, 1, 4], &s8)
    };
    let (b0, b1, b2) = (byte(0)?, byte(1)?, byte(2)?);
    let sc_lo = and(&b0, 63)?;
    let sc_hi = or(&and(&b2, 15)?, &and(&shr_k(&b0, 2)?, 0x30)?)?;
    let mn_lo = and(&b1, 63)?;
    let mn_hi = or(&shr_k(&b2, 4)?, &and(&shr_k(&b1, 2)?, 0x30)?)?;
    let low = iota(&s8, 2, 1)?.binary(BinaryOp::CmpLt, &k(1, &s8)?)?;
    let pick = |lo: &Lazy, hi: &Lazy| -> Result<Lazy> {
        Ok(low.where_(lo, hi)?.reshape(&[r, n, 8])?.cast(DType::F32))
    };
    Ok((pick(&sc_lo, &sc_hi)?, pick(&mn_lo, &mn_hi)?))
}
