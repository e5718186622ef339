//! Convolutions: Conv, ConvTranspose (with `output_padding` and `output_shape`) and
//! ConvInteger, with ONNX's `auto_pad`, `pads`, `strides`, `dilations` and `group`.

use tg_onnx_format::{DType, Result};
use tg_ops::{Conv, DynTensor, Padding, Sizes};

use super::linalg::centered;
use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

/// The window attributes of a convolution or pool over `dims` spatial axes.
pub(crate) struct Window {
    pub strides: Vec<usize>,
    pub dilations: Vec<usize>,
    /// `(before, after)` per spatial axis.
    pub pads: Vec<(isize, isize)>,
}

fn ints_or(c: &NodeCtx, name: &str, dims: usize, default: i64) -> Result<Vec<usize>> {
    let v = c.node.ints(name)?.unwrap_or_else(|| vec![default; dims]);
    // strides and dilations step: zero is no step
    let least = if default >= 1 { 1 } else { 0 };
    if v.len() != dims || v.iter().any(|&x| x < least) {
        return Err(c.node.bad_attr(
            name,
            format!("{v:?} does not give one size per spatial axis ({dims})"),
        ));
    }
    Ok(v.iter().map(|&x| x as usize).collect())
}

/// The `pads` attribute of a node of `dims` spatial dims (zeros when absent): ONNX lists every
/// dim's start, then every dim's end; here each dim's `(start, end)`.
fn explicit_pads(c: &NodeCtx, dims: usize) -> Result<Vec<(isize, isize)>> {
    let p = c.node.ints("pads")?.unwrap_or_else(|| vec![0; 2 * dims]);
    if p.len() != 2 * dims {
        return Err(c
            .node
            .bad_attr("pads", format!("{p:?} needs {} values", 2 * dims)));
    }
    Ok((0..dims)
        .map(|i| (p[i] as isize, p[i + dims] as isize))
        .collect())
}

/// Reads `strides`, `dilations`, `pads` and `auto_pad` for input sizes `spatial` and kernel
/// sizes `kernel`; `ceil` rounds the SAME output up as pools with `ceil_mode` do (the SAME
/// output is `ceil(in / stride)` either way).
pub(crate) fn window(c: &NodeCtx, spatial: &[usize], kernel: &[usize]) -> Result<Window> {
    let dims = kernel.len();
    let strides = ints_or(c, "strides", dims, 1)?;
    let dilations = ints_or(c, "dilations", dims, 1)?;
    let auto_pad = c.node.string_or("auto_pad", "NOTSET")?;
    let pads = match auto_pad.as_str() {
        "NOTSET" => explicit_pads(c, dims)?,
        "VALID" => vec![(0, 0); dims],
        "SAME_UPPER" | "SAME_LOWER" => (0..dims)
            .map(|i| {
                let out = spatial[i].div_ceil(strides[i]);
                let need = out.saturating_sub(1) * strides[i]
                    + kernel[i].saturating_sub(1) * dilations[i]
                    + 1;
                let total = need.saturating_sub(spatial[i]) as isize;
                if auto_pad == "SAME_UPPER" {
                    (total / 2, total - total / 2)
                } else {
                    (total - total / 2, total / 2)
                }
            })
            .collect(),
        other => {
            return Err(c
                .node
                .bad_attr("auto_pad", format!("{other:?} is not an auto_pad mode")));
        }
    };
    Ok(Window {
        strides,
        dilations,
        pads,
    })
}

fn spec(c: &NodeCtx, x: &DynTensor, w: &DynTensor) -> Result<Conv> {
    if x.ndim() < 3 || w.ndim() != x.ndim() {
        return Err(c.bad("takes (N, C, spatial...) inputs and weights of the same rank"));
    }
    let kernel = w.shape()[2..].to_vec();
    let win = window(c, &x.shape()[2..], &kernel)?;
    Ok(Conv::new()
        .groups(c.node.int_or("group", 1)?.max(1) as usize)
        .stride(Sizes(win.strides))
        .dilation(Sizes(win.dilations))
        .padding(Padding::Pairs(win.pads)))
}

pub(crate) fn conv(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, w) = (c.t(0)?, c.t(1)?);
    let b = c.opt_t(2)?;
    let spec = spec(c, &x, &w)?;
    let y = x.conv2d(&w, b.as_ref(), &spec).at(c)?.cast(x.dtype());
    Ok(vec![c.out(y)])
}

pub(crate) fn conv_integer(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, w) = (c.t(0)?, c.t(1)?);
    let (xz, wz) = (c.opt_t(2)?, c.opt_t(3)?);
    let spec = spec(c, &x, &w)?;
    let y = (|| -> R<DynTensor> {
        let xi = centered(&x, xz.as_ref(), 1)?;
        // the weight's zero point is per output channel (axis 0)
        let wi = centered(&w, wz.as_ref(), 0)?;
        Ok(xi.conv2d(&wi, None, &spec)?.cast(DType::I32))
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}

pub(crate) fn conv_transpose(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, w) = (c.t(0)?, c.t(1)?);
    let b = c.opt_t(2)?;
    if x.ndim() < 3 || w.ndim() != x.ndim() {
        return Err(c.bad("takes (N, C, spatial...) inputs and weights of the same rank"));
    }
    let dims = x.ndim() - 2;
    let groups = c.node.int_or("group", 1)?.max(1) as usize;
    let kernel = w.shape()[2..].to_vec();
    let input = x.shape()[2..].to_vec();
    let strides = ints_or(c, "strides", dims, 1)?;
    let dilations = ints_or(c, "dilations", dims, 1)?;
    let mut out_pad = ints_or(c, "output_padding", dims, 0)?;
    let auto_pad = c.node.string_or("auto_pad", "NOTSET")?;
    let full: Vec<usize> = (0..dims)
        .map(|i| {
            strides[i] * input[i].saturating_sub(1) + kernel[i].saturating_sub(1) * dilations[i] + 1
        })
        .collect();
    let output_shape = c.node.ints("output_shape")?;
    let pads: Vec<(isize, isize)> = if let Some(os) = output_shape {
        // the last `dims` values are the spatial sizes
        if os.len() < dims {
            return Err(c.node.bad_attr(
                "output_shape",
                format!("{os:?} has fewer than {dims} sizes"),
            ));
        }
        let os = &os[os.len() - dims..];
        (0..dims)
            .map(|i| {
                let total = full[i] as isize + out_pad[i] as isize - os[i] as isize;
                if total < 0 {
                    // the output is larger than the full transpose: grow it at the end
                    out_pad[i] = (out_pad[i] as isize - total) as usize;
                    (0, 0)
                } else if auto_pad == "SAME_UPPER" {
                    (total / 2, total - total / 2)
                } else {
                    (total - total / 2, total / 2)
                }
            })
            .collect()
    } else {
        match auto_pad.as_str() {
            "SAME_UPPER" | "SAME_LOWER" => (0..dims)
                .map(|i| {
                    let target = input[i] * strides[i];
                    let total = (full[i] + out_pad[i]) as isize - target as isize;
                    let total = total.max(0);
                    if auto_pad == "SAME_UPPER" {
                        (total / 2, total - total / 2)
                    } else {
                        (total - total / 2, total / 2)
                    }
                })
                .collect(),
            "VALID" => vec![(0, 0); dims],
            _ => explicit_pads(c, dims)?,
        }
    };
    let spec = Conv::new()
        .groups(groups)
        .stride(Sizes(strides))
        .dilation(Sizes(dilations))
        .padding(Padding::Pairs(pads))
        .output_padding(Sizes(out_pad));
    let y = x
        .conv_transpose2d(&w, b.as_ref(), &spec)
        .at(c)?
        .cast(x.dtype());
    Ok(vec![c.out(y)])
}
