//! The decompositions of a batch of matrices (the last two axes): qr, svd, newton_schulz;
//! and `linear`, a matmul and a broadcast bias.

use crate::check::Checker;
use crate::dim::Dim;
use crate::ops::{At, Fault, OpError, Place};

use super::{broadcast::broadcast, matmul::matmul, show};

/// The matrix dims `(m, n)` of a batch of matrices, or the error that it is none.
pub fn matrix<'a, D: Dim>(op: &'static str, shape: &'a [D]) -> Result<(&'a D, &'a D), Fault<D>> {
    match shape {
        [.., m, n] => Ok((m, n)),
        _ => Err(Fault::new(
            At::Receiver,
            OpError::Needs {
                op,
                what: format!(
                    "a matrix (rank 2 or more), got shape {} (rank {})",
                    show(shape),
                    shape.len()
                ),
            },
        )),
    }
}

/// qr's `(q, r)`: `(..., m, m)` and `(..., m, n)`.
pub fn qr<D: Dim>(op: &'static str, shape: &[D]) -> Result<[Vec<D>; 2], Fault<D>> {
    let (m, _) = matrix(op, shape)?;
    let mut q = shape.to_vec();
    let last = q.len() - 1;
    q[last] = m.clone();
    Ok([q, shape.to_vec()])
}

/// svd's `(u, s, vh)`: `(..., m, m)`, `(..., k)`, `(..., n, n)`, or with `full_matrices` off
/// `(..., m, k)`, `(..., k)`, `(..., k, n)`, for `k = min(m, n)` (numpy's shapes).
pub fn svd<D: Dim>(op: &'static str, shape: &[D], full: bool) -> Result<[Vec<D>; 3], Fault<D>> {
    let (m, n) = matrix(op, shape)?;
    let k = m.min_dim(n);
    let batch = &shape[..shape.len() - 2];
    let with = |dims: &[&D]| -> Vec<D> {
        batch
            .iter()
            .cloned()
            .chain(dims.iter().map(|&d| d.clone()))
            .collect()
    };
    let (u, vh) = if full {
        (with(&[m, m]), with(&[n, n]))
    } else {
        (with(&[m, &k]), with(&[&k, n]))
    };
    Ok([u, with(&[&k]), vh])
}

/// newton_schulz: a batch of matrices and at least one coefficient; the shape kept.
pub fn newton_schulz<D: Dim>(
    op: &'static str,
    shape: &[D],
    params: usize,
) -> Result<Vec<D>, Fault<D>> {
    matrix(op, shape)?;
    if params == 0 {
        return Err(Fault::new(
            At::Param("params"),
            OpError::Needs {
                op,
                what: format!(
                    "at least one polynomial coefficient in params (input of shape {})",
                    show(shape)
                ),
            },
        ));
    }
    Ok(shape.to_vec())
}

/// `x @ weight + bias` (tinygrad's `(in, out)` weight).
pub fn linear<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    weight: &[D],
    bias: Option<&[D]>,
) -> Result<Vec<D>, Fault<D>> {
    let out = matmul(ck, op, shape, weight).at(At::Call)?;
    match bias {
        Some(b) => broadcast(ck, op, &out, b).at(At::Param("bias")),
        None => Ok(out),
    }
}

/// Scaled dot-product attention: queries `(.., L, d)`, keys `(.., S, d)`, values
/// `(.., S, dv)`; the scores `q @ k^T` by matmul's rules, a mask broadcast into them (none with
/// `causal`), and `scores @ v`.
pub fn attention<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    q: &[D],
    k: &[D],
    v: &[D],
    mask: Option<&[D]>,
    causal: bool,
) -> Result<Vec<D>, Fault<D>> {
    for (what, s, at) in [
        ("queries", q, At::Receiver),
        ("keys", k, At::Param("key")),
        ("values", v, At::Param("value")),
    ] {
        if s.len() < 2 {
            return Err(Fault::new(
                at,
                OpError::Needs {
                    op,
                    what: format!("{what} of rank 2 or more, got shape {}", show(s)),
                },
            ));
        }
    }
    let mut kt = k.to_vec();
    let n = kt.len();
    kt.swap(n - 2, n - 1);
    let scores = matmul(ck, op, q, &kt).at(At::Param("key"))?;
    match (mask, causal) {
        (Some(_), true) => {
            return Err(Fault::new(
                At::Param("attn_mask"),
                crate::error::argument_error(op, "a causal attention takes no mask"),
            ));
        }
        (Some(m), false) => {
            broadcast(ck, op, &scores, m).at(At::Param("attn_mask"))?;
        }
        (None, _) => {}
    }
    matmul(ck, op, &scores, v).at(At::Param("value"))
}
