//! Reverse-mode differentiation of the primitive graph: one derivative rule per primitive, so
//! every op of the library, being composed of primitives, differentiates with no code of its
//! own. The walk is iterative (a chain of a million ops needs no stack), and the gradient is
//! a lazy graph like any other: it fuses and schedules with the rest.
//!
//! Rules follow tinygrad's: `max` and reduce-max share the gradient equally among ties;
//! integer and bool values carry no gradient (comparisons, integer arithmetic, bitwise ops,
//! casts from integers end the path); `detach` stops it; `contiguous_backward` gives the
//! gradient flowing back through it a buffer of its own.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::lazy::Lazy;
use super::node::{Node, Op};
use super::walk::post_order;
use crate::error::{Error, Result};
use crate::ops::{AttentionPass, BinaryOp, ReduceOp, TernaryOp, UnaryOp};

/// A derivative rule a node carries instead of its ops' (`Lazy::with_gradient`): the values
/// it differentiates with respect to, and the gradients of those given the node's.
pub struct Backward {
    pub(crate) inputs: Vec<Lazy>,
    #[allow(clippy::type_complexity)]
    pub(crate) rule: Box<dyn Fn(&Lazy) -> Result<Vec<Option<Lazy>>> + Send + Sync>,
}

/// What the gradient walk goes through from `n`: its rule's inputs where it has its own
/// rule, else its sources.
fn through(n: &Arc<Node>) -> Vec<Arc<Node>> {
    match n.backward() {
        Some(b) => b.inputs.iter().map(|i| i.node().clone()).collect(),
        None => n.srcs(),
    }
}

/// The gradients of `root` with respect to each of `targets` (identified by node), given
/// `seed`, the gradient of some result with respect to `root` (by default 1, which needs a
/// scalar `root`). A target `root` does not depend on gets zeros.
pub fn gradient(root: &Lazy, targets: &[&Lazy], seed: Option<&Lazy>) -> Result<Vec<Lazy>> {
    if let Some(t) = std::iter::once(root)
        .chain(targets.iter().copied())
        .find(|t| !t.dtype().is_float())
    {
        return Err(Error::DType {
            op: "gradient",
            dtype: t.dtype(),
            message: "only float tensors have gradients".into(),
        });
    }
    let seed = match seed {
        Some(g) if g.shape() != root.shape() => {
            return Err(Error::Shape {
                op: "gradient",
                message: format!(
                    "the gradient given has shape {:?}, the tensor {:?}",
                    g.shape(),
                    root.shape()
                ),
            });
        }
        Some(g) => g.cast(root.dtype()),
        None if !root.shape().is_empty() => {
            return Err(Error::Shape {
                op: "gradient",
                message: format!(
                    "a tensor of shape {:?} needs the gradient of the result with respect to \
                     it; only a scalar (shape []) defaults to 1",
                    root.shape()
                ),
            });
        }
        None => root.constant_like(1.0, root.dtype()),
    };
    let wanted: HashSet<u64> = targets.iter().map(|t| t.id()).collect();
    let (order, freed) = path_to(root.node(), &wanted);
    let mut grads: HashMap<u64, Lazy> = HashMap::from([(root.id(), seed)]);
    // consumers before their sources: each node's gradient is complete when it is reached
    for n in order.iter().rev() {
        let Some(g) = grads.get(&n.id()).cloned() else {
            continue;
        };
        let (srcs, sgs) = match n.backward() {
            Some(b) => {
                let sgs = (b.rule)(&g)?;
                if sgs.len() != b.inputs.len() {
                    return Err(Error::internal(
                        "gradient",
                        format!(
                            "a derivative rule gave {} gradients for {} inputs",
                            sgs.len(),
                            b.inputs.len()
                        ),
                    ));
                }
                (b.inputs.clone(), sgs)
            }
            None => {
                let srcs: Vec<Lazy> = n.srcs().into_iter().map(Lazy).collect();
                let sgs = rule(&Lazy(n.clone()), &srcs, &g)?;
                (srcs, sgs)
            }
        };
        for (src, sg) in srcs.iter().zip(sgs) {
            let Some(sg) = sg else { continue };
            if !src.dtype().is_float() {
                continue;
            }
            let sg = if sg.dtype() == src.dtype() {
                sg
            } else {
                sg.cast(src.dtype())
            };
            let total = match grads.remove(&src.id()) {
                Some(acc) => acc.binary(BinaryOp::Add, &sg)?,
                None => sg,
            };
            grads.insert(src.id(), total);
        }
    }
    targets
        .iter()
        .map(|t| match grads.get(&t.id()) {
            Some(g) => Ok(g.clone()),
            None if freed => Err(Error::Argument {
                op: "gradient",
                message: format!(
                    "no path from the tensor to the target {:?}: part of the graph was freed \
                     when it was realized; call track_gradient on the target before building \
                     the forward pass (tinygrad's requires_grad)",
                    t.node()
                ),
            }),
            None => Ok(t.constant_like(0.0, t.dtype())),
        })
        .collect()
}

/// The tensors that track gradients (`track_gradient`) at the leaves of `root`'s graph:
/// buffers and parameters `backward` differentiates with respect to.
pub fn tracked_leaves(root: &Lazy) -> Vec<Lazy> {
    let mut out = Vec::new();
    let mut seen: HashSet<u64> = HashSet::new();
    let mut stack = vec![root.node().clone()];
    while let Some(n) = stack.pop() {
        if !seen.insert(n.id()) || matches!(n.op(), Op::Detach) {
            continue;
        }
        if n.tracks() && (matches!(n.op(), Op::Buffer) || n.op().writes_in_place()) {
            out.push(Lazy(n.clone()));
            continue;
        }
        stack.extend(n.srcs());
    }
    out
}

/// The nodes on a path from `root` to a node of `wanted`, sources before consumers, and
/// whether the walk met a realized node whose sources were dropped (a path may have been
/// cut there).
fn path_to(root: &Arc<Node>, wanted: &HashSet<u64>) -> (Vec<Arc<Node>>, bool) {
    let mut freed = false;
    // (the sources entered last to first)
    let mut post = post_order(std::slice::from_ref(root), |n| {
        if matches!(n.op(), Op::Detach) {
            return Vec::new();
        }
        let mut srcs = through(n);
        let leaf = matches!(n.op(), Op::Buffer | Op::Const(_) | Op::Var(..));
        if srcs.is_empty() && !leaf && !wanted.contains(&n.id()) {
            freed = true;
        }
        srcs.reverse();
        srcs
    });
    // keep the nodes from which a wanted node is reachable
    let mut leads: HashSet<u64> = HashSet::new();
    for n in &post {
        let leads_on =
            !matches!(n.op(), Op::Detach) && through(n).iter().any(|s| leads.contains(&s.id()));
        if wanted.contains(&n.id()) || leads_on {
            leads.insert(n.id());
        }
    }
    post.retain(|n| leads.contains(&n.id()));
    (post, freed)
}

/// `v` everywhere in `like`'s shape and dtype.
fn k(like: &Lazy, v: f64) -> Lazy {
    like.constant_like(v, like.dtype())
}

fn mul(a: &Lazy, b: &Lazy) -> Result<Lazy> {
    a.binary(BinaryOp::Mul, b)
}

fn div(a: &Lazy, b: &Lazy) -> Result<Lazy> {
    a.binary(BinaryOp::Mul, &b.unary(UnaryOp::Recip)?)
}

/// `g` summed back to `shape` over the axes an expand stretched (same rank).
fn unexpand(g: &Lazy, shape: &[usize]) -> Result<Lazy> {
    let axes: Vec<usize> = (0..shape.len())
        .filter(|&a| shape[a] == 1 && g.shape()[a] != 1)
        .collect();
    g.reduce(ReduceOp::Add, &axes)
}

/// The sum of each element and those after it in its run of `run` along the last axis: the
/// last axis padded with zeros to whole runs, reversed, scanned and reversed back, so the
/// runs line up with the forward scan's.
fn reverse_scan(g: &Lazy, run: usize) -> Result<Lazy> {
    let last = g.ndim() - 1;
    let n = g.shape()[last];
    let mut pads = vec![(0, 0); g.ndim()];
    pads[last] = (0, n.div_ceil(run) * run - n);
    let padded = g.pad(&pads)?;
    let mut keep: Vec<(usize, usize)> = g.shape().iter().map(|&d| (0, d)).collect();
    keep[last] = (0, n);
    padded
        .flip(&[last])?
        .scan_runs(ReduceOp::Add, run)?
        .flip(&[last])?
        .shrink(&keep)
}

/// The sum of each run of `run` along the last axis of `g` (the last run may be shorter):
/// `[.., runs, 1]`.
fn run_sums(g: &Lazy, run: usize) -> Result<Lazy> {
    g.split_last(run, 0)?.reduce(ReduceOp::Add, &[g.ndim()])
}

/// The gradients of `n`'s sources given `g`, the gradient of `n` (`None`: no gradient).
fn rule(n: &Lazy, srcs: &[Lazy], g: &Lazy) -> Result<Vec<Option<Lazy>>> {
    let one = |x: Lazy| Ok(vec![Some(x)]);
    let ln2 = std::f64::consts::LN_2;
    Ok(match n.op() {
        Op::Buffer | Op::Const(_) | Op::Var(..) | Op::Detach | Op::Assign | Op::AssignWindow(_) => {
            vec![None; srcs.len()]
        }
        Op::Contiguous => return one(g.clone()),
        Op::ContiguousBackward => return one(g.contiguous()),
        Op::Cast => {
            // integer sources end the path; floats take the gradient in their own dtype
            return one(g.cast(srcs[0].dtype()));
        }
        Op::Bitcast => vec![None],
        Op::Unary(op) => {
            let x = &srcs[0];
            let gx = match op {
                UnaryOp::Exp2 => mul(&mul(g, n)?, &k(g, ln2))?,
                UnaryOp::Log2 => div(g, &mul(x, &k(x, ln2))?)?,
                // d sin(x) = cos(x) = sin(pi/2 - x)
                UnaryOp::Sin => {
                    let shifted = k(x, std::f64::consts::FRAC_PI_2)
                        .binary(BinaryOp::Add, &x.unary(UnaryOp::Neg)?)?;
                    mul(g, &shifted.unary(UnaryOp::Sin)?)?
                }
                UnaryOp::Sqrt => div(g, &mul(n, &k(n, 2.0))?)?,
                UnaryOp::Recip => mul(&mul(g, n)?, n)?.unary(UnaryOp::Neg)?,
                UnaryOp::Neg => g.unary(UnaryOp::Neg)?,
                UnaryOp::Trunc => k(g, 0.0),
            };
            vec![Some(gx)]
        }
        Op::Binary(op) => {
            let (x, y) = (&srcs[0], &srcs[1]);
            match op {
                BinaryOp::Add => vec![Some(g.clone()), Some(g.clone())],
                BinaryOp::Mul => vec![Some(mul(g, y)?), Some(mul(g, x)?)],
                // the larger takes the gradient; a tie shares it equally
                BinaryOp::Max => {
                    let half = mul(g, &k(g, 0.5))?;
                    let zero = k(g, 0.0);
                    let tie = x.binary(BinaryOp::CmpEq, y)?.where_(&half, &zero)?;
                    let to_x = y.binary(BinaryOp::CmpLt, x)?.where_(g, &tie)?;
                    let to_y = x.binary(BinaryOp::CmpLt, y)?.where_(g, &tie)?;
                    vec![Some(to_x), Some(to_y)]
                }
                // x^y: y x^(y-1) (y where both are 0), and x^y ln x (x = 0: 0, or -inf for y < 0)
                BinaryOp::Pow => {
                    let zero_x = x.binary(BinaryOp::CmpEq, &k(x, 0.0))?;
                    let zero_y = y.binary(BinaryOp::CmpEq, &k(y, 0.0))?;
                    let ym1 = y.binary(BinaryOp::Add, &k(y, -1.0))?;
                    let dx = mul(y, &x.binary(BinaryOp::Pow, &ym1)?)?;
                    let dx = zero_x.binary(BinaryOp::And, &zero_y)?.where_(y, &dx)?;
                    let ln = mul(&x.unary(UnaryOp::Log2)?, &k(x, ln2))?;
                    let at_zero = y
                        .binary(BinaryOp::CmpLt, &k(y, 0.0))?
                        .where_(&k(y, f64::NEG_INFINITY), &k(y, 0.0))?;
                    let dy = zero_x.where_(&at_zero, &mul(n, &ln)?)?;
                    vec![Some(mul(g, &dx)?), Some(mul(g, &dy)?)]
                }
                // integer and comparison ops carry no gradient
                _ => vec![None, None],
            }
        }
        Op::Ternary(TernaryOp::Where) => {
            let zero = k(g, 0.0);
            let c = &srcs[0];
            vec![None, Some(c.where_(g, &zero)?), Some(c.where_(&zero, g)?)]
        }
        Op::Ternary(TernaryOp::MulAcc) => {
            vec![
                Some(mul(g, &srcs[1])?),
                Some(mul(g, &srcs[0])?),
                Some(g.clone()),
            ]
        }
        Op::Reduce(op, _) => {
            let x = &srcs[0];
            let gx = g.expand(x.shape())?;
            let gx = match op {
                ReduceOp::Add => gx,
                // the maxima share the gradient equally
                ReduceOp::Max => {
                    let hit = x
                        .binary(BinaryOp::CmpEq, &n.expand(x.shape())?)?
                        .cast(g.dtype());
                    let axes: Vec<usize> = (0..x.ndim())
                        .filter(|&a| x.shape()[a] != n.shape()[a])
                        .collect();
                    let count = hit.reduce(ReduceOp::Add, &axes)?.expand(x.shape())?;
                    mul(&div(&hit, &count)?, &gx)?
                }
                ReduceOp::Mul => div(&mul(g, n)?.expand(x.shape())?, x)?,
            };
            vec![Some(gx)]
        }
        Op::Reshape => return one(g.reshape(srcs[0].shape())?),
        Op::Expand => return one(unexpand(g, srcs[0].shape())?),
        Op::Permute(perm) => {
            return one(g.permute(&tg_core::shape::movement::inverse_permutation(perm))?);
        }
        Op::Pad(pads) => {
            let window: Vec<(usize, usize)> = pads
                .iter()
                .zip(srcs[0].shape())
                .map(|(&(before, _), &n)| (before, before + n))
                .collect();
            return one(g.shrink(&window)?);
        }
        Op::Shrink(ranges) => {
            let pads: Vec<(usize, usize)> = ranges
                .iter()
                .zip(srcs[0].shape())
                .map(|(&(s, e), &n)| (s, n - e))
                .collect();
            return one(g.pad(&pads)?);
        }
        Op::Flip(axes) => return one(g.flip(axes)?),
        Op::Gather(axis) => vec![
            Some(g.sum_at(*axis, &srcs[1], srcs[0].shape()[*axis])?),
            None,
        ],
        // FlashAttention-2's backward, two more passes (`Lazy::attention_grads`), and a
        // mask's gradient composed of ops
        Op::Attention(AttentionPass::Forward, ..) => Lazy::attention_grads(n, g)?,
        Op::Attention(AttentionPass::GradQ { .. } | AttentionPass::GradKV, ..) => {
            return Err(Error::Argument {
                op: "gradient",
                message: "the fused attention's gradient has no gradient of its own (a second \
                          derivative takes the composed attention)"
                    .into(),
            });
        }
        // integer words: no gradient
        Op::MergeRuns(_) | Op::SortRuns(_) => vec![None],
        // a running maximum takes integers, which carry none
        Op::ScanRuns(ReduceOp::Max, _) => vec![None; srcs.len()],
        // each element's gradient sums those of the elements after it in its run (times the
        // product's quotient for mul); a run's carry, those of the whole run (sums alone take
        // one)
        Op::ScanRuns(op, run) => {
            let x = &srcs[0];
            let summed = match op {
                ReduceOp::Mul => mul(g, n)?,
                _ => g.clone(),
            };
            let back = reverse_scan(&summed, *run)?;
            let mut grads = vec![Some(match op {
                ReduceOp::Mul => div(&back, x)?,
                _ => back,
            })];
            if let Some(carry) = srcs.get(1) {
                grads.push(Some(run_sums(g, *run)?.reshape(carry.shape())?));
            }
            grads
        }
    })
}
