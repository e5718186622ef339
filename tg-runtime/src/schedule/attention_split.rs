//! Splits a pass of a fused attention whose loop passes the device's loop budget ([`super::fit`])
//! into passes over chunks of it, joined by ops.
//!
//! - The forward and `GradQ` loop over a query's keys: each chunk of keys is a pass of its
//!   own (reading copies of its keys, values and mask). The forward's chunks are joined by
//!   their logsumexps, `out = sum_j 2^((lse_j - lse) log2 e) out_j` with `lse` the
//!   logsumexp of the `lse_j` (a chunk whose keys a row never sees adds nothing); `GradQ`'s
//!   gradients are summed, each weight recomputed from the whole row's logsumexp as before,
//!   and its `delta` column, the same in every chunk, is the first chunk's.
//! - `GradKV` loops over a key's queries: each chunk of queries (with its rows of the
//!   forward's output, of its values' gradient and of `GradQ`'s output with `delta`) is a
//!   pass, the chunks summed.
//! - A dropout's kept bits: a chunk of keys takes its keys' bits packed again from bit 0 (a
//!   chunk may start inside a word), a chunk of queries its rows' words.
//!
//! A causal pass's chunks take its mask as an additive one (0 where the key's place is at
//! most the query's, else `-inf`), since a chunk's rows no longer line up with its keys, and
//! so do the chunks of a pass with ends (`AttentionMask::Ends`): a chunk's keys may all lie
//! past a row's end, which ends cannot say (key 0 is always seen). Every
//! part is a kernel of the split's ([`Part`], `split_of` the pass), so the budget's
//! re-planning shrinks the chunks again while one is still over.

use std::sync::Arc;

use super::split::Part;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::graph::lazy::{Lazy, added_mask};
use crate::graph::node::{Node, Op, Placement};
use crate::ops::{AttentionDropout, AttentionMask, AttentionPass, BinaryOp, UnaryOp};

/// The length of the loop of attention pass `n`: its keys (forward, `GradQ`) or its queries
/// (`GradKV`); `None` for any other node.
pub fn looped(n: &Node) -> Option<usize> {
    let Op::Attention(pass, ..) = n.op() else {
        return None;
    };
    let srcs = n.srcs();
    let rows = |x: &Arc<Node>| x.shape()[x.shape().len() - 2];
    Some(match pass {
        AttentionPass::Forward | AttentionPass::GradQ { .. } => rows(&srcs[1]),
        AttentionPass::GradKV => rows(&srcs[0]),
    })
}

/// The kernels that compute attention pass `n` with loops of at most `chunk`: the copies
/// each chunk reads, the chunks' passes, then the join into `n`'s own buffer.
pub fn split(n: &Arc<Node>, chunk: usize) -> Result<Vec<Part>> {
    let Op::Attention(pass, mask, dropout) = *n.op() else {
        return Err(Error::internal(
            "schedule",
            format!("attention split of {n:?}, which is not an attention"),
        ));
    };
    let mut srcs: Vec<Lazy> = n.srcs().into_iter().map(Lazy).collect();
    // a dropout's kept bits come last
    let bits = dropout.and_then(|d| srcs.pop().map(|w| (w, d)));
    let r = n.shape().len();
    let rows = |x: &Lazy| x.shape()[r - 2];
    let (q, k) = (&srcs[0], &srcs[1]);
    let (l, s) = (rows(q), rows(k));
    let chunk = chunk.max(1);
    let mut split = Split {
        of: n.id(),
        parts: Vec::new(),
    };
    // the chunk's mask: a causal one made additive, an additive one (the pass's last source)
    // cut to the chunk
    let given = srcs.last();
    let mask_of =
        |split: &mut Split, queries: (usize, usize), keys: (usize, usize)| match (mask, given) {
            (AttentionMask::Full, _) => Ok(None),
            (AttentionMask::Causal, _) => causal(split, r, queries, keys).map(Some),
            (AttentionMask::Add { rows: per_row, .. }, Some(m)) => {
                let m = match (pass, per_row) {
                    (AttentionPass::GradKV, true) => split.copy(m, r - 2, queries)?,
                    (AttentionPass::GradKV, false) => m.clone(),
                    _ => split.copy(m, r - 1, keys)?,
                };
                Ok(Some(m))
            }
            (AttentionMask::Ends { rows: per_row, .. }, Some(e)) => {
                ended(split, e, r, per_row, queries, keys).map(Some)
            }
            (AttentionMask::Add { .. } | AttentionMask::Ends { .. }, None) => Err(Error::internal(
                "schedule",
                format!("{n:?} has a mask and no source for it"),
            )),
        };
    let mut passes: Vec<Lazy> = Vec::new();
    match pass {
        AttentionPass::Forward | AttentionPass::GradQ { .. } => {
            for a in (0..s).step_by(chunk) {
                let b = (a + chunk).min(s);
                // keys past every query's place: no causal row sees them
                if mask == AttentionMask::Causal && a >= l {
                    break;
                }
                let kj = split.copy(k, r - 2, (a, b))?;
                let vj = split.copy(&srcs[2], r - 2, (a, b))?;
                let mj = mask_of(&mut split, (0, l), (a, b))?;
                let mut sources = vec![q.clone(), kj, vj];
                // the forward's output, its values' gradient and the logsumexp's
                if let AttentionPass::GradQ { lse_grad } = pass {
                    sources.extend(srcs[3..5 + usize::from(lse_grad)].iter().cloned());
                }
                // the chunk's keys' bits, packed again from bit 0
                let bj = match &bits {
                    Some((w, d)) => Some((
                        split.stored(&w.unpack_bits(s)?.narrow(r - 1, a, b)?.pack_bits()?),
                        *d,
                    )),
                    None => None,
                };
                passes.push(split.pass(pass, n.shape(), sources, mj, bj)?);
            }
        }
        AttentionPass::GradKV => {
            for a in (0..l).step_by(chunk) {
                let b = (a + chunk).min(l);
                let mut sources = vec![split.copy(q, r - 2, (a, b))?, k.clone(), srcs[2].clone()];
                for x in &srcs[3..6] {
                    sources.push(split.copy(x, r - 2, (a, b))?);
                }
                let mi = mask_of(&mut split, (a, b), (0, s))?;
                let bi = match &bits {
                    Some((w, d)) => Some((split.copy(w, r - 2, (a, b))?, *d)),
                    None => None,
                };
                passes.push(split.pass(pass, n.shape(), sources, mi, bi)?);
            }
        }
    }
    let joined = match pass {
        AttentionPass::Forward => join_forward(&passes, r)?,
        AttentionPass::GradQ { .. } => join_grad_q(&passes, r)?,
        AttentionPass::GradKV => {
            let mut total = passes[0].clone();
            for p in &passes[1..] {
                total = total.binary(BinaryOp::Add, p)?;
            }
            total
        }
    };
    split.parts.push(Part {
        root: n.clone(),
        body: joined.node().clone(),
        split_of: Some(n.id()),
    });
    Ok(split.parts)
}

/// The parts of one split, in the order they run.
struct Split {
    of: u64,
    parts: Vec<Part>,
}

impl Split {
    /// A copy of `x`'s `range` along `axis`, as a part of its own (a pass reads buffers).
    fn copy(&mut self, x: &Lazy, axis: usize, range: (usize, usize)) -> Result<Lazy> {
        Ok(self.stored(&x.narrow(axis, range.0, range.1)?))
    }

    /// `x` computed into a buffer of its own, as a part.
    fn stored(&mut self, x: &Lazy) -> Lazy {
        let c = x.contiguous();
        self.parts.push(Part {
            root: c.node().clone(),
            body: x.node().clone(),
            split_of: Some(self.of),
        });
        c
    }

    /// A chunk's pass over `sources` (q, k, v, and for a gradient the output, its values'
    /// gradient and the logsumexp's or `GradQ`'s output), its mask and its dropout's kept
    /// bits, writing rows of `shape`'s width, as a part.
    fn pass(
        &mut self,
        pass: AttentionPass,
        shape: &[usize],
        mut sources: Vec<Lazy>,
        mask: Option<Lazy>,
        bits: Option<(Lazy, AttentionDropout)>,
    ) -> Result<Lazy> {
        let r = shape.len();
        let (q, k) = (&sources[0], &sources[1]);
        let masking = match &mask {
            None => AttentionMask::Full,
            Some(m) => added_mask(q.shape(), k.shape()[r - 2], m.shape()).ok_or_else(|| {
                Error::internal(
                    "schedule",
                    format!(
                        "a chunk's mask {:?} does not fit queries {:?}",
                        m.shape(),
                        q.shape()
                    ),
                )
            })?,
        };
        // the rows the pass writes: the queries' (forward, `GradQ`) or the keys'
        let mut out = match pass {
            AttentionPass::GradKV => k.shape().to_vec(),
            _ => q.shape().to_vec(),
        };
        out[r - 1] = shape[r - 1];
        sources.extend(mask);
        let dropout = bits.as_ref().map(|(_, d)| *d);
        sources.extend(bits.map(|(w, _)| w));
        let nodes: Vec<Arc<Node>> = sources.iter().map(|x| x.node().clone()).collect();
        let placement = Placement::of(&nodes.iter().collect::<Vec<_>>(), "attention")?;
        let node = Node::intern_at(
            Op::Attention(pass, masking, dropout),
            DType::F32,
            out,
            nodes,
            placement,
        );
        self.parts.push(Part {
            root: node.clone(),
            body: node.clone(),
            split_of: Some(self.of),
        });
        Ok(Lazy(node))
    }
}

/// The additive causal mask of queries `queries` against keys `keys` (places in the whole
/// attention): 0 where the key's place is at most the query's, else `-inf`, `(1.., Lc, Sc)`,
/// as a part.
fn causal(
    split: &mut Split,
    r: usize,
    (qa, qb): (usize, usize),
    (ka, kb): (usize, usize),
) -> Result<Lazy> {
    let (lc, sc) = (qb - qa, kb - ka);
    // key j is seen by query i where j < i + 1
    let queries = places(qa + 1, lc)?.reshape(&[lc, 1])?.expand(&[lc, sc])?;
    let keys = places(ka, sc)?.reshape(&[1, sc])?.expand(&[lc, sc])?;
    let mut shape = vec![1; r - 2];
    shape.extend([lc, sc]);
    let m = additive(&keys.binary(BinaryOp::CmpLt, &queries)?)?.reshape(&shape)?;
    Ok(split.stored(&m))
}

/// The places `from..from + n` (u32).
fn places(from: usize, n: usize) -> Result<Lazy> {
    Lazy::arange_u32(n)?.binary(
        BinaryOp::Add,
        &Lazy::constant(from as u64, DType::U32, &[n])?,
    )
}

/// The additive mask of `seen`: 0 where it holds, else `-inf`.
fn additive(seen: &Lazy) -> Result<Lazy> {
    seen.where_(
        &Lazy::constant(0.0f32, DType::F32, seen.shape())?,
        &Lazy::constant(f32::NEG_INFINITY, DType::F32, seen.shape())?,
    )
}

/// The additive mask of queries `queries` against keys `keys` (places in the whole
/// attention) from an attention's ends `e` (`AttentionMask::Ends`, `(.., L or 1)`, a row a
/// query where `per_row`): 0 where the key's place is at most the query's end (an end below
/// 0 read as 0), else `-inf`, `(.., Lc or 1, Sc)`, as a part.
fn ended(
    split: &mut Split,
    e: &Lazy,
    r: usize,
    per_row: bool,
    (qa, qb): (usize, usize),
    (ka, kb): (usize, usize),
) -> Result<Lazy> {
    let e = if per_row {
        e.narrow(r - 2, qa, qb)?
    } else {
        e.clone()
    };
    let mut shape = e.shape().to_vec();
    let sc = kb - ka;
    shape.push(sc);
    let mut column = e.shape().to_vec();
    column.push(1);
    // key j is seen where j < max(e, 0) + 1 (whole numbers, exact in f32)
    let bound = e
        .binary(
            BinaryOp::Max,
            &Lazy::constant(0.0f32, DType::F32, e.shape())?,
        )?
        .binary(
            BinaryOp::Add,
            &Lazy::constant(1.0f32, DType::F32, e.shape())?,
        )?
        .reshape(&column)?
        .expand(&shape)?;
    let mut row = vec![1; shape.len() - 1];
    row.push(sc);
    let keys = places(ka, sc)?
        .cast(DType::F32)
        .reshape(&row)?
        .expand(&shape)?;
    let m = additive(&keys.binary(BinaryOp::CmpLt, &bound)?)?;
    Ok(split.stored(&m))
}

/// `GradQ`'s output from its chunks' (the queries' gradient, then `delta`, a row each): the
/// gradients summed, `delta` the first chunk's (every chunk computes the whole row's).
fn join_grad_q(chunks: &[Lazy], r: usize) -> Result<Lazy> {
    let width = chunks[0].shape()[r - 1];
    let d = width - 1;
    let columns = |x: &Lazy, from: usize, to: usize| x.narrow(r - 1, from, to);
    let mut dq = columns(&chunks[0], 0, d)?;
    for c in &chunks[1..] {
        dq = dq.binary(BinaryOp::Add, &columns(c, 0, d)?)?;
    }
    beside(&dq, &columns(&chunks[0], d, width)?, r)
}

/// `a` and the one column `b` side by side along the last axis (of `r`): a pass's output
/// rows joined from its chunks' (values and logsumexp, or `dq` and `delta`).
fn beside(a: &Lazy, b: &Lazy, r: usize) -> Result<Lazy> {
    let width = a.shape()[r - 1];
    let mut pad_a = vec![(0, 0); r];
    pad_a[r - 1] = (0, 1);
    let mut pad_b = vec![(0, 0); r];
    pad_b[r - 1] = (width, 0);
    a.pad(&pad_a)?.binary(BinaryOp::Add, &b.pad(&pad_b)?)
}

/// The forward's output from its chunks' (values, then logsumexp, a row each): the values
/// weighted by `2^((lse_j - lse) log2 e)`, the logsumexp of the chunks' logsumexps. A chunk
/// whose keys a row never sees (`lse_j = -inf`, values NaN) weighs nothing; a row no chunk
/// sees ends NaN with a logsumexp of `-inf`, as unsplit.
fn join_forward(chunks: &[Lazy], r: usize) -> Result<Lazy> {
    let shape = chunks[0].shape().to_vec();
    let dv = shape[r - 1] - 1;
    let columns = |x: &Lazy, from: usize, to: usize| x.narrow(r - 1, from, to);
    let mut values_shape = shape.clone();
    values_shape[r - 1] = dv;
    let mut lse_shape = shape.clone();
    lse_shape[r - 1] = 1;
    let lses: Vec<Lazy> = chunks
        .iter()
        .map(|c| columns(c, dv, dv + 1))
        .collect::<Result<_>>()?;
    let mut most = lses[0].clone();
    for x in &lses[1..] {
        most = most.binary(BinaryOp::Max, x)?;
    }
    let constant = |v: f32, shape: &[usize]| Lazy::constant(v, DType::F32, shape);
    let (zero_lse, zero_values) = (constant(0.0, &lse_shape)?, constant(0.0, &values_shape)?);
    let mut weights: Option<Lazy> = None;
    let mut values: Option<Lazy> = None;
    for (c, lse) in chunks.iter().zip(&lses) {
        let hidden = lse.binary(BinaryOp::CmpEq, &constant(f32::NEG_INFINITY, &lse_shape)?)?;
        let w = lse
            .binary(BinaryOp::Add, &most.unary(UnaryOp::Neg)?)?
            .binary(
                BinaryOp::Mul,
                &constant(std::f32::consts::LOG2_E, &lse_shape)?,
            )?
            .unary(UnaryOp::Exp2)?;
        let w = hidden.where_(&zero_lse, &w)?;
        let term = hidden.expand(&values_shape)?.where_(
            &zero_values,
            &w.expand(&values_shape)?
                .binary(BinaryOp::Mul, &columns(c, 0, dv)?)?,
        )?;
        weights = Some(match weights {
            Some(t) => t.binary(BinaryOp::Add, &w)?,
            None => w,
        });
        values = Some(match values {
            Some(t) => t.binary(BinaryOp::Add, &term)?,
            None => term,
        });
    }
    let (Some(weights), Some(values)) = (weights, values) else {
        return Err(Error::internal(
            "schedule",
            "an attention split into no chunks",
        ));
    };
    let out = values.binary(
        BinaryOp::Mul,
        &weights.unary(UnaryOp::Recip)?.expand(&values_shape)?,
    )?;
    let lse = most.binary(
        BinaryOp::Add,
        &weights.unary(UnaryOp::Log2)?.binary(
            BinaryOp::Mul,
            &constant(std::f32::consts::LN_2, &lse_shape)?,
        )?,
    )?;
    beside(&out, &lse, r)
}
