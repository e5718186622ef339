//! Hashing: Keccak over the last axis, tinygrad's 16-byte tensor hash.

use crate::dim::Dim;
use crate::error::argument_error;
use crate::ops::{At, Fault};

use super::{shape_error_at, show};

/// The digest length in bytes of a sponge of `rate` bytes (the capacity's half).
pub fn digest_bytes(rate: usize) -> usize {
    (200 - rate.min(200)) / 2
}

/// keccak: a `(rate, dsbyte)` sponge with `1 <= rate < 200`; the last axis replaced by the
/// digest.
pub fn keccak<D: Dim>(
    op: &'static str,
    shape: &[D],
    rate: i64,
    dsbyte: i64,
) -> Result<Vec<D>, Fault<D>> {
    let at = At::Param("cfg");
    if !(1..200).contains(&rate) {
        return Err(Fault::new(
            at,
            argument_error(
                op,
                format!(
                    "the rate must be 1..200 bytes, got {rate} (input of shape {})",
                    show(shape)
                ),
            ),
        ));
    }
    if !(0..=255).contains(&dsbyte) {
        return Err(Fault::new(
            at,
            argument_error(op, format!("the domain byte must be 0..=255, got {dsbyte}")),
        ));
    }
    let Some((_, lead)) = shape.split_last() else {
        return Err(shape_error_at(
            At::Receiver,
            op,
            format!(
                "a tensor of shape {} (rank 0) has no last axis to hash; reshape it to [1]",
                show(shape)
            ),
        ));
    };
    let mut out = lead.to_vec();
    out.push(D::lit(digest_bytes(rate as usize)));
    Ok(out)
}
