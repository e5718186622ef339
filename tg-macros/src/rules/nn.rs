//! Neural-network ops whose output sizes are arithmetic of the input's: convolution (and its
//! transpose), pooling (and max unpooling), resizing, normalization, one-hot and gather.
//! Channel and size errors name the op, both shapes and the offending axis.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Error, Result};

use super::args;
use tg_core::DType;

use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::Poly;

pub const NAMES: &[&str] = &[
    "conv2d",
    "max_pool2d",
    "avg_pool2d",
    "layernorm",
    "one_hot",
    "gather",
    "batchnorm",
    "conv_transpose2d",
    "interpolate",
    "max_pool2d_with_indices",
    "max_unpool2d",
];

/// Output size of a sliding window over one axis; an error if the window does not fit.
#[allow(clippy::too_many_arguments)]
fn window_out(
    op: &str,
    input: &Poly,
    k: i64,
    s: i64,
    d: i64,
    pad: (i64, i64),
    ceil: bool,
    axis: usize,
    shape: &[Poly],
    span: Span,
) -> Result<Poly> {
    let extent = d * (k - 1) + 1;
    let span_len = input.add(&Poly::constant(pad.0 + pad.1 - extent));
    if let Some(n) = span_len.as_const() {
        if n < 0 {
            return Err(Error::new(
                span,
                format!(
                    "`{op}`: the window of {extent} (kernel {k}, dilation {d}) does not fit axis {axis} of size {input} with padding {pad:?} (input {})",
                    show_shape(shape)
                ),
            ));
        }
        let i = input.as_const().unwrap_or(0);
        let out = if ceil {
            let last = s * ((n + s - 1) / s);
            let past = last - (pad.0 + i - 1);
            (last - past.max(0)) / s + 1
        } else {
            n / s + 1
        };
        return Ok(Poly::constant(out));
    }
    if ceil {
        return Err(Error::new(
            span,
            format!("`{op}`: ceil_mode needs a literal size on axis {axis} (it is {input})"),
        ));
    }
    Ok(span_len.div(s).add(&Poly::constant(1)))
}

fn sizes_code(v: &[i64]) -> TokenStream {
    let items = v.iter().map(|&x| quote!(#x as usize));
    quote!(::std::vec![#(#items),*])
}

fn pads_code(v: &[(i64, i64)]) -> TokenStream {
    let items = v.iter().map(|&(a, b)| quote!((#a as isize, #b as isize)));
    quote!(::tg::Padding::Pairs(::std::vec![#(#items),*]))
}

/// A convolution's dtype: products in the operands' dtype, summed as `sum` sums (integers in
/// their accumulation dtype), then the bias added (which promotes).
fn conv_dtype(meet: DType, bias: Option<DType>) -> DType {
    let out = if meet.is_float() {
        meet
    } else {
        meet.sum_dtype()
    };
    bias.map_or(out, |b| out.least_upper(b))
}

/// The largest kernel, stride or size a literal may give: far beyond any real tensor, and
/// small enough that the size arithmetic cannot overflow.
const MAX_SIZE: i64 = i32::MAX as i64;

/// Window sizes, strides and dilations are at least 1 (tg-ops rejects a zero; a negative
/// would wrap in the emitted `as usize`).
fn positive(op: &str, what: &str, v: &[i64], span: Span) -> Result<()> {
    in_range(op, what, v, 1, span)
}

/// Each of `v` in `min..=MAX_SIZE`.
fn in_range(op: &str, what: &str, v: &[i64], min: i64, span: Span) -> Result<()> {
    if let Some(x) = v.iter().find(|&&x| x < min || x > MAX_SIZE) {
        return Err(Error::new(
            span,
            format!("`{op}`: {what} {v:?} has {x}; each must be in {min}..={MAX_SIZE}"),
        ));
    }
    Ok(())
}

/// Padding amounts within `±MAX_SIZE`, so that the size arithmetic cannot overflow.
fn pads_in_range(op: &str, pads: &[(i64, i64)], span: Span) -> Result<()> {
    if pads
        .iter()
        .any(|&(a, b)| a.abs() > MAX_SIZE || b.abs() > MAX_SIZE)
    {
        return Err(Error::new(
            span,
            format!("`{op}`: padding {pads:?} is out of range"),
        ));
    }
    Ok(())
}

/// The span of keyword argument `name`, or `span`.
fn arg_span(kw: &[Arg], name: &str, span: Span) -> Span {
    args::pick(kw, &[], name, usize::MAX).map_or(span, |a| a.span)
}

/// The keyword argument `name`: one size for every spatial axis or one per axis, each `>= min`.
fn keyword_sizes(
    op: &str,
    kw: &[Arg],
    name: &str,
    default: i64,
    min: i64,
    dims: usize,
    span: Span,
) -> Result<Vec<i64>> {
    let sizes = args::sizes(
        op,
        args::pick_once(op, kw, &[], name, usize::MAX)?,
        default,
        dims,
    )?;
    in_range(op, name, &sizes, min, arg_span(kw, name, span))?;
    Ok(sizes)
}

/// `&[usize]` code for (possibly symbolic) sizes.
fn usizes_code(v: &[Poly]) -> TokenStream {
    let items = v.iter().map(|p| {
        let c = p.to_tokens(&|_| quote!(0usize));
        quote!((#c) as usize)
    });
    quote!(&[#(#items),*])
}

/// Sizes that must not be negative: an error for a negative constant.
fn sizes_not_negative(op: &str, what: &str, v: &[Poly], span: Span) -> Result<()> {
    if let Some(x) = v
        .iter()
        .filter_map(Poly::as_const)
        .find(|&x| !(0..=MAX_SIZE).contains(&x))
    {
        return Err(Error::new(
            span,
            format!(
                "`{op}`: {what} [{}] has {x}; sizes must be in 0..={MAX_SIZE}",
                v.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    Ok(())
}

pub fn apply(ctx: &mut Ctx, name: &str, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    match name {
        "conv2d" => {
            let (pos, kw) = args::split(
                name,
                args,
                &["bias", "stride", "padding", "dilation", "groups"],
                2,
                span,
            )?;
            let w = pos
                .first()
                .ok_or_else(|| Error::new(span, "`conv2d` needs the weight"))?;
            let (ws, wd, wc) = args::tensor(name, w)?;
            let (ws, wc) = (ws.to_vec(), wc.clone());
            if shape.len() < 3 || ws.len() != shape.len() {
                return Err(Error::new(
                    w.span,
                    format!(
                        "`conv2d`: the input {} and the weight {} must have one rank of at least 3 ((N, C, spatial..) and (Cout, C/groups, kernel..))",
                        show_shape(&shape),
                        show_shape(&ws)
                    ),
                ));
            }
            let dims = shape.len() - 2;
            let groups = args::pick(&kw, &[], "groups", 9)
                .map(|a| args::int(name, a))
                .transpose()?
                .unwrap_or(1);
            let stride = args::sizes(name, args::pick(&kw, &[], "stride", 9), 1, dims)?;
            let dilation = args::sizes(name, args::pick(&kw, &[], "dilation", 9), 1, dims)?;
            let pads = args::padding(name, args::pick(&kw, &[], "padding", 9), dims)?;
            let cin = ws[1].scale(groups);
            ctx.require_equal(&shape[1], &cin, w.span, || {
                format!(
                    "`conv2d`: the input {} has {} channels (axis 1), the weight {} takes {} x {groups} group(s) = {cin}",
                    show_shape(&shape),
                    shape[1],
                    show_shape(&ws),
                    ws[1]
                )
            })?;
            if let Some(co) = ws[0].as_const()
                && co % groups != 0
            {
                return Err(Error::new(
                    w.span,
                    format!("`conv2d`: {co} output channels do not split into {groups} groups"),
                ));
            }
            let mut out = vec![shape[0].clone(), ws[0].clone()];
            for i in 0..dims {
                let k = ws[2 + i]
                    .as_const()
                    .ok_or_else(|| Error::new(w.span, "`conv2d`: kernel sizes must be literal"))?;
                out.push(window_out(
                    name,
                    &shape[2 + i],
                    k,
                    stride[i],
                    dilation[i],
                    pads[i],
                    false,
                    2 + i,
                    &shape,
                    span,
                )?);
            }
            let mut bias_dt = None;
            let bias = match args::pick(&kw, &pos, "bias", 1) {
                Some(b) => {
                    let (bs, bd, bc) = args::tensor(name, b)?;
                    bias_dt = Some(bd);
                    if bs.len() != 1 {
                        return Err(Error::new(
                            b.span,
                            format!(
                                "`conv2d`: the bias is one value per output channel, not {}",
                                show_shape(bs)
                            ),
                        ));
                    }
                    ctx.require_equal(&bs[0], &ws[0], b.span, || {
                        format!(
                            "`conv2d`: the bias has {} values for {} output channels",
                            bs[0], ws[0]
                        )
                    })?;
                    let bc = bc.clone();
                    quote!(Some(&#bc))
                }
                None => quote!(None),
            };
            let meet = dtype.least_upper(wd);
            let out_dt = conv_dtype(meet, bias_dt);
            let (st, dl, pd) = (sizes_code(&stride), sizes_code(&dilation), pads_code(&pads));
            Ok(ctx.bind(
                out,
                out_dt,
                quote!(#code.conv2d(&#wc, #bias, &::tg::Conv::new().groups(#groups as usize).stride(#st).dilation(#dl).padding(#pd))),
            ))
        }
        "max_pool2d" | "avg_pool2d" | "max_pool2d_with_indices" => {
            let known: &[&str] = if name == "avg_pool2d" {
                &[
                    "kernel",
                    "stride",
                    "padding",
                    "dilation",
                    "ceil_mode",
                    "count_include_pad",
                ]
            } else {
                &["kernel", "stride", "padding", "dilation", "ceil_mode"]
            };
            let (pos, kw) = args::split(name, args, known, 1, span)?;
            // a single size means both axes of the 2-D window, as tinygrad's make_tuple(k, 2)
            let kernel = match args::pick(&kw, &pos, "kernel", 0) {
                Some(a) if !matches!(a.val, Val::List(_)) => vec![args::int(name, a)?; 2],
                Some(a) => args::ints(name, a)?,
                None => vec![2, 2],
            };
            let dims = kernel.len();
            let kspan = args::pick(&kw, &pos, "kernel", 0).map_or(span, |a| a.span);
            if dims == 0 {
                return Err(Error::new(
                    kspan,
                    format!("`{name}`: the kernel needs at least one spatial axis"),
                ));
            }
            if dims > shape.len() {
                return Err(Error::new(
                    span,
                    format!(
                        "`{name}`: a {dims}-D window on a tensor of shape {}",
                        show_shape(&shape)
                    ),
                ));
            }
            let stride = match args::pick(&kw, &[], "stride", 9) {
                Some(a) => args::sizes(name, Some(a), 1, dims)?,
                None => kernel.clone(),
            };
            let dilation = args::sizes(name, args::pick(&kw, &[], "dilation", 9), 1, dims)?;
            let pads = args::padding(name, args::pick(&kw, &[], "padding", 9), dims)?;
            positive(name, "kernel", &kernel, kspan)?;
            positive(name, "stride", &stride, arg_span(&kw, "stride", span))?;
            positive(name, "dilation", &dilation, arg_span(&kw, "dilation", span))?;
            pads_in_range(name, &pads, arg_span(&kw, "padding", span))?;
            let ceil = args::pick(&kw, &[], "ceil_mode", 9)
                .map(|a| args::boolean(name, a))
                .transpose()?
                .unwrap_or(false);
            let cip = args::pick(&kw, &[], "count_include_pad", 9)
                .map(|a| args::boolean(name, a))
                .transpose()?
                .unwrap_or(true);
            let lead = shape.len() - dims;
            let mut out = shape[..lead].to_vec();
            for i in 0..dims {
                out.push(window_out(
                    name,
                    &shape[lead + i],
                    kernel[i],
                    stride[i],
                    dilation[i],
                    pads[i],
                    ceil,
                    lead + i,
                    &shape,
                    span,
                )?);
            }
            let (k, st, dl, pd) = (
                sizes_code(&kernel),
                sizes_code(&stride),
                sizes_code(&dilation),
                pads_code(&pads),
            );
            if name == "max_pool2d_with_indices" {
                // the indices are flat over the spatial axes, as i32
                let n = Poly::product(&shape[lead..]);
                if n.as_const().is_some_and(|n| n > i32::MAX as i64) {
                    return Err(Error::new(
                        span,
                        format!(
                            "`{name}`: the spatial axes of {} have {n} elements, too many for i32 indices",
                            show_shape(&shape)
                        ),
                    ));
                }
                return Ok(ctx.bind_pair(
                    (out.clone(), dtype),
                    (out, DType::I32),
                    quote!(#code.max_pool2d_with_indices(&::tg::Pool::new(#k).stride(#st).dilation(#dl).padding(#pd).ceil_mode(#ceil))),
                ));
            }
            let method = proc_macro2::Ident::new(name, span);
            let dt = if name == "avg_pool2d" {
                dtype.float_of()
            } else {
                dtype
            };
            let extra = if name == "avg_pool2d" {
                quote!(.count_include_pad(#cip))
            } else {
                quote!()
            };
            Ok(ctx.bind(
                out,
                dt,
                quote!(#code.#method(&::tg::Pool::new(#k).stride(#st).dilation(#dl).padding(#pd).ceil_mode(#ceil) #extra)),
            ))
        }
        "layernorm" => {
            let (pos, kw) = args::split(name, args, &["axis", "eps"], 2, span)?;
            let axes = match args::pick(&kw, &pos, "axis", 0) {
                Some(a) => args::ints(name, a)?,
                None => vec![-1],
            };
            for &a in &axes {
                args::axis(name, a, &shape, span)?;
            }
            let eps = args::pick(&kw, &pos, "eps", 1)
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(quote!(1e-5f64));
            let s = args::isize_slice(&axes);
            Ok(ctx.bind(shape, dtype.float_of(), quote!(#code.layernorm(#s, #eps))))
        }
        "one_hot" => {
            args::count(name, &args, 1, 1, span)?;
            if !dtype.is_int() {
                return Err(Error::new(
                    recv.span,
                    format!(
                        "`one_hot` takes integer class indices, this tensor is {}",
                        dtype.rust_name()
                    ),
                ));
            }
            let n = args::poly(name, &args[0])?;
            let c = n.to_tokens(&|_| quote!(0usize));
            let mut out = shape.clone();
            out.push(n);
            Ok(ctx.bind(out, DType::I32, quote!(#code.one_hot(#c))))
        }
        "conv_transpose2d" => conv_transpose2d(ctx, (&shape, dtype, &code), args, span),
        "batchnorm" => batchnorm(ctx, (&shape, dtype, &code), args, span),
        "interpolate" => interpolate(ctx, (&shape, dtype, &code), args, span),
        "max_unpool2d" => max_unpool2d(ctx, (&shape, dtype, &code), &recv, args, span),
        _ => {
            // gather(dim, index): the index's shape, the input's dtype
            args::count(name, &args, 2, 2, span)?;
            let d = args::int(name, &args[0])?;
            let (is, idt, ic) = args::tensor(name, &args[1])?;
            if !idt.is_int() {
                return Err(Error::new(
                    args[1].span,
                    format!("`gather` takes integer indices, not {}", idt.rust_name()),
                ));
            }
            if is.len() != shape.len() {
                return Err(Error::new(
                    args[1].span,
                    format!(
                        "`gather`: the index must have the input's rank: index {}, input {}",
                        show_shape(is),
                        show_shape(&shape)
                    ),
                ));
            }
            args::axis(name, d, &shape, args[0].span)?;
            let (out, ic) = (is.to_vec(), ic.clone());
            Ok(ctx.bind(out, dtype, quote!(#code.gather(#d as isize, &#ic))))
        }
    }
}

/// The receiver of an op: shape, dtype and code.
type Input<'a> = (&'a [Poly], DType, &'a TokenStream);

/// `x.conv_transpose2d(w, bias, stride =, padding =, dilation =, groups =, output_padding =)`:
/// the input `(N, Cin, *spatial)`, the weight `(Cin, Cout / groups, *kernel)`; each output
/// axis is `(i - 1) * stride - pads + dilation * (k - 1) + output_padding + 1`.
fn conv_transpose2d(
    ctx: &mut Ctx,
    (shape, dtype, code): Input,
    args: Vec<Arg>,
    span: Span,
) -> Result<Val> {
    const OP: &str = "conv_transpose2d";
    let (pos, kw) = args::split(
        OP,
        args,
        &[
            "weight",
            "bias",
            "stride",
            "padding",
            "dilation",
            "groups",
            "output_padding",
        ],
        2,
        span,
    )?;
    let w = args::pick_once(OP, &kw, &pos, "weight", 0)?
        .ok_or_else(|| Error::new(span, "`conv_transpose2d` needs the weight"))?;
    let (ws, wd, wc) = args::tensor(OP, w)?;
    let (ws, wc) = (ws.to_vec(), wc.clone());
    if shape.len() < 3 || ws.len() != shape.len() {
        return Err(Error::new(
            w.span,
            format!(
                "`conv_transpose2d`: the input {} and the weight {} must have one rank of at least 3 ((N, Cin, spatial..) and (Cin, Cout/groups, kernel..))",
                show_shape(shape),
                show_shape(&ws)
            ),
        ));
    }
    let dims = shape.len() - 2;
    let groups = match args::pick_once(OP, &kw, &[], "groups", usize::MAX)? {
        Some(a) => {
            let g = args::int(OP, a)?;
            positive(OP, "groups", &[g], a.span)?;
            g
        }
        None => 1,
    };
    let stride = keyword_sizes(OP, &kw, "stride", 1, 1, dims, span)?;
    let dilation = keyword_sizes(OP, &kw, "dilation", 1, 1, dims, span)?;
    let out_pad = keyword_sizes(OP, &kw, "output_padding", 0, 0, dims, span)?;
    let pads = args::padding(
        OP,
        args::pick_once(OP, &kw, &[], "padding", usize::MAX)?,
        dims,
    )?;
    pads_in_range(OP, &pads, arg_span(&kw, "padding", span))?;
    if let Some(cin) = ws[0].as_const()
        && cin % groups != 0
    {
        return Err(Error::new(
            w.span,
            format!(
                "`conv_transpose2d`: the weight {} has {cin} input channels (axis 0), which do not split into {groups} groups",
                show_shape(&ws)
            ),
        ));
    }
    ctx.require_equal(&shape[1], &ws[0], w.span, || {
        format!(
            "`conv_transpose2d`: the input {} has {} channels (axis 1), the weight {} takes {} (axis 0)",
            show_shape(shape),
            shape[1],
            show_shape(&ws),
            ws[0]
        )
    })?;
    let cout = ws[1].scale(groups);
    let mut out = vec![shape[0].clone(), cout.clone()];
    for a in 0..dims {
        let (i, k) = (&shape[2 + a], &ws[2 + a]);
        let (s, d, (pb, pa), op) = (stride[a], dilation[a], pads[a], out_pad[a]);
        if i.as_const() == Some(0) {
            return Err(Error::new(
                span,
                format!(
                    "`conv_transpose2d`: the input {} is empty on spatial axis {}",
                    show_shape(shape),
                    2 + a
                ),
            ));
        }
        if let Some(kc) = k.as_const()
            && !(1..=MAX_SIZE).contains(&kc)
        {
            return Err(Error::new(
                w.span,
                format!(
                    "`conv_transpose2d`: the weight {} has kernel size {kc} on axis {}",
                    show_shape(&ws),
                    2 + a
                ),
            ));
        }
        // the zero-interleaved input, padded by (reach - pb, reach - pa + op), slid over by
        // the kernel's reach + 1
        let reach = k.sub(&Poly::constant(1)).scale(d);
        let size = i
            .sub(&Poly::constant(1))
            .scale(s)
            .add(&reach)
            .add(&Poly::constant(op + 1 - pb - pa));
        if let (Some(i), Some(r), Some(o)) = (i.as_const(), reach.as_const(), size.as_const()) {
            let spaced = (i - 1) * s + 1;
            let (before, after) = (r - pb, r - pa + op);
            if (-before).max(0) > (spaced + after).min(spaced) || o < 1 {
                return Err(Error::new(
                    arg_span(&kw, "padding", span),
                    format!(
                        "`conv_transpose2d`: padding {:?} leaves no output on spatial axis {} of the input {} (kernel {}, stride {s}, dilation {d}, output_padding {op}: size {o})",
                        (pb, pa),
                        2 + a,
                        show_shape(shape),
                        ws[2 + a]
                    ),
                ));
            }
        }
        out.push(size);
    }
    let mut bias_dt = None;
    let bias = match args::pick_once(OP, &kw, &pos, "bias", 1)? {
        Some(b) => {
            let (bs, bd, bc) = args::tensor(OP, b)?;
            bias_dt = Some(bd);
            if bs.len() != 1 {
                return Err(Error::new(
                    b.span,
                    format!(
                        "`conv_transpose2d`: the bias is one value per output channel, not {}",
                        show_shape(bs)
                    ),
                ));
            }
            ctx.require_equal(&bs[0], &cout, b.span, || {
                format!(
                    "`conv_transpose2d`: the bias has {} values for {cout} output channels (weight {} axis 1 x {groups} group(s))",
                    bs[0],
                    show_shape(&ws)
                )
            })?;
            let bc = bc.clone();
            quote!(Some(&#bc))
        }
        None => quote!(None),
    };
    let out_dt = conv_dtype(dtype.least_upper(wd), bias_dt);
    let (st, dl, pd, opd) = (
        sizes_code(&stride),
        sizes_code(&dilation),
        pads_code(&pads),
        sizes_code(&out_pad),
    );
    Ok(ctx.bind(
        out,
        out_dt,
        quote!(#code.conv_transpose2d(&#wc, #bias, &::tg::Conv::new().groups(#groups as usize).stride(#st).dilation(#dl).padding(#pd).output_padding(#opd))),
    ))
}

/// `x.batchnorm(mean, invstd, weight, bias, axis = 1)`: `(x - mean) * weight * invstd + bias`.
/// `mean`, `weight`, `bias` hold one value per element of the normalized axes (tg-ops
/// reshapes them, so only the count must match); `invstd` too when it has one axis per
/// normalized axis, else it broadcasts against the input. The required statistics come
/// first, unlike tinygrad's order, since the DSL cannot pass `None` for the optional ones.
fn batchnorm(
    ctx: &mut Ctx,
    (shape, dtype, code): Input,
    args: Vec<Arg>,
    span: Span,
) -> Result<Val> {
    const OP: &str = "batchnorm";
    let (pos, kw) = args::split(
        OP,
        args,
        &["mean", "invstd", "weight", "bias", "axis"],
        4,
        span,
    )?;
    let axes_arg = args::pick_once(OP, &kw, &[], "axis", usize::MAX)?;
    let axes = axes_arg
        .map(|a| args::ints(OP, a))
        .transpose()?
        .unwrap_or_else(|| vec![1]);
    let axes_span = axes_arg.map_or(span, |a| a.span);
    let mut norm = Vec::with_capacity(axes.len());
    for &a in &axes {
        let n = args::axis(OP, a, shape, axes_span)?;
        if norm.contains(&n) {
            return Err(Error::new(
                axes_span,
                format!(
                    "`batchnorm`: axis {a} is listed twice in {axes:?} (input {})",
                    show_shape(shape)
                ),
            ));
        }
        norm.push(n);
    }
    let sizes: Vec<Poly> = norm.iter().map(|&a| shape[a].clone()).collect();
    let count = Poly::product(&sizes);
    // the statistics are reshaped to the normalized axes in place (1 elsewhere), so they
    // broadcast into the input without changing its shape
    let mut dt = dtype;
    let mut out = shape.to_vec();
    let mut codes = Vec::new();
    for (what, i) in [("mean", 0), ("invstd", 1), ("weight", 2), ("bias", 3)] {
        let Some(t) = args::pick_once(OP, &kw, &pos, what, i)? else {
            if i < 2 {
                return Err(Error::new(
                    span,
                    format!(
                        "`batchnorm` needs the {what} (batchnorm(mean, invstd, weight, bias, axis = ..))"
                    ),
                ));
            }
            codes.push(quote!(None));
            continue;
        };
        let (ts, td, tc) = args::tensor(OP, t)?;
        dt = dt.least_upper(td);
        if what == "invstd" && ts.len() != axes.len() {
            // not one axis per normalized axis: broadcast as it is
            out = ctx.broadcast("`batchnorm` (invstd)", &out, ts, t.span)?;
        } else {
            let n = Poly::product(ts);
            ctx.require_equal(&n, &count, t.span, || {
                format!(
                    "`batchnorm`: the {what} of shape {} has {n} values; axes {axes:?} of the input {} (sizes {}) have {count}",
                    show_shape(ts),
                    show_shape(shape),
                    show_shape(&sizes)
                )
            })?;
        }
        let tc = tc.clone();
        codes.push(if i < 2 {
            quote!(&#tc)
        } else {
            quote!(Some(&#tc))
        });
    }
    let (m, v, w, b) = (&codes[0], &codes[1], &codes[2], &codes[3]);
    let ax = args::isize_slice(&axes);
    Ok(ctx.bind(out, dt, quote!(#code.batchnorm(#w, #b, #m, #v, #ax))))
}

/// tinygrad's and torch's names of the interpolation modes.
const MODES: &[&str] = &["linear", "nearest", "nearest-exact"];

/// `x.interpolate(size, mode = "linear", align_corners = false)`: the last `size.len()` axes
/// resized to `size`, the dtype kept. tg-ops' `Interpolation` is spelled as tinygrad spells
/// it: `"linear"`, `"nearest"` or `"nearest-exact"`.
fn interpolate(
    ctx: &mut Ctx,
    (shape, dtype, code): Input,
    args: Vec<Arg>,
    span: Span,
) -> Result<Val> {
    const OP: &str = "interpolate";
    let (pos, kw) = args::split(OP, args, &["size", "mode", "align_corners"], 3, span)?;
    let sa = args::pick_once(OP, &kw, &pos, "size", 0)?
        .ok_or_else(|| Error::new(span, "`interpolate` needs the output size"))?;
    let size = args::polys(OP, sa)?;
    if size.is_empty() || size.len() > shape.len() {
        return Err(Error::new(
            sa.span,
            format!(
                "`interpolate`: {} size(s) given; they must name 1 to {} trailing axes of the input {}",
                size.len(),
                shape.len(),
                show_shape(shape)
            ),
        ));
    }
    sizes_not_negative(OP, "size", &size, sa.span)?;
    let mode_arg = args::pick_once(OP, &kw, &pos, "mode", 1)?;
    let mode = match mode_arg {
        Some(a) => args::choice(OP, "mode", a, MODES)?,
        None => "linear",
    };
    let align_arg = args::pick_once(OP, &kw, &pos, "align_corners", 2)?;
    let align = align_arg
        .map(|a| args::boolean(OP, a))
        .transpose()?
        .unwrap_or(false);
    if align && mode != "linear" {
        return Err(Error::new(
            align_arg.map_or(span, |a| a.span),
            format!("`interpolate`: align_corners applies to mode \"linear\" only, not {mode:?}"),
        ));
    }
    let lead = shape.len() - size.len();
    for (k, out) in size.iter().enumerate() {
        if shape[lead + k].as_const() == Some(0) && out.as_const() != Some(0) {
            return Err(Error::new(
                sa.span,
                format!(
                    "`interpolate`: cannot resize the empty axis {} of the input {} to {out}",
                    lead + k,
                    show_shape(shape)
                ),
            ));
        }
    }
    let mut out = shape[..lead].to_vec();
    out.extend(size.iter().cloned());
    let sc = usizes_code(&size);
    let mode = match mode {
        "nearest" => quote!(Nearest),
        "nearest-exact" => quote!(NearestExact),
        _ => quote!(Linear),
    };
    Ok(ctx.bind(
        out,
        dtype,
        quote!(#code.interpolate(#sc, ::tg::untyped::gather::Interpolation::#mode, #align)),
    ))
}

/// `v.max_unpool2d(indices, kernel, stride =, padding =, dilation =, output_size =)`: the
/// values and indices of `max_pool2d_with_indices` placed in a zero tensor of the pooled
/// input's spatial size (the pool's arithmetic inverted, or the last entries of
/// `output_size`). Values are summed, so the dtype is `sum`'s.
fn max_unpool2d(
    ctx: &mut Ctx,
    (shape, dtype, code): Input,
    recv: &Arg,
    args: Vec<Arg>,
    span: Span,
) -> Result<Val> {
    const OP: &str = "max_unpool2d";
    let (pos, kw) = args::split(
        OP,
        args,
        &[
            "indices",
            "kernel",
            "stride",
            "padding",
            "dilation",
            "output_size",
        ],
        2,
        span,
    )?;
    if shape.len() < 3 {
        return Err(Error::new(
            recv.span,
            format!(
                "`max_unpool2d` needs values (N, C, spatial..), got shape {}",
                show_shape(shape)
            ),
        ));
    }
    let ia = args::pick_once(OP, &kw, &pos, "indices", 0)?.ok_or_else(|| {
        Error::new(
            span,
            "`max_unpool2d` needs the indices from `max_pool2d_with_indices`",
        )
    })?;
    let (is, idt, ic) = args::tensor(OP, ia)?;
    let (is, ic) = (is.to_vec(), ic.clone());
    if is.len() != shape.len() {
        return Err(Error::new(
            ia.span,
            format!(
                "`max_unpool2d`: indices of shape {} for values of shape {}",
                show_shape(&is),
                show_shape(shape)
            ),
        ));
    }
    for (a, (x, y)) in is.iter().zip(shape).enumerate() {
        ctx.require_equal(x, y, ia.span, || {
            format!(
                "`max_unpool2d`: indices of shape {} for values of shape {}: axis {a} is {x}, not {y}",
                show_shape(&is),
                show_shape(shape)
            )
        })?;
    }
    if !idt.is_int() {
        return Err(Error::new(
            ia.span,
            format!(
                "`max_unpool2d` takes integer indices, not {}",
                idt.rust_name()
            ),
        ));
    }
    let dims = shape.len() - 2;
    let kspan = arg_span(&kw, "kernel", pos.get(1).map_or(span, |a| a.span));
    let kernel = args::sizes(OP, args::pick_once(OP, &kw, &pos, "kernel", 1)?, 2, dims)?;
    positive(OP, "kernel", &kernel, kspan)?;
    let stride = match args::pick_once(OP, &kw, &[], "stride", usize::MAX)? {
        Some(a) => args::sizes(OP, Some(a), 1, dims)?,
        None => kernel.clone(),
    };
    positive(OP, "stride", &stride, arg_span(&kw, "stride", span))?;
    let dilation = keyword_sizes(OP, &kw, "dilation", 1, 1, dims, span)?;
    let pads = args::padding(
        OP,
        args::pick_once(OP, &kw, &[], "padding", usize::MAX)?,
        dims,
    )?;
    pads_in_range(OP, &pads, arg_span(&kw, "padding", span))?;
    let mut out = shape[..2].to_vec();
    let size_code = match args::pick_once(OP, &kw, &[], "output_size", usize::MAX)? {
        Some(a) => {
            let sz = args::polys(OP, a)?;
            if sz.len() < dims {
                return Err(Error::new(
                    a.span,
                    format!(
                        "`max_unpool2d`: output_size has {} entries, fewer than the {dims} spatial axes of {}",
                        sz.len(),
                        show_shape(shape)
                    ),
                ));
            }
            sizes_not_negative(OP, "output_size", &sz, a.span)?;
            out.extend(sz[sz.len() - dims..].iter().cloned());
            let c = usizes_code(&sz);
            quote!(Some(#c))
        }
        None => {
            for a in 0..dims {
                let extent = dilation[a] * (kernel[a] - 1) + 1;
                let size = shape[2 + a]
                    .sub(&Poly::constant(1))
                    .scale(stride[a])
                    .add(&Poly::constant(extent - pads[a].0 - pads[a].1));
                if let Some(n) = size.as_const()
                    && n < 0
                {
                    return Err(Error::new(
                        span,
                        format!(
                            "`max_unpool2d`: kernel {kernel:?}, stride {stride:?} and padding {pads:?} give a negative size {n} on spatial axis {} of {}",
                            2 + a,
                            show_shape(shape)
                        ),
                    ));
                }
                out.push(size);
            }
            quote!(None)
        }
    };
    let (k, st, dl, pd) = (
        sizes_code(&kernel),
        sizes_code(&stride),
        sizes_code(&dilation),
        pads_code(&pads),
    );
    Ok(ctx.bind(
        out,
        dtype.sum_dtype(),
        quote!(#code.max_unpool2d(&#ic, &::tg::Pool::new(#k).stride(#st).dilation(#dl).padding(#pd), #size_code)),
    ))
}
