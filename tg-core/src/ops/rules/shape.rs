//! The shape rules' dispatch: each variant reads its parameters from the call by name and
//! applies tg-core's rule, placing each error at the argument it is about.

use crate::check::Checker;
use crate::dim::Dim;
use crate::error::argument_error;
use crate::shape::pad::PadMode;
use crate::shape::{
    broadcast, einsum, gather, hash, join, linalg, loss, matmul, movement, norm, norm_axis,
    norm_axis_scalar_ok, norm_new_axis, pad, reduce, stats,
};

use super::super::sig::Choices;
use super::super::value::{Args, At, Fault, OpError, Place, Value};
use super::{ShapeRule, window};

/// The receiver (if a tensor) broadcast with the named parameters' tensors.
fn broadcast_with<D: Dim>(
    ck: &mut Checker<D>,
    a: &Args<D>,
    names: &[&'static str],
) -> Result<Vec<D>, Fault<D>> {
    let mut out = match &a.recv {
        Value::Tensor(s, _) => Some(s.clone()),
        _ => None,
    };
    for &n in names {
        if let Value::Tensor(s, _) = a.get(n)? {
            out = Some(match out {
                None => s.clone(),
                Some(o) => broadcast::broadcast(ck, a.op, &o, s).at(At::Param(n))?,
            });
        }
    }
    out.ok_or_else(|| a.internal("no tensor operand"))
}

/// The pad mode a call names (constant when the op has no mode).
fn pad_mode<D: Dim>(a: &Args<D>) -> Result<PadMode, Fault<D>> {
    if a.sig.param("mode").is_none() {
        return Ok(PadMode::Constant);
    }
    let names = Choices::PadMode.names();
    let i = a.choice("mode")?.unwrap_or(0);
    names
        .get(i)
        .and_then(|n| PadMode::from_name(n))
        .ok_or_else(|| a.internal("no pad mode"))
}

/// Pairs as `isize`.
fn pairs<D: Dim>(a: &Args<D>, name: &str) -> Result<Vec<(isize, isize)>, Fault<D>> {
    Ok(a.pairs(name)?
        .into_iter()
        .map(|(x, y)| (x as isize, y as isize))
        .collect())
}

/// The loss reduction a call names.
fn reduction<D: Dim>(a: &Args<D>) -> Result<loss::Reduction, Fault<D>> {
    Ok(match a.choice("reduction")? {
        None | Some(0) => loss::Reduction::Mean,
        Some(1) => loss::Reduction::Sum,
        Some(_) => loss::Reduction::None,
    })
}

/// A literal count of pieces that must be positive.
fn pieces<D: Dim>(
    a: &Args<D>,
    name: &'static str,
    what: &'static str,
    positive: &str,
) -> Result<usize, Fault<D>> {
    let d = a
        .dim(name)?
        .ok_or_else(|| a.internal(format!("`{name}` is absent")))?;
    let Some(n) = d.known() else {
        return Err(Fault::new(
            At::Param(name),
            OpError::Pieces {
                op: a.op,
                what,
                found: d.to_string(),
            },
        ));
    };
    if n == 0 {
        return Err(Fault::new(
            At::Param(name),
            argument_error(a.op, format!("{positive} must be positive, found 0")),
        ));
    }
    Ok(n)
}

pub(super) fn apply<D: Dim>(
    rule: ShapeRule,
    ck: &mut Checker<D>,
    a: &Args<D>,
) -> Result<Vec<Vec<D>>, Fault<D>> {
    use ShapeRule as S;
    let op = a.op;
    let one = |s: Vec<D>| Ok(vec![s]);
    // the rules below all have a tensor receiver but the broadcasts, which check their own
    let shape = || a.shape();
    match rule {
        S::Same => one(shape()?.to_vec()),
        S::Broadcast(names) => one(broadcast_with(ck, a, names)?),
        S::AllOf(names) => {
            broadcast_with(ck, a, names)?;
            one(vec![])
        }
        S::Within(names) => {
            let s = shape()?;
            for &n in names {
                if let Value::Tensor(t, _) = a.get(n)? {
                    broadcast::broadcast_to(ck, op, t, s).at(At::Param(n))?;
                }
            }
            one(s.to_vec())
        }
        S::Reduce => {
            let axes = a.axes("axis")?;
            let at = if axes.is_some() {
                At::Param("axis")
            } else {
                At::Call
            };
            let (_, out) =
                reduce::reduce(op, shape()?, axes.as_deref(), a.flag("keepdim")?).at(at)?;
            one(out)
        }
        S::Along => {
            norm_axis(op, a.axis("axis")?, shape()?).at(At::Param("axis"))?;
            one(shape()?.to_vec())
        }
        S::Normalize | S::Sort => {
            norm_axis(op, a.axis("axis")?, shape()?).at(At::Call)?;
            one(shape()?.to_vec())
        }
        S::Scan => one(stats::scan(op, shape()?, a.axis("axis")?).at(At::Param("axis"))?),
        S::ArgReduce => {
            one(
                stats::arg_reduce(op, shape()?, a.opt_axis("axis")?, a.flag("keepdim")?)
                    .at(At::Param("axis"))?,
            )
        }
        S::TopK => {
            let k = a.dim("k")?.ok_or_else(|| a.internal("`k` is absent"))?;
            one(stats::topk(ck, op, shape()?, &k, a.axis("axis")?)?)
        }
        S::Reshape => {
            let t = a.target("shape")?;
            one(movement::reshape(ck, shape()?, &t).at(At::Param("shape"))?)
        }
        S::Permute => {
            let order = a.axes("order")?.unwrap_or_default();
            one(movement::permute(op, shape()?, &order)
                .at(At::Param("order"))?
                .1)
        }
        S::Transpose => {
            let (x, y) = (a.axis("a")?, a.axis("b")?);
            norm_axis(op, x, shape()?).at(At::Param("a"))?;
            norm_axis(op, y, shape()?).at(At::Param("b"))?;
            one(movement::transpose(op, shape()?, x, y).at(At::Call)?.1)
        }
        S::MatrixT => one(movement::matrix_transpose(shape()?).at(At::Call)?.1),
        S::Expand => {
            let t = a.target("shape")?;
            one(broadcast::expand(ck, op, shape()?, &t).at(At::Param("shape"))?)
        }
        S::BroadcastTo => {
            let t = a.dims("shape")?.unwrap_or_default();
            one(broadcast::broadcast_to(ck, op, shape()?, &t).at(At::Param("shape"))?)
        }
        S::Squeeze => {
            let axis = a.opt_axis("axis")?;
            let at = if axis.is_some() {
                At::Param("axis")
            } else {
                At::Call
            };
            one(movement::squeeze(shape()?, axis).at(at)?)
        }
        S::Unsqueeze => one(movement::unsqueeze(shape()?, a.axis("axis")?).at(At::Param("axis"))?),
        S::Flatten => {
            let (s, e) = (a.axis("start")?, a.axis("end")?);
            norm_axis_scalar_ok(op, s, shape()?).at(At::Param("start"))?;
            norm_axis_scalar_ok(op, e, shape()?).at(At::Param("end"))?;
            one(movement::flatten(shape()?, s, e).at(At::Call)?)
        }
        S::Unflatten => {
            let ax = a.axis("axis")?;
            norm_axis(op, ax, shape()?).at(At::Param("axis"))?;
            let t = a.target("sizes")?;
            one(movement::unflatten(ck, shape()?, ax, &t).at(At::Param("sizes"))?)
        }
        S::Flip => {
            let axes = a.axes("axes")?.unwrap_or_default();
            movement::flip(shape()?, &axes).at(At::Param("axes"))?;
            one(shape()?.to_vec())
        }
        S::Pad => {
            let p = pairs(a, "pads")?;
            one(pad::pad(ck, op, shape()?, &p, pad_mode(a)?).at(At::Param("pads"))?)
        }
        S::PadFlat => {
            let flat: Vec<isize> = a.axes("pads")?.unwrap_or_default();
            let mode = pad_mode(a)?;
            let at = At::Param("pads");
            let grouped = pad::group_flat_pads(op, shape()?, &flat).at(at)?;
            one(pad::pad(ck, op, shape()?, &grouped, mode).at(at)?)
        }
        S::PadTo | S::ShrinkTo => {
            let t = a.target("shape")?;
            let grow = rule == S::PadTo;
            one(pad::resize_to(ck, op, shape()?, &t, grow).at(At::Param("shape"))?)
        }
        S::Shrink => {
            let r = pairs(a, "ranges")?;
            one(pad::shrink(ck, op, shape()?, &r).at(At::Param("ranges"))?)
        }
        S::Repeat => {
            let reps: Vec<usize> = a
                .ints("repeats")?
                .unwrap_or_default()
                .into_iter()
                .map(|r| r.max(0) as usize)
                .collect();
            one(movement::repeat(shape()?, &reps).at(At::Param("repeats"))?)
        }
        S::RepeatInterleave => {
            let n = a.literal("repeats")?;
            let axis = a.opt_axis("axis")?;
            one(movement::repeat_interleave(shape()?, n, axis).at(At::Param("axis"))?)
        }
        S::Roll => {
            let shifts = a.axes("shifts")?.unwrap_or_default();
            let axes = a.axes("axes")?;
            movement::roll(shape()?, &shifts, axes.as_deref()).at(At::Param("axes"))?;
            one(shape()?.to_vec())
        }
        S::Diagonal => {
            let s = shape()?;
            movement::require_rank(op, s, 2).at(At::Receiver)?;
            let (off, d1, d2) = (a.axis("offset")?, a.axis("dim1")?, a.axis("dim2")?);
            norm_axis(op, d1, s).at(At::Param("dim1"))?;
            norm_axis(op, d2, s).at(At::Param("dim2"))?;
            one(movement::diagonal(ck, s, off, d1, d2).at(At::Call)?.1)
        }
        S::Cat | S::Stack => {
            let s = shape()?;
            let ax = a.axis("axis")?;
            let stack = rule == S::Stack;
            if stack {
                norm_new_axis(op, ax, s).at(At::Param("axis"))?;
            } else if !s.is_empty() {
                norm_axis(op, ax, s).at(At::Param("axis"))?;
            }
            let others = match a.get("tensors")? {
                Value::Tensors(ts) => ts.clone(),
                Value::Tensor(t, d) => vec![(t.clone(), *d)],
                other => return Err(a.internal(format!("tensors is {other:?}"))),
            };
            let join = |ck: &mut Checker<D>, shapes: &[&[D]]| {
                if stack {
                    join::stack(ck, shapes, ax)
                } else {
                    join::cat(ck, shapes, ax)
                }
            };
            // each tensor against the receiver, at the argument; then the sizes added up
            for (t, _) in &others {
                join(ck, &[s, t]).at(At::Param("tensors"))?;
            }
            let mut all: Vec<&[D]> = vec![s];
            all.extend(others.iter().map(|(t, _)| t.as_slice()));
            one(join(&mut Checker::new(), &all).at(At::Call)?.1)
        }
        S::Chunk => {
            let n = pieces(a, "chunks", "chunk count", "the number of chunks")?;
            let ax = a.axis("axis")?;
            norm_axis(op, ax, shape()?).at(At::Param("axis"))?;
            Ok(join::chunk(shape()?, n, ax).at(At::Param("chunks"))?.1)
        }
        S::Split => {
            let ax = a.axis("axis")?;
            norm_axis(op, ax, shape()?).at(At::Param("axis"))?;
            match a.get("sizes")? {
                Value::Dims(sizes) => Ok(join::split(ck, shape()?, sizes, ax)
                    .at(At::Param("sizes"))?
                    .1),
                _ => {
                    let n = pieces(a, "sizes", "piece size", "the piece size")?;
                    Ok(join::split_every(shape()?, n, ax).at(At::Param("sizes"))?.1)
                }
            }
        }
        S::SplitEvery => {
            let ax = a.axis("axis")?;
            norm_axis(op, ax, shape()?).at(At::Param("axis"))?;
            let n = pieces(a, "size", "piece size", "the piece size")?;
            Ok(join::split_every(shape()?, n, ax).at(At::Param("size"))?.1)
        }
        S::Matmul => {
            let (o, _) = a.required("other")?;
            one(matmul::matmul(ck, op, shape()?, o).at(At::Call)?)
        }
        S::Linear => {
            let (w, _) = a.required("weight")?;
            let b = a.tensor("bias")?.map(|(s, _)| s);
            one(linalg::linear(ck, op, shape()?, w, b)?)
        }
        S::Attention => {
            let (k, _) = a.required("key")?;
            let (v, _) = a.required("value")?;
            let mask = a.tensor("attn_mask")?.map(|(m, _)| m);
            one(linalg::attention(
                ck,
                op,
                shape()?,
                k,
                v,
                mask,
                a.flag("is_causal")?,
            )?)
        }
        S::Multinomial => {
            let n = a
                .dim("num_samples")?
                .ok_or_else(|| a.internal("`num_samples` is absent"))?;
            one(stats::multinomial(
                ck,
                op,
                shape()?,
                n,
                a.flag("replacement")?,
            )?)
        }
        S::Qr => Ok(linalg::qr(op, shape()?)?.to_vec()),
        S::Svd => Ok(linalg::svd(op, shape()?, a.flag("full_matrices")?)?.to_vec()),
        S::NewtonSchulz => {
            let n = match a.get("params")? {
                Value::Count(n) => *n,
                other => return Err(a.internal(format!("params is {other:?}"))),
            };
            one(linalg::newton_schulz(op, shape()?, n)?)
        }
        S::Einsum => {
            let formula = match a.get("formula")? {
                Value::Text(f) => f.clone(),
                other => return Err(a.internal(format!("formula is {other:?}"))),
            };
            let mut shapes: Vec<&[D]> = vec![shape()?];
            match a.get("operands")? {
                Value::Tensors(ts) => shapes.extend(ts.iter().map(|(s, _)| s.as_slice())),
                Value::Tensor(s, _) => shapes.push(s),
                _ => {}
            }
            match einsum::einsum(ck, &formula, &shapes) {
                Ok(e) => one(e.out),
                Err(einsum::EinsumError { operand, error }) => {
                    let at = match operand {
                        Some(0) => At::Receiver,
                        Some(_) => At::Param("operands"),
                        None => At::Param("formula"),
                    };
                    Err(Fault::new(at, error))
                }
            }
        }
        S::Conv => one(window::conv(ck, a)?),
        S::ConvTranspose => one(window::conv_transpose(ck, a)?),
        S::Pool => window::pool(ck, a),
        S::MaxUnpool => one(window::max_unpool(ck, a)?),
        S::LayerNorm => {
            let axes = a.axes("axis")?.unwrap_or_default();
            one(norm::layernorm(op, shape()?, &axes)?)
        }
        S::BatchNorm => {
            let axes = a.axes("axis")?.unwrap_or_default();
            let stats = [
                ("mean", a.tensor("mean")?),
                ("invstd", a.tensor("invstd")?),
                ("weight", a.tensor("weight")?),
                ("bias", a.tensor("bias")?),
            ];
            one(norm::batchnorm(ck, op, shape()?, &axes, stats)?)
        }
        S::Bce => {
            let (y, _) = a.required("y")?;
            let w = match a.sig.param("pos_weight") {
                Some(_) => a.tensor("pos_weight")?.map(|(s, _)| s),
                None => None,
            };
            one(loss::bce(ck, op, shape()?, y, w, reduction(a)?)?)
        }
        S::SparseCce => {
            loss::smoothing(op, a.number("label_smoothing")?)?;
            let y = a.required("y")?;
            one(loss::sparse_cce(ck, op, shape()?, y, reduction(a)?)?)
        }
        S::CrossEntropy => {
            loss::smoothing(op, a.number("label_smoothing")?)?;
            let y = a.required("y")?;
            one(loss::cross_entropy(ck, op, shape()?, y, reduction(a)?)?)
        }
        S::NllLoss => {
            let y = a.required("y")?;
            let w = a.tensor("weight")?.map(|(s, _)| s);
            one(loss::nll_loss(ck, op, shape()?, y, w, reduction(a)?)?)
        }
        S::WindowWrite => {
            let (value, _) = a.required("value")?;
            one(gather::window_write(
                ck,
                op,
                shape()?,
                a.axis("axis")?,
                a.get("start")?,
                value,
            )?)
        }
        S::Gather => {
            let index = a.required("index")?;
            one(gather::gather(op, shape()?, a.axis("dim")?, index)?)
        }
        S::Scatter => {
            let input = a.input()?;
            let index = a.required("index")?;
            let src = match a.get("src")? {
                Value::Tensor(s, d) => Some((s.as_slice(), *d)),
                _ => None,
            };
            if src.is_some()
                && a.sig.param("include_self").is_none()
                && a.choice("reduce")?.is_some()
            {
                return Err(Fault::new(
                    At::Param("reduce"),
                    argument_error(
                        op,
                        "reduce takes a scalar src; use `scatter_reduce` for a tensor",
                    ),
                ));
            }
            one(gather::scatter(ck, op, input, a.axis("dim")?, index, src)?)
        }
        S::MaskedSelectSized => {
            let mask = a.required("mask")?;
            let n = a
                .dim("size")?
                .ok_or_else(|| a.internal("`size` is absent"))?;
            one(gather::masked_select_sized(ck, op, shape()?, mask, n)?)
        }
        S::NonzeroSized => {
            let n = a
                .dim("size")?
                .ok_or_else(|| a.internal("`size` is absent"))?;
            one(vec![n, D::lit(shape()?.len())])
        }
        S::Interpolate => {
            let size = a.dims("size")?.unwrap_or_default();
            let names = Choices::Interpolation.names();
            let mode = names[a.choice("mode")?.unwrap_or(0).min(names.len() - 1)];
            one(gather::interpolate(
                op,
                shape()?,
                &size,
                mode,
                a.flag("align_corners")?,
            )?)
        }
        S::Triangle => {
            movement::require_rank(op, shape()?, 2).at(At::Receiver)?;
            one(shape()?.to_vec())
        }
        S::OneHot => {
            let n = a
                .dim("num_classes")?
                .ok_or_else(|| a.internal("`num_classes` is absent"))?;
            let mut out = shape()?.to_vec();
            out.push(n);
            one(out)
        }
        S::Keccak => {
            let (rate, dsbyte) = match a.get("cfg")? {
                Value::Keccak { rate, dsbyte } => (*rate, *dsbyte),
                other => return Err(a.internal(format!("cfg is {other:?}"))),
            };
            one(hash::keccak(op, shape()?, rate, dsbyte)?)
        }
        S::Hash => one(vec![D::lit(16)]),
        S::Made => one(a.dims("shape")?.unwrap_or_default()),
        S::Arange => {
            let num = |n: &str| a.number(n);
            match (num("start")?, num("stop")?, num("step")?) {
                (Some(start), Some(stop), Some(step)) if step != 0.0 => {
                    let n = ((stop - start) / step).ceil().max(0.0);
                    one(vec![D::lit(n as usize)])
                }
                (Some(_), Some(_), Some(_)) => Err(Fault::new(
                    At::Param("step"),
                    argument_error(op, "the step must not be zero"),
                )),
                _ => Err(Fault::new(
                    At::Call,
                    argument_error(
                        op,
                        "its length depends on start, stop and step: give them as literals",
                    ),
                )),
            }
        }
        S::Linspace => one(vec![
            a.dim("steps")?
                .ok_or_else(|| a.internal("`steps` is absent"))?,
        ]),
        S::Eye => {
            let n = a.dim("n")?.ok_or_else(|| a.internal("`n` is absent"))?;
            let m = a.dim("m")?.unwrap_or_else(|| n.clone());
            one(vec![n, m])
        }
        S::DataDependent | S::Special => Err(Fault::new(
            At::Call,
            OpError::NotInKernel {
                op,
                reason: match a.sig.call {
                    super::super::Call::Special(r) => r,
                    _ => "its output shape depends on the data",
                },
            },
        )),
    }
}
