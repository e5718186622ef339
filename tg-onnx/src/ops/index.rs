//! Indexing: Gather (numpy's take), GatherElements (torch's gather), GatherND, the scatters,
//! OneHot, Compress, NonZero, TopK, ArgMax/ArgMin, Hardmax, ReverseSequence. ONNX indices
//! may be negative (counted from the end): they are wrapped once on the device.

use tg_onnx_format::{DType, HostTensor, OpType, Result};
use tg_ops::DynTensor;
use tg_ops::untyped::gather::ScatterReduce;
use tg_ops::untyped::indexing::Index;

use super::axis;
use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

/// `idx + n` where `idx < 0`, as i64.
fn wrap(idx: &DynTensor, n: usize) -> R<DynTensor> {
    let i = idx.cast(DType::I64);
    i.lt(0)?.where_(i.add(n as i64)?, &i)
}

/// `shape` with 1 everywhere but `axis`, which has `n`.
fn along(rank: usize, axis: usize, n: usize) -> Vec<isize> {
    (0..rank)
        .map(|k| if k == axis { n as isize } else { 1 })
        .collect()
}

fn arange(n: usize) -> R<DynTensor> {
    DynTensor::arange(0i64, n as i64, 1i64, Some(DType::I64))
}

pub(crate) fn gather(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, idx) = (c.t(0)?, c.t(1)?);
    let a = axis(c, c.node.int_or("axis", 0)?, x.ndim())?;
    let mut index: Vec<Index> = (0..x.ndim()).map(|_| Index::full()).collect();
    let scalar = idx.ndim() == 0;
    let i = if scalar {
        idx.reshape(&[1]).at(c)?
    } else {
        idx.clone()
    };
    index[a] = Index::Tensor(wrap(&i, x.shape()[a]).at(c)?);
    let mut y = x.index(&index).at(c)?;
    if scalar {
        y = y.squeeze(Some(a as isize)).at(c)?;
    }
    Ok(vec![c.out(y)])
}

pub(crate) fn gather_elements(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, idx) = (c.t(0)?, c.t(1)?);
    let a = axis(c, c.node.int_or("axis", 0)?, x.ndim())?;
    let i = wrap(&idx, x.shape()[a]).at(c)?;
    Ok(vec![c.out(x.gather(a as isize, &i).at(c)?)])
}

/// The linear position in the `dims` block of each index tuple (last axis of `idx`).
fn linearize(idx: &DynTensor, dims: &[usize]) -> R<DynTensor> {
    let m = dims.len();
    let mut lin: Option<DynTensor> = None;
    let mut stride = 1usize;
    for k in (0..m).rev() {
        let col = idx.index(&[Index::Ellipsis, Index::Int(k as isize)])?;
        let col = wrap(&col, dims[k])?.mul(stride as i64)?;
        lin = Some(match lin {
            None => col,
            Some(l) => l.add(&col)?,
        });
        stride *= dims[k];
    }
    match lin {
        Some(l) => Ok(l),
        None => DynTensor::zeros(&idx.shape()[..idx.ndim() - 1], DType::I64),
    }
}

pub(crate) fn gather_nd(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, idx) = (c.t(0)?, c.t(1)?);
    let b = c.node.int_or("batch_dims", 0)?.max(0) as usize;
    let xs = x.shape().to_vec();
    let is = idx.shape().to_vec();
    let m = *is
        .last()
        .ok_or_else(|| c.bad("indices must have rank 1 or more"))?;
    if b + m > xs.len() || b >= is.len() {
        return Err(c.bad("batch_dims and the index tuple length exceed the data's rank"));
    }
    let bprod: usize = xs[..b].iter().product();
    let dprod: usize = xs[b..b + m].iter().product();
    let rest: Vec<usize> = xs[b + m..].to_vec();
    let q: usize = is[b..is.len() - 1].iter().product();
    let y = (|| -> R<DynTensor> {
        let mut flat = vec![bprod as isize, dprod as isize];
        flat.extend(rest.iter().map(|&d| d as isize));
        let data = x.reshape(&flat)?;
        let lin = linearize(&idx, &xs[b..b + m])?.reshape(&[bprod as isize, q as isize])?;
        let batch = arange(bprod)?.reshape(&[bprod as isize, 1])?;
        let got = data.index(&[Index::Tensor(batch), Index::Tensor(lin)])?;
        let mut out: Vec<isize> = is[..is.len() - 1].iter().map(|&d| d as isize).collect();
        out.extend(rest.iter().map(|&d| d as isize));
        got.reshape(&out)
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}

pub(crate) fn scatter_elements(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, idx, upd) = (c.t(0)?, c.t(1)?, c.t(2)?);
    let a = axis(c, c.node.int_or("axis", 0)?, x.ndim())?;
    let i = wrap(&idx, x.shape()[a]).at(c)?;
    let red = c.node.string_or("reduction", "none")?;
    let y = match red.as_str() {
        "none" => x.scatter(a as isize, &i, &upd, None),
        "add" => x.scatter_reduce(a as isize, &i, &upd, ScatterReduce::Sum, true),
        "mul" => x.scatter_reduce(a as isize, &i, &upd, ScatterReduce::Prod, true),
        "max" => x.scatter_reduce(a as isize, &i, &upd, ScatterReduce::Amax, true),
        "min" => x.scatter_reduce(a as isize, &i, &upd, ScatterReduce::Amin, true),
        other => {
            return Err(c
                .node
                .bad_attr("reduction", format!("{other:?} is not a reduction")));
        }
    };
    Ok(vec![c.out(y.at(c)?)])
}

pub(crate) fn scatter_nd(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, idx, upd) = (c.t(0)?, c.t(1)?, c.t(2)?);
    let xs = x.shape().to_vec();
    let is = idx.shape().to_vec();
    let m = *is
        .last()
        .ok_or_else(|| c.bad("indices must have rank 1 or more"))?;
    if m > xs.len() {
        return Err(c.bad("index tuples are longer than the data's rank"));
    }
    let dprod: usize = xs[..m].iter().product();
    let rest: Vec<usize> = xs[m..].to_vec();
    let inner: usize = rest.iter().product();
    let n: usize = is[..is.len() - 1].iter().product();
    let red = c.node.string_or("reduction", "none")?;
    let y = (|| -> R<DynTensor> {
        let data = x.reshape(&[dprod as isize, inner as isize])?;
        let u = upd.reshape(&[n as isize, inner as isize])?;
        let lin = linearize(&idx, &xs[..m])?
            .reshape(&[n as isize, 1])?
            .expand(&[n as isize, inner as isize])?;
        let out = match red.as_str() {
            "add" => data.scatter_reduce(0, &lin, &u, ScatterReduce::Sum, true)?,
            "mul" => data.scatter_reduce(0, &lin, &u, ScatterReduce::Prod, true)?,
            "max" => data.scatter_reduce(0, &lin, &u, ScatterReduce::Amax, true)?,
            "min" => data.scatter_reduce(0, &lin, &u, ScatterReduce::Amin, true)?,
            _ => data.scatter(0, &lin, &u, None)?,
        };
        out.reshape(&xs.iter().map(|&d| d as isize).collect::<Vec<_>>())
    })()
    .at(c)?;
    if !matches!(red.as_str(), "none" | "add" | "mul" | "max" | "min") {
        return Err(c
            .node
            .bad_attr("reduction", format!("{red:?} is not a reduction")));
    }
    Ok(vec![c.out(y)])
}

pub(crate) fn one_hot(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let idx = c.t(0)?;
    let depth = c.scalar_f64(1)?;
    if depth.is_nan() || depth < 1.0 {
        return Err(c
            .node
            .input_value(1, depth, "OneHot's depth must be at least 1"));
    }
    // the output's size, checked before anything is built from the depth
    let mut out: Vec<i64> = idx.shape().iter().map(|&d| d as i64).collect();
    out.push(if depth < i64::MAX as f64 {
        depth as i64
    } else {
        i64::MAX
    });
    let depth = c.node.checked_shape(&out, DType::I64)?[idx.ndim()];
    let values = c.t(2)?;
    // [off_value, on_value]
    c.node.expect_count(2, 2, values.numel())?;
    let r = idx.ndim() + 1;
    let a = axis(c, c.node.int_or("axis", -1)?, r)?;
    let y = (|| -> R<DynTensor> {
        let i = wrap(&idx, depth)?.unsqueeze(a as isize)?;
        let classes = arange(depth)?.reshape(&along(r, a, depth))?;
        let hot = i.eq(&classes)?;
        let off = values.index(&[Index::Int(0)])?;
        let on = values.index(&[Index::Int(1)])?;
        hot.where_(&on, &off)
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}

pub(crate) fn compress(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let mut x = c.t(0)?;
    let cond = c.host(1)?.to_i64s();
    let a = match c.node.int("axis")? {
        Some(a) => axis(c, a, x.ndim())?,
        None => {
            x = x.reshape(&[-1]).at(c)?;
            0
        }
    };
    let n = x.shape()[a];
    if cond.len() > n {
        return Err(c.bad(format!(
            "condition of length {} is longer than the axis ({n})",
            cond.len()
        )));
    }
    let picks: Vec<isize> = cond
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != 0)
        .map(|(i, _)| i as isize)
        .collect();
    let mut index: Vec<Index> = (0..x.ndim()).map(|_| Index::full()).collect();
    let y = if picks.is_empty() {
        let mut s: Vec<usize> = x.shape().to_vec();
        s[a] = 0;
        DynTensor::zeros(&s, x.dtype()).at(c)?
    } else {
        index[a] = Index::list(&picks).at(c)?;
        x.index(&index).at(c)?
    };
    Ok(vec![c.out(y)])
}

pub(crate) fn nonzero(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.host(0)?;
    let shape = x.shape.clone();
    let st = tg_onnx_format::fold::strides(&shape);
    let hits: Vec<usize> = x
        .to_f64s()
        .iter()
        .enumerate()
        .filter(|&(_, &v)| v != 0.0)
        .map(|(i, _)| i)
        .collect();
    let r = shape.len();
    let mut v = vec![0i64; r * hits.len()];
    for (j, &i) in hits.iter().enumerate() {
        for k in 0..r {
            v[k * hits.len() + j] = ((i / st[k]) % shape[k]) as i64;
        }
    }
    Ok(vec![Value::Host(HostTensor::from_i64s(
        DType::I64,
        &[r, hits.len()],
        &v,
    ))])
}

pub(crate) fn topk(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let k = if c.node.since >= 10 {
        c.scalar_i64(1)?
    } else {
        c.node
            .int("k")?
            .ok_or_else(|| c.node.bad_attr("k", "missing"))?
    };
    let a = axis(c, c.node.int_or("axis", -1)?, x.ndim())?;
    if k < 0 || k as usize > x.shape()[a] {
        let message = format!("k must lie in 0..={}", x.shape()[a]);
        return Err(if c.node.since >= 10 {
            c.node.input_value(1, k as f64, message)
        } else {
            c.node.bad_attr("k", format!("{k}: {message}"))
        });
    }
    let largest = c.node.int_or("largest", 1)? != 0;
    let (v, i) = x.topk(k as usize, a as isize, largest).at(c)?;
    Ok(vec![c.out(v), c.out(i.cast(DType::I64))])
}

pub(crate) fn arg(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let a = axis(c, c.node.int_or("axis", 0)?, x.ndim())?;
    let keep = c.node.int_or("keepdims", 1)? != 0;
    let last = c.node.int_or("select_last_index", 0)? != 0;
    let max = c.node.op == OpType::ArgMax;
    let n = x.shape()[a] as i64;
    let y = (|| -> R<DynTensor> {
        let src = if last {
            x.flip(&[a as isize])?
        } else {
            x.clone()
        };
        let i = if max {
            src.argmax(Some(a as isize), keep)?
        } else {
            src.argmin(Some(a as isize), keep)?
        }
        .cast(DType::I64);
        if last { i.neg()?.add(n - 1) } else { Ok(i) }
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}

pub(crate) fn hardmax(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let shape: Vec<isize> = x.shape().iter().map(|&d| d as isize).collect();
    let (src, a) = if c.node.since < 13 {
        let a = c.node.int_or("axis", 1)?;
        let a = if a < 0 { a + x.ndim() as i64 } else { a }.clamp(0, x.ndim() as i64) as usize;
        let rows: usize = x.shape()[..a].iter().product();
        (x.reshape(&[rows as isize, -1]).at(c)?, 1)
    } else {
        let a = axis(c, c.node.int_or("axis", -1)?, x.ndim())?;
        (x.clone(), a)
    };
    let n = src.shape()[a];
    let y = (|| -> R<DynTensor> {
        let i = src.argmax(Some(a as isize), true)?.cast(DType::I64);
        let hot = i.eq(&arange(n)?.reshape(&along(src.ndim(), a, n))?)?;
        hot.cast(x.dtype()).reshape(&shape)
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}

pub(crate) fn reverse_sequence(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, lens) = (c.t(0)?, c.t(1)?);
    let r = x.ndim();
    let ba = axis(c, c.node.int_or("batch_axis", 1)?, r)?;
    let ta = axis(c, c.node.int_or("time_axis", 0)?, r)?;
    let (bn, tn) = (x.shape()[ba], x.shape()[ta]);
    let full: Vec<isize> = x.shape().iter().map(|&d| d as isize).collect();
    let y = (|| -> R<DynTensor> {
        let t = arange(tn)?.reshape(&along(r, ta, tn))?;
        let l = lens.cast(DType::I64).reshape(&along(r, ba, bn))?;
        let rev = l.sub(1)?.sub(&t)?;
        let idx = t.lt(&l)?.where_(&rev, &t)?.expand(&full)?;
        x.gather(ta as isize, &idx)
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}
