//! Pools: AveragePool, MaxPool (with its Indices output and `storage_order`), LpPool, the
//! global pools, MaxUnpool.

use tg_onnx_format::{DType, OpType, Result};
use tg_ops::{DynTensor, Padding, Pool, Sizes};

use super::conv::window;
use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

fn kernel(c: &NodeCtx, dims: usize) -> Result<Vec<usize>> {
    let k = c
        .node
        .ints("kernel_shape")?
        .ok_or_else(|| c.node.bad_attr("kernel_shape", "missing"))?;
    if k.len() != dims || k.iter().any(|&v| v <= 0) {
        return Err(c.node.bad_attr(
            "kernel_shape",
            format!("{k:?} does not fit {dims} spatial axes"),
        ));
    }
    Ok(k.iter().map(|&v| v as usize).collect())
}

fn last_axes(x: &DynTensor, dims: usize) -> Vec<isize> {
    (x.ndim() - dims..x.ndim()).map(|a| a as isize).collect()
}

pub(crate) fn pool(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    if x.ndim() < 3 {
        return Err(c.bad("pools take (N, C, spatial...) inputs"));
    }
    let dims = x.ndim() - 2;
    let k = kernel(c, dims)?;
    let win = window(c, &x.shape()[2..], &k)?;
    let ceil = c.node.int_or("ceil_mode", 0)? != 0;
    let spec = Pool::new(Sizes(k.clone()))
        .stride(Sizes(win.strides.clone()))
        .dilation(Sizes(win.dilations.clone()))
        .padding(Padding::Pairs(win.pads.clone()))
        .ceil_mode(ceil);
    match c.node.op {
        OpType::AveragePool => {
            let spec = spec.count_include_pad(c.node.int_or("count_include_pad", 0)? != 0);
            let y = x.avg_pool2d(&spec).at(c)?.cast(x.dtype());
            Ok(vec![c.out(y)])
        }
        OpType::MaxPool if c.node.outputs.len() > 1 && !c.node.outputs[1].is_empty() => {
            let (m, i) = x.max_pool2d_with_indices(&spec).at(c)?;
            let s = x.shape().to_vec();
            let plane: usize = s[2..].iter().product();
            let column_major = c.node.int_or("storage_order", 0)? != 0;
            let idx = (|| -> R<DynTensor> {
                let mut i = i.cast(DType::I64);
                if column_major && dims == 2 {
                    let (h, w) = (s[2] as i64, s[3] as i64);
                    let row = i.idiv(w)?;
                    let col = i.sub(&row.mul(w)?)?;
                    i = col.mul(h)?.add(&row)?;
                }
                // ONNX's indices count over the whole tensor: add each plane's offset
                let planes = DynTensor::arange(0i64, (s[0] * s[1]) as i64, 1i64, Some(DType::I64))?
                    .mul(plane as i64)?
                    .reshape(&[s[0] as isize, s[1] as isize])?;
                let mut shape = vec![s[0] as isize, s[1] as isize];
                shape.extend(std::iter::repeat_n(1, dims));
                i.add(&planes.reshape(&shape)?)
            })()
            .at(c)?;
            Ok(vec![c.out(m), c.out(idx)])
        }
        OpType::MaxPool => Ok(vec![c.out(x.max_pool2d(&spec).at(c)?)]),
        _ => {
            // LpPool: (sum |x|^p)^(1/p) over zero-padded windows
            let p = c.node.int_or("p", 2)? as f64;
            let mut pads = win.pads.clone();
            if ceil {
                for (i, pad) in pads.iter_mut().enumerate() {
                    let n = x.shape()[2 + i] as isize + pad.0 + pad.1;
                    let span = (win.dilations[i] * k[i].saturating_sub(1) + 1) as isize;
                    let s = win.strides[i] as isize;
                    let out = (n - span + s - 1).div_euclid(s) + 1;
                    let need = (out - 1) * s + span - n;
                    if need > 0 {
                        pad.1 += need;
                    }
                }
            }
            let y = (|| -> R<DynTensor> {
                let mut all = vec![(0isize, 0isize); 2];
                all.extend(pads.iter().copied());
                let w = x.pad(&all, 0)?.pool(
                    &k,
                    Sizes(win.strides.clone()),
                    Sizes(win.dilations.clone()),
                )?;
                let axes = last_axes(&w, dims);
                w.abs()?.pow(p)?.sum(Some(&axes), false)?.pow(1.0 / p)
            })()
            .at(c)?;
            Ok(vec![c.out(y.cast(x.dtype()))])
        }
    }
}

pub(crate) fn global_pool(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    if x.ndim() < 2 {
        return Err(c.bad("global pools take (N, C, spatial...) inputs"));
    }
    let axes: Vec<isize> = (2..x.ndim() as isize).collect();
    let y = (|| match c.node.op {
        OpType::GlobalAveragePool => x.mean(Some(&axes), true),
        OpType::GlobalMaxPool => x.max(Some(&axes), true),
        _ => {
            let p = c.node.int_or("p", 2).unwrap_or(2) as f64;
            x.abs()?.pow(p)?.sum(Some(&axes), true)?.pow(1.0 / p)
        }
    })()
    .at(c)?
    .cast(x.dtype());
    Ok(vec![c.out(y)])
}

pub(crate) fn max_unpool(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, i) = (c.t(0)?, c.t(1)?);
    if x.ndim() < 3 {
        return Err(c.bad("MaxUnpool takes (N, C, spatial...) inputs"));
    }
    let dims = x.ndim() - 2;
    let k = kernel(c, dims)?;
    let strides = c.node.ints("strides")?.unwrap_or_else(|| vec![1; dims]);
    let p = c.node.ints("pads")?.unwrap_or_else(|| vec![0; 2 * dims]);
    if strides.len() != dims || p.len() != 2 * dims {
        return Err(c.bad(format!(
            "strides {strides:?} and pads {p:?} do not fit {dims} spatial axes"
        )));
    }
    // the indices count within the default output; a given output_shape pads it at the end
    // a model's strides and pads may be huge: the sizes saturate and the check refuses them
    let out: Vec<i64> = (0..dims)
        .map(|d| {
            (x.shape()[2 + d] as i64 - 1)
                .saturating_mul(strides[d])
                .saturating_sub(p[d])
                .saturating_sub(p.get(d + dims).copied().unwrap_or(0))
                .saturating_add(k[d] as i64)
                .max(0)
        })
        .collect();
    let mut full: Vec<i64> = x.shape()[..2].iter().map(|&d| d as i64).collect();
    full.extend(&out);
    let out: Vec<usize> = c.node.checked_shape(&full, x.dtype())?[2..].to_vec();
    let given: Option<Vec<usize>> = match c.opt_ints(2)? {
        Some(os) => {
            // the full output shape (its spatial tail is read)
            if os.len() < dims {
                return Err(c
                    .node
                    .element_count(&c.node.input_label(2), x.ndim(), os.len()));
            }
            Some(c.node.checked_shape(&os[os.len() - dims..], x.dtype())?)
        }
        None => None,
    };
    let plane: usize = out.iter().product();
    let (n, ch) = (x.shape()[0], x.shape()[1]);
    let rows = (n * ch) as isize;
    let y = (|| -> R<DynTensor> {
        // ONNX's indices count over the whole tensor: each (n, c) plane's values scattered
        // into that plane at their index within it
        let local = i
            .cast(DType::I64)
            .modulo(plane as i64)?
            .reshape(&[rows, -1])?;
        let vals = x.reshape(&[rows, -1])?;
        let mut shape = vec![n as isize, ch as isize];
        shape.extend(out.iter().map(|&d| d as isize));
        let y = DynTensor::zeros(&[n * ch, plane], x.dtype())?
            .scatter(1, &local, &vals, None)?
            .reshape(&shape)?;
        match &given {
            Some(g) if g.len() == dims => {
                let mut pads = vec![(0isize, 0isize); 2];
                pads.extend((0..dims).map(|d| (0, g[d] as isize - out[d] as isize)));
                y.pad(&pads, 0)
            }
            _ => Ok(y),
        }
    })()
    .at(c)?;
    let _ = k;
    Ok(vec![c.out(y)])
}
