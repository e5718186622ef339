//! Hashing: Keccak sponges (SHA3-224, SHA3-256, SHAKE128, or any rate and domain byte) over
//! the last axis, tinygrad's 16-byte tree hash of a whole tensor, and `nbytes`.
//!
//! Composed of the runtime's u64 primitives (xor, and, or, shifts) and movement ops, as
//! tinygrad composes them, so the hashes run on the device in the tensor's graph. i64/u64 need
//! the device's `shaderInt64`; without it a realize returns `Error::Unsupported`.

mod bytes;
mod permutation;

use tg_runtime::{BinaryOp, DType, Error, Lazy, Result};

use super::DynTensor;
use permutation::{Tables, round, round_constants};

/// The sponge parameters of [`DynTensor::keccak`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Keccak {
    /// SHA3-224 (FIPS 202): rate 144 bytes, domain byte 0x06, 28-byte digest.
    Sha3_224,
    /// SHA3-256 (FIPS 202): rate 136 bytes, domain byte 0x06, 32-byte digest.
    Sha3_256,
    /// The first 16 bytes of SHAKE128 (FIPS 202): rate 168 bytes, domain byte 0x1f.
    Shake128,
    /// Any rate (1..200 bytes) and domain-separation byte; the output is `(200 - rate) / 2`
    /// bytes (half the capacity). `Custom { rate: 136, dsbyte: 0x01 }` is Ethereum's
    /// Keccak-256.
    Custom {
        /// Bytes absorbed per permutation.
        rate: usize,
        /// The domain-separation byte.
        dsbyte: u8,
    },
}

impl Keccak {
    /// `(rate, dsbyte)`.
    pub const fn params(self) -> (usize, u8) {
        match self {
            Keccak::Sha3_224 => (144, 0x06),
            Keccak::Sha3_256 => (136, 0x06),
            Keccak::Shake128 => (168, 0x1f),
            Keccak::Custom { rate, dsbyte } => (rate, dsbyte),
        }
    }

    /// The digest length in bytes: half the capacity, `(200 - rate) / 2`.
    pub const fn output_bytes(self) -> usize {
        let rate = self.params().0;
        if rate >= 200 { 0 } else { (200 - rate) / 2 }
    }
}

/// Bytes per chunk of the tree hash.
const CHUNK: usize = 1 << 20;

impl DynTensor {
    /// The Keccak hash of each row of the last axis, over the bytes of its elements in memory
    /// (little-endian, bool as one byte): shape `[..., out]`, u8, with `out` the digest length
    /// of `cfg` (32 for SHA3-256).
    ///
    /// Each 200-byte block of the padded message is absorbed and permuted by 24 rounds of
    /// Keccak-f\[1600\], one fused kernel per round, so a message of `n` bytes costs about
    /// `24 (n / rate + 1)` kernels for the whole batch of rows at once.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::untyped::hash::Keccak;
    /// let t = DynTensor::from_slice(&[3], b"abc").unwrap();
    /// let d = t.keccak(Keccak::Sha3_256).unwrap().to_vec::<u8>().unwrap();
    /// assert_eq!(d[..4], [0x3a, 0x98, 0x5d, 0xa7]);
    /// ```
    pub fn keccak(&self, cfg: Keccak) -> Result<DynTensor> {
        let (rate, dsbyte) = cfg.params();
        if rate == 0 || rate >= 200 {
            return Err(Error::Argument {
                op: "keccak",
                message: format!("the rate must be 1..200 bytes, got {rate}"),
            });
        }
        // a rank-0 tensor has no last axis to hash: reshape it to [1]
        tg_core::shape::movement::require_rank("keccak", self.shape(), 1)?;
        let obytes = cfg.output_bytes();
        let lead = &self.shape()[..self.ndim() - 1];
        let mut out_shape = lead.to_vec();
        out_shape.push(obytes);
        let bs: usize = lead.iter().product();
        if bs == 0 {
            return DynTensor::zeros(&out_shape, DType::U8);
        }
        let msg = bytes::le_bytes(self)?;
        let len = msg.shape()[msg.ndim() - 1];
        let msg = msg.reshape(&[bs, len])?;
        // pad10*1 with the domain bits: dsbyte right after the message, 0x80 into the last
        // byte of the last block (the two xor into one byte when only one is free)
        let fill = rate - len % rate;
        let total = len + fill;
        let blocks = total / rate;
        let at = |value: u8, pos: usize| -> Result<Lazy> {
            Lazy::constant(value as u32, DType::U8, &[1, 1])?
                .pad(&[(0, 0), (pos, total - pos - 1)])?
                .expand(&[bs, total])
        };
        let padded = msg
            .pad(&[(0, 0), (0, fill)])?
            .binary(BinaryOp::Xor, &at(dsbyte, len)?)?
            .binary(BinaryOp::Xor, &at(0x80, total - 1)?)?;
        let blocks_200 =
            padded
                .reshape(&[bs, blocks, rate])?
                .pad(&[(0, 0), (0, 0), (0, 200 - rate)])?;
        let lanes = bytes::lanes(&blocks_200)?.reshape(&[bs, blocks, 5, 5])?;

        let tables = Tables::new(&lanes)?;
        let rc = round_constants();
        let mut state = Lazy::constant(0u64, DType::U64, &[bs, 5, 5])?;
        for k in 0..blocks {
            let block = lanes
                .shrink(&[(0, bs), (k, k + 1), (0, 5), (0, 5)])?
                .reshape(&[bs, 5, 5])?;
            state = state.binary(BinaryOp::Xor, &block)?;
            for &c in &rc {
                // one kernel per round either way (the scheduler would cut each round's
                // widely shared output); marking it keeps scheduling linear in the length
                state = round(&state, &tables, c)?.contiguous();
            }
        }
        let nl = obytes.div_ceil(8);
        let head = state.reshape(&[bs, 25])?.shrink(&[(0, bs), (0, nl)])?;
        let digest = bytes::le_bytes(&DynTensor::wrap(head))?.shrink(&[(0, bs), (0, obytes)])?;
        Ok(DynTensor::wrap(digest.reshape(&out_shape)?))
    }

    /// tinygrad's 16-byte hash of the whole tensor's bytes: the bytes are cut into 1 MiB
    /// chunks (the last zero-padded), each chunk is hashed as 256 rows of 4 KiB with SHAKE128
    /// and the 256 16-byte digests again with SHAKE128; the digests of all chunks, joined, are
    /// hashed the same way until one chunk is left. Equal tensors (same dtype, shape aside)
    /// hash equally; trailing zero bytes within a chunk do not change the hash, as in tinygrad.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3], &[1u8, 2, 3]).unwrap();
    /// let h = t.hash().unwrap().to_vec::<u8>().unwrap();
    /// assert_eq!(h[..4], [49, 125, 10, 30]);
    /// ```
    pub fn hash(&self) -> Result<DynTensor> {
        let n = self.nbytes();
        let flat = self.lazy().reshape(&[self.numel()])?;
        let mut data = DynTensor::wrap(bytes::le_bytes(&DynTensor::wrap(flat))?);
        let mut chunks = n.div_ceil(CHUNK);
        while chunks > 1 {
            data = hash_chunks(&data, chunks)?;
            chunks = chunks.div_ceil(CHUNK / 16);
        }
        let last = hash_chunks(&data, 1)?;
        Ok(DynTensor::wrap(last.lazy().reshape(&[16])?))
    }

    /// The size of the tensor's elements in bytes (`numel * dtype size`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// assert_eq!(DynTensor::zeros(&[2, 3], DType::F16).unwrap().nbytes(), 12);
    /// ```
    pub fn nbytes(&self) -> usize {
        self.numel() * self.dtype().size()
    }
}

/// The flat bytes `data`, zero-padded to `chunks` MiB, hashed chunk by chunk: `chunks * 16`
/// bytes.
fn hash_chunks(data: &DynTensor, chunks: usize) -> Result<DynTensor> {
    let n = data.numel();
    let padded = data.lazy().pad(&[(0, chunks * CHUNK - n)])?;
    let rows = DynTensor::wrap(padded.reshape(&[chunks * 256, 4096])?);
    let inner = rows.keccak(Keccak::Shake128)?;
    let outer = DynTensor::wrap(inner.lazy().reshape(&[chunks, 4096])?).keccak(Keccak::Shake128)?;
    Ok(DynTensor::wrap(outer.lazy().reshape(&[chunks * 16])?))
}
