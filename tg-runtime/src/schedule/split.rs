//! Splits a long reduction into a partial pass and a final pass: `sum(x[n])` becomes
//! `sum(sum(x[..s*c].reshape(s, c), 1)) + sum(x[s*c..])`.
//!
//! Two reasons to split, one mechanism:
//! - parallelism: a long reduction over few outputs would run on a handful of workgroups;
//!   the partial pass gives it `s` times as many;
//! - the loop budget: a device that ends an invocation's loops after a fixed number of
//!   back-edges (llvmpipe) needs each invocation's share of a reduction to stay under it;
//!   [`super::fit`] asks for chunks of at most a given length.
//!
//! Any reduce node is split the same way, whatever movement ops wrap it (a whole-tensor sum
//! is a reduce under a reshape): the scheduler gives it a kernel of its own, and the reshape
//! above shares that kernel's buffer. The reduced axes are moved last and flattened; `s`
//! chunks of `c = T / s` elements each go to the partial pass, and the `T - s*c < s` left
//! over are reduced in the final pass beside the partial results, so no index leaves the
//! tensor (padding to `s*c >= T` would pass 2^31 for tensors near tg's size limit).

use std::sync::Arc;

use super::fit::Plan;
use crate::dtype::DType;
use crate::error::Result;
use crate::graph::lazy::Lazy;
use crate::graph::node::{Node, Op};
use crate::kernel::LANES;

/// Output groups at or below which a long reduction is split for parallelism, and the trip
/// count from which it is.
const FEW_GROUPS: usize = 32;
const LONG_TRIP: usize = 1 << 15;
/// Chunks of the parallelism split: at most this many, each at least `MIN_CHUNK` long.
const MAX_CHUNKS: usize = 256;
const MIN_CHUNK: usize = 256;

/// One kernel of a split: computes `body` into `root`'s buffer.
pub struct Part {
    pub root: Arc<Node>,
    pub body: Arc<Node>,
    pub split_of: Option<u64>,
}

/// The number of chunks `n` is split into, or `None` when it is not split: a reduction the
/// plan limits to chunks of some length, or a long one over few outputs.
pub fn chunks(n: &Node, plan: &Plan) -> Option<usize> {
    if !matches!(n.op(), Op::Reduce(..)) {
        return None;
    }
    let t = super::trip(n);
    let parallel = n.numel().div_ceil(LANES) <= FEW_GROUPS && t >= LONG_TRIP;
    let wide = parallel.then(|| parallel_chunks(t));
    let bounded = plan.max_chunk(n.id()).map(|c| t.div_ceil(c.max(1)));
    match (wide, bounded) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(1).max(b.unwrap_or(1)).min(t)).filter(|&s| s > 1),
    }
}

/// Chunks for parallelism: the most (up to 256) that divide `t` evenly with chunks of at
/// least 256, so the final pass has no remainder; else 256 (or 128) with a remainder.
fn parallel_chunks(t: usize) -> usize {
    (16..=MAX_CHUNKS)
        .rev()
        .find(|&s| t.is_multiple_of(s) && t / s >= MIN_CHUNK)
        .unwrap_or(if t / MAX_CHUNKS >= MIN_CHUNK {
            MAX_CHUNKS
        } else {
            MAX_CHUNKS / 2
        })
}

/// The kernels that compute reduce node `n` in `s` chunks: the partial pass, then the final
/// pass into `n`'s own buffer.
pub fn split(n: &Arc<Node>, s: usize) -> Result<Vec<Part>> {
    let Op::Reduce(op, axes) = n.op() else {
        return Err(crate::Error::internal(
            "schedule",
            format!("split of {n:?}, which is not a reduction"),
        ));
    };
    let src = Lazy(n.srcs()[0].clone());
    let shape = src.shape().to_vec();
    let kept: Vec<usize> = (0..shape.len()).filter(|a| !axes.contains(a)).collect();
    let mut perm = kept.clone();
    perm.extend(axes);
    let k = kept.len();
    let mut flat_shape: Vec<usize> = kept.iter().map(|&a| shape[a]).collect();
    let t = super::trip(n);
    flat_shape.push(t);
    // f16 partial results stay in f32, so the sum is rounded once, as unsplit
    let acc = if n.dtype() == DType::F16 {
        DType::F32
    } else {
        n.dtype()
    };
    let flat = src.permute(&perm)?.reshape(&flat_shape)?.cast(acc);
    let c = t / s;
    let whole = s * c;
    let range = |from: usize, to: usize| -> Vec<(usize, usize)> {
        let mut r: Vec<(usize, usize)> = flat_shape[..k].iter().map(|&d| (0, d)).collect();
        r.push((from, to));
        r
    };
    let mut chunked = flat_shape[..k].to_vec();
    chunked.extend([s, c]);
    let partial = flat
        .shrink(&range(0, whole))?
        .reshape(&chunked)?
        .reduce(*op, &[k + 1])?
        .contiguous();
    let mut row = flat_shape[..k].to_vec();
    row.push(1);
    let mut total = partial.reduce(*op, &[k])?.reshape(&row)?;
    if whole < t {
        let rest = flat.shrink(&range(whole, t))?.reduce(*op, &[k])?;
        total = total.binary(op.combine(acc), &rest)?;
    }
    let total = total.cast(n.dtype()).reshape(n.shape())?;
    let partial_body = partial.node().srcs()[0].clone();
    Ok(vec![
        Part {
            root: partial.node().clone(),
            body: partial_body,
            split_of: Some(n.id()),
        },
        Part {
            root: n.clone(),
            body: total.node().clone(),
            split_of: Some(n.id()),
        },
    ])
}
