//! The sliding-window ops' arguments (sizes given once or per spatial axis, padding in its
//! forms) read from a call, and their shape rules: tg-core's `shape::window`.

use crate::check::Checker;
use crate::dim::Dim;
use crate::error::argument_error;
use crate::shape::window::{self, Padding, Sizes, Window};

use super::super::sig::OpSig;
use super::super::value::{Args, At, Fault, Place, Value};
use super::ShapeRule;

/// The largest kernel, stride or size a literal may give: far beyond any real tensor, and
/// small enough that the size arithmetic cannot overflow.
pub const MAX_SIZE: i64 = i32::MAX as i64;

/// Literal sizes given once or per spatial axis (`None` when absent).
fn raw<D: Dim>(a: &Args<D>, name: &'static str) -> Result<Option<Vec<i64>>, Fault<D>> {
    a.ints(name)
}

/// `v` for `dims` spatial axes: one value for all, or one per axis.
fn per_axis<D: Dim>(
    a: &Args<D>,
    name: &'static str,
    v: Vec<i64>,
    dims: usize,
) -> Result<Vec<i64>, Fault<D>> {
    match v.len() {
        1 => Ok(vec![v[0]; dims]),
        n if n == dims => Ok(v),
        n => Err(Fault::new(
            At::Param(name),
            argument_error(a.op, format!("{n} values given for {dims} spatial axes")),
        )),
    }
}

/// Each of `v` within `min..=MAX_SIZE`.
fn in_range<D: Dim>(
    a: &Args<D>,
    name: &'static str,
    v: &[i64],
    min: i64,
) -> Result<Vec<usize>, Fault<D>> {
    if let Some(x) = v.iter().find(|&&x| x < min || x > MAX_SIZE) {
        return Err(Fault::new(
            At::Param(name),
            argument_error(
                a.op,
                format!("{name} {v:?} has {x}; each must be in {min}..={MAX_SIZE}"),
            ),
        ));
    }
    Ok(v.iter().map(|&x| x as usize).collect())
}

/// Sizes parameter `name` per spatial axis, each at least `min` (`default` when absent).
fn sizes<D: Dim>(
    a: &Args<D>,
    name: &'static str,
    default: i64,
    min: i64,
    dims: usize,
) -> Result<Vec<usize>, Fault<D>> {
    let v = raw(a, name)?.unwrap_or_else(|| vec![default]);
    let v = per_axis(a, name, v, dims)?;
    in_range(a, name, &v, min)
}

/// The `padding` parameter as `(before, after)` pairs per spatial axis, within range.
fn pads<D: Dim>(a: &Args<D>, dims: usize) -> Result<Vec<(isize, isize)>, Fault<D>> {
    let at = At::Param("padding");
    let pairs: Vec<(i64, i64)> = match a.get("padding")? {
        Value::Padding(Padding::Pairs(p)) => {
            if p.len() != dims {
                return Err(Fault::new(
                    at,
                    argument_error(
                        a.op,
                        format!("{} padding pairs for {dims} spatial axes", p.len()),
                    ),
                ));
            }
            p.iter().map(|&(x, y)| (x as i64, y as i64)).collect()
        }
        Value::Padding(Padding::Uniform(p)) => vec![(*p as i64, *p as i64); dims],
        Value::Padding(Padding::PerAxis(v)) => {
            let v = per_axis(a, "padding", v.iter().map(|&x| x as i64).collect(), dims)?;
            v.into_iter().map(|x| (x, x)).collect()
        }
        Value::Int(p) => vec![(*p, *p); dims],
        Value::Absent => vec![(0, 0); dims],
        other => return Err(a.internal(format!("padding is {other:?}"))),
    };
    if pairs
        .iter()
        .any(|&(x, y)| x.abs() > MAX_SIZE || y.abs() > MAX_SIZE)
    {
        return Err(Fault::new(
            at,
            argument_error(a.op, format!("padding {pairs:?} is out of range")),
        ));
    }
    Ok(pairs
        .into_iter()
        .map(|(x, y)| (x as isize, y as isize))
        .collect())
}

/// A convolution's groups: at least 1.
fn groups<D: Dim>(a: &Args<D>) -> Result<usize, Fault<D>> {
    let g = a.int("groups")?.unwrap_or(1);
    Ok(in_range(a, "groups", &[g], 1)?[0])
}

/// conv2d: channels and groups, the bias, then each spatial axis's window.
pub(super) fn conv<D: Dim>(ck: &mut Checker<D>, a: &Args<D>) -> Result<Vec<D>, Fault<D>> {
    let shape = a.shape()?;
    let (ws, _) = a.required("weight")?;
    let dims = shape.len().saturating_sub(2);
    let groups = groups(a)?;
    window::conv_channels(ck, a.op, shape, ws, groups).at(At::Param("weight"))?;
    let stride = sizes(a, "stride", 1, 1, dims)?;
    let dilation = sizes(a, "dilation", 1, 1, dims)?;
    let pads = pads(a, dims)?;
    if let Some((bs, _)) = a.tensor("bias")? {
        window::conv_bias(ck, a.op, &ws[0], bs).at(At::Param("bias"))?;
    }
    window::conv_windows(
        ck,
        a.op,
        shape,
        ws,
        &Sizes(stride),
        &Sizes(dilation),
        &Padding::Pairs(pads),
    )
    .at(At::Call)
}

/// conv_transpose2d.
pub(super) fn conv_transpose<D: Dim>(ck: &mut Checker<D>, a: &Args<D>) -> Result<Vec<D>, Fault<D>> {
    let shape = a.shape()?;
    let (ws, _) = a.required("weight")?;
    window::conv_transpose_ranks(a.op, shape, ws)?;
    let dims = shape.len() - 2;
    let groups = groups(a)?;
    let stride = sizes(a, "stride", 1, 1, dims)?;
    let dilation = sizes(a, "dilation", 1, 1, dims)?;
    let out_pad = sizes(a, "output_padding", 0, 0, dims)?;
    let pads = pads(a, dims)?;
    let bias = a.tensor("bias")?.map(|(s, _)| s);
    window::conv_transpose(
        ck,
        a.op,
        (shape, ws, bias),
        groups,
        window::PerAxis {
            kernel: &[],
            stride: &stride,
            dilation: &dilation,
            pads: &pads,
            out_pad: &out_pad,
        },
    )
}

/// The pools: the kernel (one size for both axes of a 2-D window, or one per axis), the
/// stride (the kernel's by default), then tg-core's window rule.
pub(super) fn pool<D: Dim>(ck: &mut Checker<D>, a: &Args<D>) -> Result<Vec<Vec<D>>, Fault<D>> {
    let shape = a.shape()?;
    let kernel = kernel(a)?;
    let dims = kernel.len();
    if dims == 0 {
        return Err(Fault::new(
            At::Param("kernel"),
            argument_error(a.op, "the kernel needs at least one spatial axis"),
        ));
    }
    let kernel = in_range(a, "kernel", &kernel, 1)?;
    let stride = pool_stride(a, &kernel)?;
    let dilation = sizes(a, "dilation", 1, 1, dims)?;
    let pads = pads(a, dims)?;
    let ceil = a.flag("ceil_mode")?;
    let w = Window::new(a.op, kernel, stride, dilation).at(At::Call)?;
    let out = window::pool(ck, a.op, shape, &w, &pads, ceil).at(At::Call)?;
    if a.sig.outputs == super::super::Outputs::Pair {
        // the indices are flat over the spatial axes, as i32
        let lead = shape.len() - dims;
        if let Some(n) = crate::dim::numel(&shape[lead..]).and_then(|n| n.known())
            && n > i32::MAX as usize
        {
            return Err(Fault::new(
                At::Call,
                argument_error(
                    a.op,
                    format!(
                        "the spatial axes of {} have {n} elements, too many for i32 indices",
                        crate::dim::ShowShape(shape)
                    ),
                ),
            ));
        }
        return Ok(vec![out.clone(), out]);
    }
    Ok(vec![out])
}

/// A pool's stride per spatial axis: the kernel's unless given.
fn pool_stride<D: Dim>(a: &Args<D>, kernel: &[usize]) -> Result<Vec<usize>, Fault<D>> {
    match raw(a, "stride")? {
        Some(v) => {
            let v = per_axis(a, "stride", v, kernel.len())?;
            in_range(a, "stride", &v, 1)
        }
        None => Ok(kernel.to_vec()),
    }
}

/// A pool's kernel per spatial axis: one size means both axes of a 2-D window (tinygrad's
/// `make_tuple(k, 2)`), or, for max_unpool2d, every spatial axis of its `rank`-axis values.
/// (The macros and the dispatcher build the `Pool` option from this.)
pub fn pool_kernel<D>(sig: &OpSig, rank: usize, v: &Value<D>) -> Option<Vec<i64>> {
    match v {
        Value::Int(k) if sig.shape == ShapeRule::MaxUnpool => {
            Some(vec![*k; rank.saturating_sub(2)])
        }
        Value::Int(k) => Some(vec![*k, *k]),
        Value::Ints(v) => Some(v.clone()),
        _ => None,
    }
}

/// The call's kernel per spatial axis.
fn kernel<D: Dim>(a: &Args<D>) -> Result<Vec<i64>, Fault<D>> {
    let rank = a.shape()?.len();
    let v = a.get("kernel")?;
    pool_kernel(a.sig, rank, v).ok_or_else(|| a.internal(format!("kernel is {v:?}")))
}

/// max_unpool2d: values `(N, C, spatial..)` and their indices of one shape; the output
/// spatial sizes from `output_size`, or the pool's arithmetic inverted.
pub(super) fn max_unpool<D: Dim>(ck: &mut Checker<D>, a: &Args<D>) -> Result<Vec<D>, Fault<D>> {
    let shape = a.shape()?;
    let indices = a.required("indices")?;
    window::unpool_inputs(ck, a.op, shape, indices)?;
    let dims = shape.len() - 2;
    let kernel = per_axis(a, "kernel", kernel(a)?, dims)?;
    let kernel = in_range(a, "kernel", &kernel, 1)?;
    let stride = pool_stride(a, &kernel)?;
    let dilation = sizes(a, "dilation", 1, 1, dims)?;
    let pads = pads(a, dims)?;
    let size = a.dims("output_size")?;
    window::unpool(
        a.op,
        shape,
        window::PerAxis {
            kernel: &kernel,
            stride: &stride,
            dilation: &dilation,
            pads: &pads,
            out_pad: &[],
        },
        size.as_deref(),
    )
}
