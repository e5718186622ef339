//! Constant folding on the host: the ops that compute shapes (Shape, Gather, Concat, Slice,
//! Unsqueeze, integer arithmetic, Range, ConstantOfShape, ...) evaluated on `HostTensor`s.
//!
//! At load, every node whose inputs are all constants (initializers, `Constant` nodes, results
//! folded before it) and whose op is evaluated here is replaced by its result. When a model
//! runs, the importer asks [`eval`] first for every node whose inputs are all known on the
//! host, so a shape subgraph over `Shape` of an input costs no kernel. Only results that are
//! exact are computed here: integer arithmetic wraps like tg's, and a float op of one IEEE
//! operation rounds once (computed in f64, which holds every f32 and f16 sum, difference,
//! product and quotient before its one rounding); everything else goes to the device.

use tg_core::DType;

use crate::error::{Error, Result};
use crate::model::{Graph, Node};
use crate::op::OpType;
use crate::tensor::HostTensor;

/// Tensors larger than this stay on the device: the host loops are simple, not fast.
const MAX_HOST_ELEMENTS: usize = 1 << 20;

/// Folds the constant nodes of `g` (not of its subgraphs, which read values from outside).
pub fn fold_graph(g: &mut Graph) -> Result<()> {
    let nodes = std::mem::take(&mut g.nodes);
    for node in nodes {
        let ins: Option<Vec<Option<&HostTensor>>> = node
            .inputs
            .iter()
            .map(|name| {
                if name.is_empty() {
                    Some(None)
                } else {
                    g.constants.get(name).map(Some)
                }
            })
            .collect();
        let result = match ins {
            Some(ins) => eval(&node, &ins),
            None => None,
        };
        match result {
            Some(outs) => {
                let outs = outs?;
                for (name, t) in node.outputs.iter().zip(outs) {
                    if !name.is_empty() {
                        g.constants.insert(name.clone(), t);
                    }
                }
            }
            None => g.nodes.push(node),
        }
    }
    Ok(())
}

/// Row-major strides.
pub fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// The flat positions in a tensor of `shape` read by each element of `out` when the tensor
/// is broadcast to `out` (aligned at the last axis, size-1 axes repeated).
fn broadcast_positions(shape: &[usize], out: &[usize]) -> Vec<usize> {
    let st = strides(shape);
    let off = out.len() - shape.len();
    let n: usize = out.iter().product();
    let mut pos = Vec::with_capacity(n);
    let mut idx = vec![0usize; out.len()];
    for _ in 0..n {
        let mut p = 0;
        for (k, &i) in idx.iter().enumerate().skip(off) {
            if shape[k - off] != 1 {
                p += i * st[k - off];
            }
        }
        pos.push(p);
        for k in (0..out.len()).rev() {
            idx[k] += 1;
            if idx[k] < out[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    pos
}

fn broadcast_shape(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let rank = a.len().max(b.len());
    let mut out = vec![0; rank];
    for (i, o) in out.iter_mut().enumerate() {
        let x = (i + a.len()).checked_sub(rank).map(|k| a[k]).unwrap_or(1);
        let y = (i + b.len()).checked_sub(rank).map(|k| b[k]).unwrap_or(1);
        *o = if x == y || y == 1 {
            x
        } else if x == 1 {
            y
        } else {
            return None;
        };
    }
    Some(out)
}

fn norm_axis(axis: i64, rank: usize) -> Option<usize> {
    let r = rank as i64;
    let a = if axis < 0 { axis + r } else { axis };
    (0..r).contains(&a).then_some(a as usize)
}

/// What the host evaluator does with a node: `None` leaves it to the device.
type Eval = Option<Result<Vec<HostTensor>>>;

fn one(t: HostTensor) -> Eval {
    Some(Ok(vec![t]))
}

/// Evaluates `node` on host inputs (`None` for omitted optional inputs), when the op and
/// dtypes are ones the host computes exactly; `None` otherwise (the device computes it).
pub fn eval(node: &Node, ins: &[Option<&HostTensor>]) -> Eval {
    let big = ins.iter().flatten().any(|t| t.numel() > MAX_HOST_ELEMENTS);
    // exotic values round after every op: the device path handles them (constants pass)
    let exotic = ins.iter().flatten().any(|t| t.exotic.is_some());
    if big || (exotic && !matches!(node.op, OpType::Identity)) {
        return None;
    }
    let x = ins.first().copied().flatten();
    use OpType as O;
    match node.op {
        O::Constant => Some(constant(node).map(|t| vec![t])),
        O::Identity => one(x?.clone()),
        O::ConstantOfShape => {
            let shape = x?.to_i64s();
            let value = match constant_of_shape_value(node) {
                Ok(v) => v,
                Err(e) => return Some(Err(e)),
            };
            let shape = match node.checked_shape(&shape, value.dtype) {
                Ok(s) => s,
                Err(e) => return Some(Err(e)),
            };
            let n: usize = shape.iter().product();
            if n > MAX_HOST_ELEMENTS {
                return None;
            }
            one(value.take(&vec![0; n], &shape))
        }
        O::Cast => {
            let to = node.int("to").ok()??;
            let to = crate::dtype::from_onnx(to as i32, &node.name).ok()?;
            one(x?.cast(to))
        }
        O::CastLike => one(x?.cast(ins.get(1).copied().flatten()?.dtype)),
        O::Shape => {
            let x = x?;
            one(shape_of(node, &x.shape).ok()?)
        }
        O::Size => one(HostTensor::from_i64s(DType::I64, &[], &[x?.numel() as i64])),
        O::Reshape => {
            let x = x?;
            let spec = ins.get(1).copied().flatten()?.to_i64s();
            let allowzero = node.int_or("allowzero", 0).ok()? != 0;
            let shape = reshape_target(&x.shape, &spec, allowzero)?;
            one(x.reshaped(&shape))
        }
        O::Flatten => {
            let x = x?;
            let axis = node.int_or("axis", 1).ok()?;
            let r = x.shape.len() as i64;
            let a = if axis < 0 { axis + r } else { axis };
            if !(0..=r).contains(&a) {
                return None;
            }
            let a = a as usize;
            let rows: usize = x.shape[..a].iter().product();
            one(x.reshaped(&[rows, x.numel() / rows.max(1)]))
        }
        O::Squeeze => {
            let x = x?;
            let axes = axes_of(node, ins.get(1).copied().flatten(), node.since >= 13)?;
            let r = x.shape.len();
            let shape: Vec<usize> = match axes {
                None => x.shape.iter().copied().filter(|&d| d != 1).collect(),
                Some(axes) => {
                    let axes: Vec<usize> = axes
                        .iter()
                        .map(|&a| norm_axis(a, r))
                        .collect::<Option<_>>()?;
                    if axes.iter().any(|&a| x.shape.get(a) != Some(&1)) {
                        return None;
                    }
                    (0..r)
                        .filter(|k| !axes.contains(k))
                        .map(|k| x.shape[k])
                        .collect()
                }
            };
            one(x.reshaped(&shape))
        }
        O::Unsqueeze => {
            let x = x?;
            let axes = axes_of(node, ins.get(1).copied().flatten(), node.since >= 13)??;
            let r = x.shape.len() + axes.len();
            let mut axes: Vec<usize> = axes
                .iter()
                .map(|&a| norm_axis(a, r))
                .collect::<Option<_>>()?;
            axes.sort_unstable();
            let mut shape = x.shape.clone();
            for a in axes {
                if a > shape.len() {
                    return None;
                }
                shape.insert(a, 1);
            }
            one(x.reshaped(&shape))
        }
        O::Concat => {
            let ts: Vec<&HostTensor> = ins.iter().copied().flatten().collect();
            let first = ts.first()?;
            let axis = norm_axis(node.int("axis").ok()??, first.shape.len())?;
            concat(&ts, axis).map(|t| Ok(vec![t]))
        }
        O::Gather => {
            let (x, idx) = (x?, ins.get(1).copied().flatten()?);
            let axis = norm_axis(node.int_or("axis", 0).ok()?, x.shape.len())?;
            gather(x, idx, axis).map(|t| Ok(vec![t]))
        }
        O::Slice if node.since >= 10 => {
            let x = x?;
            let get = |i: usize| ins.get(i).copied().flatten().map(HostTensor::to_i64s);
            slice(x, &get(1)?, &get(2)?, get(3), get(4)).map(|t| Ok(vec![t]))
        }
        O::Transpose => {
            let x = x?;
            let r = x.shape.len();
            let perm: Vec<usize> = match node.ints("perm").ok()? {
                Some(p) => p.iter().map(|&a| norm_axis(a, r)).collect::<Option<_>>()?,
                None => (0..r).rev().collect(),
            };
            transpose(x, &perm).map(|t| Ok(vec![t]))
        }
        O::Expand => {
            let x = x?;
            let target = ins.get(1).copied().flatten()?.to_i64s();
            let out = match expand_shape(node, &x.shape, &target, x.dtype) {
                Ok(out) => out?,
                Err(e) => return Some(Err(e)),
            };
            if out.iter().product::<usize>() > MAX_HOST_ELEMENTS {
                return None;
            }
            one(x.take(&broadcast_positions(&x.shape, &out), &out))
        }
        O::Range => {
            let (s, l, d) = (
                x?,
                ins.get(1).copied().flatten()?,
                ins.get(2).copied().flatten()?,
            );
            range(node, s, l, d)
        }
        O::Add
        | O::Sub
        | O::Mul
        | O::Div
        | O::Mod
        | O::Equal
        | O::Less
        | O::LessOrEqual
        | O::Greater
        | O::GreaterOrEqual
        | O::And
        | O::Or
        | O::Xor => {
            let (a, b) = (x?, ins.get(1).copied().flatten()?);
            binary(node, a, b).map(|t| Ok(vec![t]))
        }
        O::Max | O::Min | O::Sum => {
            let ts: Vec<&HostTensor> = ins.iter().copied().flatten().collect();
            let mut acc = (*ts.first()?).clone();
            for t in &ts[1..] {
                acc = binary(node, &acc, t)?;
            }
            one(acc)
        }
        O::Neg | O::Abs | O::Not | O::Sign => unary(node.op, x?).map(|t| Ok(vec![t])),
        O::Where => {
            let (c, a, b) = (
                x?,
                ins.get(1).copied().flatten()?,
                ins.get(2).copied().flatten()?,
            );
            if a.dtype != b.dtype {
                return None;
            }
            let out = broadcast_shape(&broadcast_shape(&c.shape, &a.shape)?, &b.shape)?;
            let (pc, pa, pb) = (
                broadcast_positions(&c.shape, &out),
                broadcast_positions(&a.shape, &out),
                broadcast_positions(&b.shape, &out),
            );
            let s = a.dtype.size();
            let mut data = Vec::with_capacity(pc.len() * s);
            for i in 0..pc.len() {
                let (src, p) = if c.get_i64(pc[i])? != 0 {
                    (a, pa[i])
                } else {
                    (b, pb[i])
                };
                data.extend_from_slice(&src.data[p * s..(p + 1) * s]);
            }
            one(HostTensor {
                dtype: a.dtype,
                shape: out,
                data,
                exotic: None,
            })
        }
        O::ReduceProd | O::ReduceSum | O::ReduceMax | O::ReduceMin => {
            let x = x?;
            if !x.dtype.is_int() || x.dtype == DType::U64 {
                return None;
            }
            let axes_input = node.since >= 18 || (node.op == O::ReduceSum && node.since >= 13);
            let axes = axes_of(node, ins.get(1).copied().flatten(), axes_input)?;
            reduce(node, x, axes).map(|t| Ok(vec![t]))
        }
        _ => None,
    }
}

/// The value of a `Constant` node.
pub fn constant(node: &Node) -> Result<HostTensor> {
    if let Some(t) = node.tensor("value")? {
        return Ok(t.clone());
    }
    if let Some(Some(f)) = node
        .attrs
        .get("value_float")
        .map(|_| node.float_or("value_float", 0.0).ok())
    {
        return Ok(HostTensor::from_f64s(DType::F32, &[], &[f as f64]));
    }
    if let Some(v) = node.floats("value_floats")? {
        let v: Vec<f64> = v.iter().map(|&f| f as f64).collect();
        return Ok(HostTensor::from_f64s(DType::F32, &[v.len()], &v));
    }
    if let Some(i) = node.int("value_int")? {
        return Ok(HostTensor::from_i64s(DType::I64, &[], &[i]));
    }
    if let Some(v) = node.ints("value_ints")? {
        return Ok(HostTensor::from_i64s(DType::I64, &[v.len()], &v));
    }
    let which = node
        .attrs
        .0
        .first()
        .map(|(n, _)| n.clone())
        .unwrap_or_else(|| "value".to_string());
    Err(Error::Attribute {
        node: node.name.clone(),
        op_type: node.op.name().to_string(),
        attribute: which,
        message: "a Constant needs value, value_float(s) or value_int(s) (strings and sparse tensors are not supported)".to_string(),
    })
}

/// `Shape`'s output for a tensor of `shape`, with opset 15's `start` and `end`.
pub fn shape_of(node: &Node, shape: &[usize]) -> Result<HostTensor> {
    let r = shape.len() as i64;
    let clampi = |v: i64| (if v < 0 { v + r } else { v }).clamp(0, r) as usize;
    let start = clampi(node.int_or("start", 0)?);
    let end = clampi(node.int_or("end", r)?);
    let dims: Vec<i64> = shape[start..end.max(start)]
        .iter()
        .map(|&d| d as i64)
        .collect();
    Ok(HostTensor::from_i64s(DType::I64, &[dims.len()], &dims))
}

/// The target of `Reshape`: 0 copies the input's size (unless `allowzero`), -1 is inferred.
pub fn reshape_target(shape: &[usize], spec: &[i64], allowzero: bool) -> Option<Vec<usize>> {
    let n: usize = shape.iter().product();
    let mut out = Vec::with_capacity(spec.len());
    let mut infer = None;
    for (i, &d) in spec.iter().enumerate() {
        match d {
            -1 if infer.is_none() => {
                infer = Some(i);
                out.push(1);
            }
            0 if !allowzero => out.push(*shape.get(i)?),
            d if d >= 0 => out.push(d as usize),
            _ => return None,
        }
    }
    // a model's sizes may be huge: their product must not overflow
    let product = |v: &[usize]| v.iter().try_fold(1usize, |a, &d| a.checked_mul(d));
    if let Some(i) = infer {
        let rest = product(&out)?;
        if rest == 0 || !n.is_multiple_of(rest) {
            return None;
        }
        out[i] = n / rest;
    }
    (product(&out)? == n).then_some(out)
}

/// `ConstantOfShape`'s `value` attribute as a scalar (f32 0 when absent); a value of
/// another element count is [`Error::Attribute`].
pub fn constant_of_shape_value(node: &Node) -> Result<HostTensor> {
    let value = node
        .tensor("value")?
        .cloned()
        .unwrap_or_else(|| HostTensor::from_f64s(DType::F32, &[1], &[0.0]));
    if value.numel() != 1 {
        return Err(node.bad_attr(
            "value",
            format!("holds {} elements; one is taken", value.numel()),
        ));
    }
    Ok(value.reshaped(&[]))
}

/// `Expand`'s output shape: `target` (a model's numbers: a negative size is
/// [`Error::DimOverflow`]) broadcast with `shape`, its element count checked; `Ok(None)` when
/// the two do not broadcast (the device op names the shapes).
pub fn expand_shape(
    node: &Node,
    shape: &[usize],
    target: &[i64],
    dtype: DType,
) -> Result<Option<Vec<usize>>> {
    let target = node.checked_shape(target, dtype)?;
    let Some(out) = broadcast_shape(shape, &target) else {
        return Ok(None);
    };
    let dims: Vec<i64> = out.iter().map(|&d| d as i64).collect();
    node.checked_shape(&dims, dtype).map(Some)
}

/// Axes from the `axes` input (opsets where it is an input) or attribute.
fn axes_of(node: &Node, input: Option<&HostTensor>, from_input: bool) -> Option<Option<Vec<i64>>> {
    if from_input {
        Some(input.map(HostTensor::to_i64s))
    } else {
        node.ints("axes").ok()
    }
}

fn concat(ts: &[&HostTensor], axis: usize) -> Option<HostTensor> {
    let first = ts[0];
    let dtype = first.dtype;
    let mut shape = first.shape.clone();
    shape[axis] = 0;
    for t in ts {
        if t.dtype != dtype || t.shape.len() != shape.len() {
            return None;
        }
        for (k, (&a, &b)) in t.shape.iter().zip(&first.shape).enumerate() {
            if k != axis && a != b {
                return None;
            }
        }
        shape[axis] += t.shape[axis];
    }
    let outer: usize = shape[..axis].iter().product();
    let s = dtype.size();
    let mut data = Vec::new();
    for o in 0..outer {
        for t in ts {
            let chunk: usize = t.shape[axis..].iter().product::<usize>() * s;
            data.extend_from_slice(&t.data[o * chunk..(o + 1) * chunk]);
        }
    }
    Some(HostTensor {
        dtype,
        shape,
        data,
        exotic: None,
    })
}

fn gather(x: &HostTensor, idx: &HostTensor, axis: usize) -> Option<HostTensor> {
    if x.shape.is_empty() || !idx.dtype.is_int() {
        return None;
    }
    let n = x.shape[axis] as i64;
    let outer: usize = x.shape[..axis].iter().product();
    let inner: usize = x.shape[axis + 1..].iter().product();
    let ids: Vec<usize> = idx
        .to_i64s()
        .iter()
        .map(|&i| {
            let i = if i < 0 { i + n } else { i };
            (0..n).contains(&i).then_some(i as usize)
        })
        .collect::<Option<_>>()?;
    let mut shape = x.shape[..axis].to_vec();
    shape.extend_from_slice(&idx.shape);
    shape.extend_from_slice(&x.shape[axis + 1..]);
    let mut pos = Vec::with_capacity(outer * ids.len() * inner);
    for o in 0..outer {
        for &i in &ids {
            for k in 0..inner {
                pos.push((o * x.shape[axis] + i) * inner + k);
            }
        }
    }
    Some(x.take(&pos, &shape))
}

/// Slice's start, end and step of one axis of size `n`, clamped as ONNX clamps them.
pub fn slice_range(n: i64, start: i64, end: i64, step: i64) -> (i64, i64) {
    let fix = |v: i64| if v < 0 { v + n } else { v };
    let (s, e) = (fix(start), fix(end));
    if step > 0 {
        (s.clamp(0, n), e.clamp(0, n))
    } else {
        (s.clamp(0, n - 1), e.clamp(-1, n - 1))
    }
}

fn slice(
    x: &HostTensor,
    starts: &[i64],
    ends: &[i64],
    axes: Option<Vec<i64>>,
    steps: Option<Vec<i64>>,
) -> Option<HostTensor> {
    let r = x.shape.len();
    let axes = axes.unwrap_or_else(|| (0..starts.len() as i64).collect());
    let steps = steps.unwrap_or_else(|| vec![1; starts.len()]);
    if starts.len() != ends.len() || axes.len() != starts.len() || steps.len() != starts.len() {
        return None;
    }
    let mut lo = vec![0i64; r];
    let mut step = vec![1i64; r];
    let mut count: Vec<usize> = x.shape.clone();
    for i in 0..axes.len() {
        let a = norm_axis(axes[i], r)?;
        if steps[i] == 0 {
            return None;
        }
        let n = x.shape[a] as i64;
        let (s, e) = slice_range(n, starts[i], ends[i], steps[i]);
        let c = if steps[i] > 0 {
            (e - s + steps[i] - 1).div_euclid(steps[i]).max(0)
        } else {
            (s - e + (-steps[i]) - 1).div_euclid(-steps[i]).max(0)
        };
        lo[a] = s;
        step[a] = steps[i];
        count[a] = c as usize;
    }
    let st = strides(&x.shape);
    let n: usize = count.iter().product();
    let mut pos = Vec::with_capacity(n);
    let mut idx = vec![0usize; r];
    for _ in 0..n {
        let p: i64 = (0..r)
            .map(|k| (lo[k] + idx[k] as i64 * step[k]) * st[k] as i64)
            .sum();
        pos.push(p as usize);
        for k in (0..r).rev() {
            idx[k] += 1;
            if idx[k] < count[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    Some(x.take(&pos, &count))
}

fn transpose(x: &HostTensor, perm: &[usize]) -> Option<HostTensor> {
    let r = x.shape.len();
    if perm.len() != r {
        return None;
    }
    let st = strides(&x.shape);
    let out: Vec<usize> = perm.iter().map(|&p| x.shape[p]).collect();
    let n = x.numel();
    let mut pos = Vec::with_capacity(n);
    let mut idx = vec![0usize; r];
    for _ in 0..n {
        pos.push((0..r).map(|k| idx[k] * st[perm[k]]).sum());
        for k in (0..r).rev() {
            idx[k] += 1;
            if idx[k] < out[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    Some(x.take(&pos, &out))
}

/// `Range`'s operands, read and checked once for the host and the device: each input one
/// element ([`Error::ElementCount`]), the step nonzero and the bounds finite
/// ([`Error::InputValue`]), the length within tg's element limit ([`Error::DimOverflow`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RangeSpec {
    /// A float range.
    Float {
        /// The first value.
        start: f64,
        /// The bound, excluded.
        limit: f64,
        /// The step.
        delta: f64,
        /// The element count, `max(ceil((limit - start) / delta), 0)`.
        len: usize,
    },
    /// An integer range.
    Int {
        /// The first value.
        start: i64,
        /// The bound, excluded.
        limit: i64,
        /// The step.
        delta: i64,
        /// The element count.
        len: usize,
    },
}

/// Reads `Range`'s start `s`, limit `l` and step `d` (see [`RangeSpec`]).
pub fn range_spec(
    node: &Node,
    s: &HostTensor,
    l: &HostTensor,
    d: &HostTensor,
) -> Result<RangeSpec> {
    let dtype = s.dtype;
    // a length as a dim: past i64 saturates, so that the check refuses it
    let checked_len = |n: f64| -> Result<usize> {
        let n = if n < i64::MAX as f64 {
            n as i64
        } else {
            i64::MAX
        };
        Ok(node.checked_shape(&[n], dtype)?[0])
    };
    if dtype.is_float() {
        let (start, limit, delta) = (
            node.scalar_f64(0, s)?,
            node.scalar_f64(1, l)?,
            node.scalar_f64(2, d)?,
        );
        for (j, v) in [(0, start), (1, limit), (2, delta)] {
            if !v.is_finite() {
                return Err(node.input_value(j, v, "Range takes finite numbers"));
            }
        }
        if delta == 0.0 {
            return Err(node.input_value(2, delta, "Range's step cannot be 0"));
        }
        let len = checked_len(((limit - start) / delta).ceil().max(0.0))?;
        Ok(RangeSpec::Float {
            start,
            limit,
            delta,
            len,
        })
    } else {
        let (start, limit, delta) = (
            node.scalar_i64(0, s)?,
            node.scalar_i64(1, l)?,
            node.scalar_i64(2, d)?,
        );
        if delta == 0 {
            return Err(node.input_value(2, 0.0, "Range's step cannot be 0"));
        }
        // ceil((limit - start) / delta), exactly: over |delta| after moving its sign into
        // the numerator
        let (num, q) = (
            (limit as i128 - start as i128) * delta.signum() as i128,
            (delta as i128).abs(),
        );
        let n = (num + q - 1).div_euclid(q).max(0);
        let len = checked_len(n as f64)?;
        Ok(RangeSpec::Int {
            start,
            limit,
            delta,
            len,
        })
    }
}

fn range(node: &Node, s: &HostTensor, l: &HostTensor, d: &HostTensor) -> Eval {
    let dtype = s.dtype;
    let spec = match range_spec(node, s, l, d) {
        Ok(spec) => spec,
        Err(e) => return Some(Err(e)),
    };
    match spec {
        RangeSpec::Float {
            start, delta, len, ..
        } => {
            if len > MAX_HOST_ELEMENTS {
                return None;
            }
            let v: Vec<f64> = (0..len).map(|i| start + i as f64 * delta).collect();
            one(HostTensor::from_f64s(dtype, &[len], &v))
        }
        RangeSpec::Int {
            start, delta, len, ..
        } => {
            if len > MAX_HOST_ELEMENTS {
                return None;
            }
            let v: Vec<i64> = (0..len as i64)
                .map(|i| start.wrapping_add(i.wrapping_mul(delta)))
                .collect();
            one(HostTensor::from_i64s(dtype, &[len], &v))
        }
    }
}

fn binary(node: &Node, a: &HostTensor, b: &HostTensor) -> Option<HostTensor> {
    use OpType as O;
    if a.dtype != b.dtype || a.dtype == DType::U64 {
        return None;
    }
    let dtype = a.dtype;
    let out = broadcast_shape(&a.shape, &b.shape)?;
    let (pa, pb) = (
        broadcast_positions(&a.shape, &out),
        broadcast_positions(&b.shape, &out),
    );
    let cmp = matches!(
        node.op,
        O::Equal | O::Less | O::LessOrEqual | O::Greater | O::GreaterOrEqual
    );
    let logic = matches!(node.op, O::And | O::Or | O::Xor);
    if logic && dtype != DType::Bool {
        return None;
    }
    let out_dtype = if cmp { DType::Bool } else { dtype };
    if dtype.is_float() {
        if matches!(node.op, O::Mod) {
            return None;
        }
        let v: Vec<f64> = pa
            .iter()
            .zip(&pb)
            .map(|(&i, &j)| {
                let (x, y) = (a.get_f64(i)?, b.get_f64(j)?);
                Some(match node.op {
                    O::Add | O::Sum => x + y,
                    O::Sub => x - y,
                    O::Mul => x * y,
                    O::Div => x / y,
                    O::Max => {
                        if x.is_nan() || y.is_nan() {
                            f64::NAN
                        } else {
                            x.max(y)
                        }
                    }
                    O::Min => {
                        if x.is_nan() || y.is_nan() {
                            f64::NAN
                        } else {
                            x.min(y)
                        }
                    }
                    O::Equal => (x == y) as i64 as f64,
                    O::Less => (x < y) as i64 as f64,
                    O::LessOrEqual => (x <= y) as i64 as f64,
                    O::Greater => (x > y) as i64 as f64,
                    O::GreaterOrEqual => (x >= y) as i64 as f64,
                    _ => f64::NAN,
                })
            })
            .collect::<Option<_>>()?;
        return Some(HostTensor::from_f64s(out_dtype, &out, &v));
    }
    let fmod = node.int_or("fmod", 0).ok()? != 0;
    let mut v = Vec::with_capacity(pa.len());
    for (&i, &j) in pa.iter().zip(&pb) {
        let (x, y) = (a.get_i64(i)?, b.get_i64(j)?);
        v.push(match node.op {
            O::Add | O::Sum => x.wrapping_add(y),
            O::Sub => x.wrapping_sub(y),
            O::Mul => x.wrapping_mul(y),
            O::Div => {
                if y == 0 {
                    return None;
                }
                x.wrapping_div(y)
            }
            O::Mod => {
                if y == 0 {
                    return None;
                }
                let r = x.wrapping_rem(y);
                if !fmod && r != 0 && ((r < 0) != (y < 0)) {
                    r + y
                } else {
                    r
                }
            }
            O::Max => x.max(y),
            O::Min => x.min(y),
            O::Equal => (x == y) as i64,
            O::Less => (x < y) as i64,
            O::LessOrEqual => (x <= y) as i64,
            O::Greater => (x > y) as i64,
            O::GreaterOrEqual => (x >= y) as i64,
            O::And => (x != 0 && y != 0) as i64,
            O::Or => (x != 0 || y != 0) as i64,
            O::Xor => ((x != 0) != (y != 0)) as i64,
            _ => return None,
        });
    }
    Some(HostTensor::from_i64s(out_dtype, &out, &v))
}

fn unary(op: OpType, x: &HostTensor) -> Option<HostTensor> {
    use OpType as O;
    if x.dtype.is_float() {
        let v: Vec<f64> = x
            .to_f64s()
            .iter()
            .map(|&f| match op {
                O::Neg => -f,
                O::Abs => f.abs(),
                O::Sign => {
                    if f.is_nan() {
                        f
                    } else if f > 0.0 {
                        1.0
                    } else if f < 0.0 {
                        -1.0
                    } else {
                        0.0
                    }
                }
                _ => f64::NAN,
            })
            .collect();
        if op == O::Not {
            return None;
        }
        return Some(HostTensor::from_f64s(x.dtype, &x.shape, &v));
    }
    if x.dtype == DType::U64 || (op == O::Not) != (x.dtype == DType::Bool) {
        return None;
    }
    let v: Vec<i64> = x
        .to_i64s()
        .iter()
        .map(|&i| match op {
            O::Neg => i.wrapping_neg(),
            O::Abs => i.wrapping_abs(),
            O::Sign => i.signum(),
            O::Not => (i == 0) as i64,
            _ => 0,
        })
        .collect();
    Some(HostTensor::from_i64s(x.dtype, &x.shape, &v))
}

fn reduce(node: &Node, x: &HostTensor, axes: Option<Vec<i64>>) -> Option<HostTensor> {
    use OpType as O;
    let r = x.shape.len();
    let keep = node.int_or("keepdims", 1).ok()? != 0;
    let noop = node.int_or("noop_with_empty_axes", 0).ok()? != 0;
    let axes: Vec<usize> = match axes {
        Some(a) if !a.is_empty() => a.iter().map(|&a| norm_axis(a, r)).collect::<Option<_>>()?,
        _ if noop => return Some(x.clone()),
        _ => (0..r).collect(),
    };
    let out_keep: Vec<usize> = (0..r)
        .map(|k| if axes.contains(&k) { 1 } else { x.shape[k] })
        .collect();
    let n_out: usize = out_keep.iter().product();
    let init = match node.op {
        O::ReduceProd => 1i64,
        O::ReduceSum => 0,
        O::ReduceMax => i64::MIN,
        _ => i64::MAX,
    };
    let mut acc = vec![init; n_out];
    let ost = strides(&out_keep);
    let st = strides(&x.shape);
    for i in 0..x.numel() {
        let mut o = 0;
        for k in 0..r {
            let idx = (i / st[k]) % x.shape[k];
            if !axes.contains(&k) {
                o += idx * ost[k];
            }
        }
        let v = x.get_i64(i)?;
        acc[o] = match node.op {
            O::ReduceProd => acc[o].wrapping_mul(v),
            O::ReduceSum => acc[o].wrapping_add(v),
            O::ReduceMax => acc[o].max(v),
            _ => acc[o].min(v),
        };
    }
    if x.numel() == 0 && matches!(node.op, O::ReduceMax | O::ReduceMin) {
        return None;
    }
    let shape: Vec<usize> = if keep {
        out_keep
    } else {
        (0..r)
            .filter(|k| !axes.contains(k))
            .map(|k| x.shape[k])
            .collect()
    };
    Some(HostTensor::from_i64s(x.dtype, &shape, &acc))
}
