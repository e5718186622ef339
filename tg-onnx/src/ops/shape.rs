//! Shapes and movement: Shape, Reshape, Squeeze, Transpose, Concat, Split, Slice, Expand,
//! Tile, Pad, the constant makers, DepthToSpace and friends. Sizes that decide shapes are
//! read on the host (they are constants or `Shape` results in every exported model).

use tg_onnx_format::fold::{
    RangeSpec, constant_of_shape_value, expand_shape, range_spec, reshape_target, shape_of,
    slice_range,
};
use tg_onnx_format::{DType, HostTensor, OpType, Result};
use tg_ops::DynTensor;
use tg_ops::untyped::indexing::Index;
use tg_ops::untyped::pad_modes::PadMode;

use super::axis;
use crate::value::{At, NodeCtx, Value};

fn isz(v: &[usize]) -> Vec<isize> {
    v.iter().map(|&d| d as isize).collect()
}

/// `Shape` and `Size` of a device tensor: known on the host.
pub(crate) fn shape(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let s = c.value(0)?.shape().to_vec();
    Ok(vec![Value::Host(if c.node.op == OpType::Size {
        HostTensor::from_i64s(DType::I64, &[], &[s.iter().product::<usize>() as i64])
    } else {
        shape_of(c.node, &s)?
    })])
}

/// `Constant` (always folded at load; here for completeness of the dispatch).
pub(crate) fn constant(c: &mut NodeCtx) -> Result<Vec<Value>> {
    Ok(vec![Value::Host(tg_onnx_format::fold::constant(c.node)?)])
}

pub(crate) fn reshape(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let spec = c.ints(1)?;
    // sizes below -1, or whose product overflows, are refused as such (-1 is inferred)
    let sizes: Vec<i64> = spec.iter().map(|&d| if d == -1 { 1 } else { d }).collect();
    c.node.checked_shape(&sizes, x.dtype())?;
    let allowzero = c.node.int_or("allowzero", 0)? != 0;
    let target = reshape_target(x.shape(), &spec, allowzero)
        .ok_or_else(|| c.bad(format!("cannot reshape {:?} to {spec:?}", x.shape())))?;
    Ok(vec![c.out(x.reshape(&isz(&target)).at(c)?)])
}

pub(crate) fn flatten(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let r = x.ndim() as i64;
    let a0 = c.node.int_or("axis", 1)?;
    let a = if a0 < 0 { a0 + r } else { a0 };
    // Flatten's axis may be the rank itself
    if !(0..=r).contains(&a) {
        return Err(c.node.axis_error(a0, r as usize));
    }
    let rows: usize = x.shape()[..a as usize].iter().product();
    let cols: usize = x.shape()[a as usize..].iter().product();
    Ok(vec![
        c.out(x.reshape(&[rows as isize, cols as isize]).at(c)?),
    ])
}

/// Axes from the input (from `input_since` on) or the attribute.
fn axes(c: &mut NodeCtx, input: usize, input_since: u32) -> Result<Option<Vec<i64>>> {
    if c.node.since >= input_since {
        c.opt_ints(input)
    } else {
        c.node.ints("axes")
    }
}

pub(crate) fn squeeze(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let shape = x.shape().to_vec();
    let target: Vec<usize> = match axes(c, 1, 13)? {
        None => shape.iter().copied().filter(|&d| d != 1).collect(),
        Some(a) => {
            let a: Vec<usize> = a
                .iter()
                .map(|&a| axis(c, a, shape.len()))
                .collect::<Result<_>>()?;
            if let Some(&bad) = a.iter().find(|&&k| shape[k] != 1) {
                return Err(c.bad(format!("axis {bad} has size {}, not 1", shape[bad])));
            }
            (0..shape.len())
                .filter(|k| !a.contains(k))
                .map(|k| shape[k])
                .collect()
        }
    };
    Ok(vec![c.out(x.reshape(&isz(&target)).at(c)?)])
}

pub(crate) fn unsqueeze(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let a = axes(c, 1, 13)?.ok_or_else(|| c.node.arity("axes are required"))?;
    let r = x.ndim() + a.len();
    let mut a: Vec<usize> = a.iter().map(|&k| axis(c, k, r)).collect::<Result<_>>()?;
    a.sort_unstable();
    a.dedup();
    let mut shape = x.shape().to_vec();
    for k in a {
        shape.insert(k.min(shape.len()), 1);
    }
    Ok(vec![c.out(x.reshape(&isz(&shape)).at(c)?)])
}

pub(crate) fn transpose(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let perm: Vec<isize> = match c.node.ints("perm")? {
        Some(p) => p.iter().map(|&a| a as isize).collect(),
        None => (0..x.ndim() as isize).rev().collect(),
    };
    Ok(vec![c.out(x.permute(&perm).at(c)?)])
}

pub(crate) fn concat(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let ts: Vec<DynTensor> = (0..c.ins.len())
        .filter(|&i| c.has(i))
        .map(|i| c.t(i))
        .collect::<Result<_>>()?;
    let a = c
        .node
        .int("axis")?
        .ok_or_else(|| c.node.bad_attr("axis", "missing"))?;
    let first = ts.first().ok_or_else(|| c.node.arity("needs an input"))?;
    let a = axis(c, a, first.ndim())?;
    Ok(vec![c.out(DynTensor::cat(&ts, a as isize).at(c)?)])
}

pub(crate) fn split(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let a = axis(c, c.node.int_or("axis", 0)?, x.ndim())?;
    let n = x.shape()[a];
    let outs = c.node.outputs.len();
    let from_input = c.node.since >= 13;
    let sizes: Vec<usize> = match if from_input {
        c.opt_ints(1)?
    } else {
        c.node.ints("split")?
    } {
        Some(s) => {
            // one size per output, none negative
            let bad = s.len() != outs || s.iter().any(|&v| v < 0);
            if bad && !from_input {
                return Err(c.node.bad_attr(
                    "split",
                    format!("{s:?} for {outs} outputs (one size each, none negative)"),
                ));
            }
            c.node.expect_count(1, outs, s.len())?;
            if let Some(&v) = s.iter().find(|&&v| v < 0) {
                return Err(c
                    .node
                    .input_value(1, v as f64, "split sizes cannot be negative"));
            }
            s.iter().map(|&v| v as usize).collect()
        }
        None => {
            let parts = match c.node.int("num_outputs")? {
                Some(k) => k.max(1) as usize,
                None => outs.max(1),
            };
            if c.node.int("num_outputs")?.is_some() {
                // ceil-sized chunks, the last one smaller
                let size = n.div_ceil(parts);
                (0..parts)
                    .map(|i| size.min(n.saturating_sub(i * size)))
                    .collect()
            } else {
                if n % parts != 0 {
                    return Err(c.bad(format!(
                        "axis of size {n} does not split into {parts} equal parts"
                    )));
                }
                vec![n / parts; parts]
            }
        }
    };
    if sizes.iter().sum::<usize>() != n {
        return Err(c.bad(format!("split sizes {sizes:?} do not add up to {n}")));
    }
    let parts = x.split(&sizes, a as isize).at(c)?;
    Ok(parts.into_iter().map(|t| c.out(t)).collect())
}

pub(crate) fn slice(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let (starts, ends, axes_, steps) = if c.node.since < 10 {
        (
            c.node.ints("starts")?.unwrap_or_default(),
            c.node.ints("ends")?.unwrap_or_default(),
            c.node.ints("axes")?,
            None,
        )
    } else {
        (c.ints(1)?, c.ints(2)?, c.opt_ints(3)?, c.opt_ints(4)?)
    };
    let r = x.ndim();
    let axes_ = axes_.unwrap_or_else(|| (0..starts.len() as i64).collect());
    let steps = steps.unwrap_or_else(|| vec![1; starts.len()]);
    // ends, axes and steps each hold one entry per start
    for (j, len) in [(2, ends.len()), (3, axes_.len()), (4, steps.len())] {
        c.node.expect_count(j, starts.len(), len)?;
    }
    let mut index: Vec<Index> = (0..r).map(|_| Index::full()).collect();
    for i in 0..starts.len() {
        let a = axis(c, axes_[i], r)?;
        if steps[i] == 0 {
            return Err(c.node.input_value(4, 0.0, "a slice step cannot be 0"));
        }
        let n = x.shape()[a] as i64;
        let (s, e) = slice_range(n, starts[i], ends[i], steps[i]);
        let empty = if steps[i] > 0 { e <= s } else { e >= s };
        index[a] = if empty || n == 0 {
            Index::Slice {
                start: Some(0),
                stop: Some(0),
                step: 1,
            }
        } else {
            Index::Slice {
                start: Some(s as isize),
                stop: if e < 0 { None } else { Some(e as isize) },
                step: steps[i] as isize,
            }
        };
    }
    Ok(vec![c.out(x.index(&index).at(c)?)])
}

pub(crate) fn expand(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let target = c.ints(1)?;
    let out = match expand_shape(c.node, x.shape(), &target, x.dtype())? {
        Some(out) => out,
        // not broadcastable: tg's rule names both shapes
        None => {
            let target: Vec<usize> = target.iter().map(|&d| d as usize).collect();
            tg_ops::untyped::broadcast_shapes("Expand", &[x.shape(), &target]).at(c)?
        }
    };
    Ok(vec![c.out(x.broadcast_to(&out).at(c)?)])
}

pub(crate) fn tile(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let reps = c.ints(1)?;
    c.node.expect_count(1, x.ndim(), reps.len())?;
    if let Some(&bad) = reps.iter().find(|&&r| r < 0) {
        return Err(c
            .node
            .input_value(1, bad as f64, "repeats cannot be negative"));
    }
    // the output's sizes, checked before tg multiplies them
    let out: Vec<i64> = x
        .shape()
        .iter()
        .zip(&reps)
        .map(|(&d, &r)| (d as i64).saturating_mul(r))
        .collect();
    c.node.checked_shape(&out, x.dtype())?;
    let reps: Vec<usize> = reps.iter().map(|&r| r as usize).collect();
    Ok(vec![c.out(x.repeat(&reps).at(c)?)])
}

pub(crate) fn constant_of_shape(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let shape = c.ints(0)?;
    let value = constant_of_shape_value(c.node)?;
    let shape = c.node.checked_shape(&shape, value.dtype)?;
    let v = crate::value::upload(&value).at(c)?;
    Ok(vec![Value::dev(v.broadcast_to(&shape).at(c)?, false)])
}

pub(crate) fn range(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (s, l, d) = (c.host(0)?, c.host(1)?, c.host(2)?);
    let dtype = s.dtype;
    let t = match range_spec(c.node, &s, &l, &d)? {
        RangeSpec::Float {
            start,
            limit,
            delta,
            ..
        } => DynTensor::arange(start, limit, delta, Some(dtype)),
        RangeSpec::Int {
            start,
            limit,
            delta,
            ..
        } => DynTensor::arange(start, limit, delta, Some(dtype)),
    }
    .at(c)?;
    Ok(vec![Value::dev(t, false)])
}

pub(crate) fn eye_like(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.value(0)?.clone();
    let s = x.shape().to_vec();
    if s.len() != 2 {
        return Err(c.bad("EyeLike takes a 2-D input"));
    }
    let k = c.node.int_or("k", 0)?;
    let dtype = match c.node.int("dtype")? {
        Some(code) => tg_onnx_format::dtype::from_onnx(code as i32, &c.node.name)?,
        None => x.dtype(),
    };
    let rows = DynTensor::arange(0i64, s[0] as i64, 1i64, Some(DType::I64)).at(c)?;
    let cols = DynTensor::arange(0i64, s[1] as i64, 1i64, Some(DType::I64)).at(c)?;
    let t = (|| {
        cols.reshape(&[1, -1])?
            .sub(&rows.reshape(&[-1, 1])?)?
            .eq(k)
            .map(|m| m.cast(dtype))
    })()
    .at(c)?;
    Ok(vec![Value::dev(t, false)])
}

pub(crate) fn trilu(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let k = c.opt_scalar_i64(1)?.unwrap_or(0) as isize;
    let y = if c.node.int_or("upper", 1)? != 0 {
        x.triu(k)
    } else {
        x.tril(k)
    };
    Ok(vec![c.out(y.at(c)?)])
}

/// `DepthToSpace` (DCR and CRD) and `SpaceToDepth`: reshapes around one permutation.
pub(crate) fn depth_space(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let b = c
        .node
        .int("blocksize")?
        .ok_or_else(|| c.node.bad_attr("blocksize", "missing"))? as isize;
    if x.ndim() != 4 || b <= 0 {
        return Err(c.bad("takes a 4-D input and a positive blocksize"));
    }
    let s = isz(x.shape());
    let (n, ch, h, w) = (s[0], s[1], s[2], s[3]);
    let y = if c.node.op == OpType::DepthToSpace {
        let crd = c.node.string_or("mode", "DCR")? == "CRD";
        let oc = ch / (b * b);
        if oc * b * b != ch {
            return Err(c.bad(format!("{ch} channels are not a multiple of blocksize^2")));
        }
        (|| {
            if crd {
                x.reshape(&[n, oc, b, b, h, w])?
                    .permute(&[0, 1, 4, 2, 5, 3])?
                    .reshape(&[n, oc, h * b, w * b])
            } else {
                x.reshape(&[n, b, b, oc, h, w])?
                    .permute(&[0, 3, 4, 1, 5, 2])?
                    .reshape(&[n, oc, h * b, w * b])
            }
        })()
    } else {
        if h % b != 0 || w % b != 0 {
            return Err(c.bad("spatial sizes are not multiples of blocksize"));
        }
        let crd = c.node.string_or("mode", "DCR")? == "CRD";
        let perm: [isize; 6] = if crd {
            [0, 1, 3, 5, 2, 4]
        } else {
            [0, 3, 5, 1, 2, 4]
        };
        (|| {
            x.reshape(&[n, ch, h / b, b, w / b, b])?
                .permute(&perm)?
                .reshape(&[n, ch * b * b, h / b, w / b])
        })()
    };
    Ok(vec![c.out(y.at(c)?)])
}

pub(crate) fn pad(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let r = x.ndim();
    let (pads, value, axes_) = if c.node.since < 11 {
        let p = c
            .node
            .ints("pads")?
            .ok_or_else(|| c.node.bad_attr("pads", "missing"))?;
        (p, c.node.float_or("value", 0.0)? as f64, None)
    } else {
        let p = c.ints(1)?;
        let v = c.opt_scalar_f64(2)?.unwrap_or(0.0);
        (p, v, c.opt_ints(3)?)
    };
    let axes_: Vec<usize> = match axes_ {
        Some(a) => a.iter().map(|&k| axis(c, k, r)).collect::<Result<_>>()?,
        None => (0..r).collect(),
    };
    if pads.len() != 2 * axes_.len() {
        return Err(if c.node.since < 11 {
            c.node.bad_attr(
                "pads",
                format!("{} pads for {} axes", pads.len(), axes_.len()),
            )
        } else {
            c.node
                .element_count(&c.node.input_label(1), 2 * axes_.len(), pads.len())
        });
    }
    let mut pairs = vec![(0isize, 0isize); r];
    let mut out: Vec<i64> = x.shape().iter().map(|&d| d as i64).collect();
    for (i, &a) in axes_.iter().enumerate() {
        let (before, after) = (pads[i], pads[i + axes_.len()]);
        pairs[a] = (before as isize, after as isize);
        out[a] = out[a].saturating_add(before).saturating_add(after);
    }
    // the padded (or cropped) sizes, checked before tg computes them
    c.node.checked_shape(&out, x.dtype())?;
    let mode = match c.node.string_or("mode", "constant")?.as_str() {
        "constant" => {
            let s = if x.dtype().is_float() {
                tg_runtime::Scalar::Float(value)
            } else if x.dtype() == DType::Bool {
                tg_runtime::Scalar::Bool(value != 0.0)
            } else {
                // an integer pad value comes as an integer input; read it exactly
                let v = if c.node.since >= 11 {
                    c.opt_scalar_i64(2)?.unwrap_or(0)
                } else {
                    value as i64
                };
                tg_runtime::Scalar::Int(v)
            };
            PadMode::Constant(s)
        }
        "reflect" => PadMode::Reflect,
        "edge" => PadMode::Replicate,
        "wrap" => PadMode::Circular,
        other => {
            return Err(c
                .node
                .bad_attr("mode", format!("{other:?} is not a pad mode")));
        }
    };
    Ok(vec![c.out(x.pad_with(&pairs, mode).at(c)?)])
}

pub(crate) fn center_crop_pad(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let r = x.ndim();
    let target = c.ints(1)?;
    let axes_: Vec<usize> = match c.node.ints("axes")? {
        Some(a) => a.iter().map(|&k| axis(c, k, r)).collect::<Result<_>>()?,
        None => (0..r).collect(),
    };
    c.node.expect_count(1, axes_.len(), target.len())?;
    if let Some(&bad) = target.iter().find(|&&t| t < 0) {
        return Err(c
            .node
            .input_value(1, bad as f64, "sizes cannot be negative"));
    }
    let mut pairs = vec![(0isize, 0isize); r];
    for (&a, &t) in axes_.iter().zip(&target) {
        let diff = t as isize - x.shape()[a] as isize;
        // padding puts the extra element at the end, cropping takes it from the end too
        pairs[a] = if diff >= 0 {
            (diff / 2, diff - diff / 2)
        } else {
            let cut = -diff;
            (-(cut / 2), -(cut - cut / 2))
        };
    }
    Ok(vec![c.out(x.pad(&pairs, 0).at(c)?)])
}
