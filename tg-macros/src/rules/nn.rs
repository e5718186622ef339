//! Neural-network ops whose output sizes are arithmetic of the input's: convolution, pooling,
//! normalization, one-hot and gather. Channel and size errors name the op, both shapes and the
//! offending axis.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Error, Result};

use super::args;
use crate::dtype::Dt;
use crate::dtype_rules::{float_of, least_upper, sum_dtype};
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
            let bias = match args::pick(&kw, &pos, "bias", 1) {
                Some(b) => {
                    let (bs, _, bc) = args::tensor(name, b)?;
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
            let meet = least_upper(dtype, wd);
            let out_dt = if meet.is_float() {
                meet
            } else {
                sum_dtype(meet)
            };
            let (st, dl, pd) = (sizes_code(&stride), sizes_code(&dilation), pads_code(&pads));
            Ok(ctx.bind(
                out,
                out_dt,
                quote!(#code.conv2d(&#wc, #bias, &::tg::Conv::new().groups(#groups as usize).stride(#st).dilation(#dl).padding(#pd))),
            ))
        }
        "max_pool2d" | "avg_pool2d" => {
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
            let method = proc_macro2::Ident::new(name, span);
            let dt = if name == "avg_pool2d" {
                float_of(dtype)
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
            Ok(ctx.bind(shape, float_of(dtype), quote!(#code.layernorm(#s, #eps))))
        }
        "one_hot" => {
            args::count(name, &args, 1, 1, span)?;
            if !dtype.is_int() {
                return Err(Error::new(
                    recv.span,
                    format!(
                        "`one_hot` takes integer class indices, this tensor is {}",
                        dtype.name()
                    ),
                ));
            }
            let n = args::poly(name, &args[0])?;
            let c = n.to_tokens(&|_| quote!(0usize));
            let mut out = shape.clone();
            out.push(n);
            Ok(ctx.bind(out, Dt::I32, quote!(#code.one_hot(#c))))
        }
        _ => {
            // gather(dim, index): the index's shape, the input's dtype
            args::count(name, &args, 2, 2, span)?;
            let d = args::int(name, &args[0])?;
            let (is, idt, ic) = args::tensor(name, &args[1])?;
            if !idt.is_int() {
                return Err(Error::new(
                    args[1].span,
                    format!("`gather` takes integer indices, not {}", idt.name()),
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
