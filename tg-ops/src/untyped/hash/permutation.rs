//! Keccak-f[1600], the permutation under SHA-3, on a batch of states held as `(batch, 5, 5)`
//! u64 lanes (`[b][y][x]`, lane `x + 5y` of the specification).
//!
//! Each step is composed of primitives so that one round is one fused elementwise kernel:
//! θ's column parities are five row views xor-ed together, the rolls along `x` are views, and
//! π, a permutation of the 25 lanes, is a view too (see [`pi_view`]). The rotation amounts and
//! round constants are derived from the specification's recurrences, not tabulated.

use tg_runtime::{BinaryOp, DType, Lazy, Result};

/// The number of rounds of Keccak-f[1600].
pub(crate) const ROUNDS: usize = 24;

/// The ρ step's rotation of lane `(x, y)`: walking `(x, y)` from `(1, 0)` by
/// `(y, 2x + 3y)`, the `t`-th lane visited rotates by `(t + 1)(t + 2) / 2 mod 64`.
pub(crate) const fn rho_offsets() -> [[u32; 5]; 5] {
    let mut r = [[0u32; 5]; 5];
    let (mut x, mut y) = (1usize, 0usize);
    let mut t = 0u32;
    while t < 24 {
        r[x][y] = ((t + 1) * (t + 2) / 2) % 64;
        let nx = y;
        y = (2 * x + 3 * y) % 5;
        x = nx;
        t += 1;
    }
    r
}

/// Bit `t` of the ι step's LFSR (`x^8 + x^6 + x^5 + x^4 + 1`, started at 1).
const fn rc_bit(t: usize) -> u64 {
    let mut r: u32 = 1;
    let mut i = 0;
    while i < t % 255 {
        r <<= 1;
        let carry = (r >> 8) & 1;
        r ^= carry | (carry << 4) | (carry << 5) | (carry << 6);
        r &= 0xff;
        i += 1;
    }
    (r & 1) as u64
}

/// The ι step's constant of each round: bit `2^j - 1` is LFSR bit `j + 7 round`.
pub(crate) const fn round_constants() -> [u64; ROUNDS] {
    let mut rc = [0u64; ROUNDS];
    let mut round = 0;
    while round < ROUNDS {
        let mut j = 0;
        while j < 7 {
            rc[round] |= rc_bit(j + 7 * round) << ((1usize << j) - 1);
            j += 1;
        }
        round += 1;
    }
    rc
}

/// The lane that π moves to `(x, y)`: π sends `(x, y)` to `(y, 2x + 3y)`, so the lane at
/// `(x, y)` came from `(x + 3y, x)` (mod 5).
pub(crate) const fn pi_source(x: usize, y: usize) -> (usize, usize) {
    ((x + 3 * y) % 5, x)
}

/// Lanes `(bs, 5, 5)` rearranged by π as a pure view: `out[y][x] = in[x][(x + 3y) mod 5]`.
///
/// Tiling `x` four times makes the index `x + 3y` (at most 16) need no modulo; in the
/// flattened tiles, element `[x][x + 3y]` sits at `21x + 3y`, which a pad to 105 and a reshape
/// to `(5, 21)` turn into row `x`, column `3y`; a reshape to `(5, 7, 3)` keeps every third.
fn pi_view(s: &Lazy) -> Result<Lazy> {
    let bs = s.shape()[0];
    let tiled = s
        .reshape(&[bs, 5, 1, 5])?
        .expand(&[bs, 5, 4, 5])?
        .reshape(&[bs, 100])?;
    let rows = tiled.pad(&[(0, 0), (0, 5)])?.reshape(&[bs, 5, 21])?;
    let cols = rows
        .shrink(&[(0, bs), (0, 5), (0, 15)])?
        .reshape(&[bs, 5, 5, 3])?;
    let picked = cols
        .shrink(&[(0, bs), (0, 5), (0, 5), (0, 1)])?
        .reshape(&[bs, 5, 5])?;
    picked.permute(&[0, 2, 1])
}

/// Rolls axis 2 (x, size 5) by `k` towards higher indices: two copies side by side, cut.
fn roll_x(s: &Lazy, k: usize) -> Result<Lazy> {
    let bs = s.shape()[0];
    let rows = s.shape()[1];
    let two = s
        .reshape(&[bs, rows, 1, 5])?
        .expand(&[bs, rows, 2, 5])?
        .reshape(&[bs, rows, 10])?;
    two.shrink(&[(0, bs), (0, rows), (5 - k % 5, 10 - k % 5)])
}

/// Constants and per-lane tables shared by every round of one hash.
pub(crate) struct Tables {
    /// Left and right shift amounts of ρ for each lane after π (`(1, 5, 5)` u64 buffers).
    shl: Lazy,
    shr: Lazy,
}

impl Tables {
    /// The tables, placed where `state` is.
    pub(crate) fn new(state: &Lazy) -> Result<Tables> {
        let r = rho_offsets();
        let mut left = [0u64; 25];
        let mut right = [0u64; 25];
        for y in 0..5 {
            for x in 0..5 {
                let (sx, sy) = pi_source(x, y);
                let k = r[sx][sy] as u64;
                left[x + 5 * y] = k;
                // a rotation by 0 is (v << 0) | (v >> 0)
                right[x + 5 * y] = (64 - k) % 64;
            }
        }
        Ok(Tables {
            shl: Lazy::from_slice(&[1, 5, 5], &left)?.beside(state),
            shr: Lazy::from_slice(&[1, 5, 5], &right)?.beside(state),
        })
    }
}

fn xor(a: &Lazy, b: &Lazy) -> Result<Lazy> {
    a.binary(BinaryOp::Xor, b)
}

/// `v` rotated left by one bit.
fn rotl1(v: &Lazy) -> Result<Lazy> {
    let one = Lazy::constant(1u64, DType::U64, v.shape())?;
    let sixty_three = Lazy::constant(63u64, DType::U64, v.shape())?;
    v.binary(BinaryOp::Shl, &one)?
        .binary(BinaryOp::Or, &v.binary(BinaryOp::Shr, &sixty_three)?)
}

/// One round of Keccak-f[1600] on lanes `(bs, 5, 5)`.
pub(crate) fn round(s: &Lazy, t: &Tables, rc: u64) -> Result<Lazy> {
    let bs = s.shape()[0];
    let full = [bs, 5, 5];
    // θ: every lane xor the parities of the columns left and right of it (the right one
    // rotated by a bit)
    let row = |y: usize| s.shrink(&[(0, bs), (y, y + 1), (0, 5)]);
    let mut c = row(0)?;
    for y in 1..5 {
        c = xor(&c, &row(y)?)?;
    }
    let d = xor(&roll_x(&c, 1)?, &rotl1(&roll_x(&c, 4)?)?)?;
    let s = xor(s, &d.expand(&full)?)?;
    // ρ and π: move the lanes, then rotate each by its offset
    let b = pi_view(&s)?;
    let (shl, shr) = (t.shl.expand(&full)?, t.shr.expand(&full)?);
    let b = b
        .binary(BinaryOp::Shl, &shl)?
        .binary(BinaryOp::Or, &b.binary(BinaryOp::Shr, &shr)?)?;
    // χ: b ^ (!b[x + 1] & b[x + 2])
    let ones = Lazy::constant(u64::MAX, DType::U64, &full)?;
    let not_next = roll_x(&b, 4)?.binary(BinaryOp::Xor, &ones)?;
    let s = xor(&b, &not_next.binary(BinaryOp::And, &roll_x(&b, 3)?)?)?;
    // ι: the round constant into lane (0, 0)
    let iota = Lazy::constant(rc, DType::U64, &[1, 1, 1])?
        .pad(&[(0, 0), (0, 4), (0, 4)])?
        .expand(&full)?;
    xor(&s, &iota)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_tables_match_the_specification() {
        let rc = round_constants();
        assert_eq!(
            &rc[..4],
            &[0x1, 0x8082, 0x800000000000808a, 0x8000000080008000]
        );
        assert_eq!(rc[23], 0x8000000080008008);
        let r = rho_offsets();
        // r[x][y] from the Keccak reference: row y = 0 is 0, 1, 62, 28, 27
        assert_eq!(
            [r[0][0], r[1][0], r[2][0], r[3][0], r[4][0]],
            [0, 1, 62, 28, 27]
        );
        assert_eq!(
            [r[0][1], r[1][1], r[2][1], r[3][1], r[4][1]],
            [36, 44, 6, 55, 20]
        );
        assert_eq!(
            [r[0][4], r[1][4], r[2][4], r[3][4], r[4][4]],
            [18, 2, 61, 56, 14]
        );
    }
}
