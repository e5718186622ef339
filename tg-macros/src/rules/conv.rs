//! Convolutions: `conv2d` (any number of spatial axes, as tinygrad's) and
//! `conv_transpose2d`. Channel, bias and window errors name the op, both shapes and the axis;
//! conv2d's shape rule is tg-core's (`shape::window`), checked piece by piece so each error
//! points at the argument at fault.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Error, Result};
use tg_core::shape::window;

use super::args::{self, Input};
use super::ops;
use super::window::{
    MAX_SIZE, arg_span, conv_dtype, keyword_sizes, pads_code, pads_in_range, positive, sizes_code,
};
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::Poly;

ops! {
    /// The convolutions.
    pub enum ConvOp {
        Conv2d = "conv2d",
        ConvTranspose2d = "conv_transpose2d",
    }
}

pub fn apply(ctx: &mut Ctx, op: ConvOp, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let (shape, dtype, code) = args::tensor(op.name(), &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    let x = (shape.as_slice(), dtype, &code);
    match op {
        ConvOp::Conv2d => conv2d(ctx, x, args, span),
        ConvOp::ConvTranspose2d => conv_transpose2d(ctx, x, args, span),
    }
}

/// `x.conv2d(w, bias, stride =, padding =, dilation =, groups =)`: the input `(N, C,
/// *spatial)`, the weight `(Cout, C / groups, *kernel)`.
fn conv2d(ctx: &mut Ctx, (shape, dtype, code): Input, args: Vec<Arg>, span: Span) -> Result<Val> {
    const OP: &str = "conv2d";
    let (pos, kw) = args::split(
        OP,
        args,
        &["bias", "stride", "padding", "dilation", "groups"],
        2,
        span,
    )?;
    let w = pos
        .first()
        .ok_or_else(|| Error::new(span, "`conv2d` needs the weight"))?;
    let (ws, wd, wc) = args::tensor(OP, w)?;
    let (ws, wc): (Vec<Poly>, TokenStream) = (ws.to_vec(), wc.clone());
    let dims = shape.len().saturating_sub(2);
    let groups = match args::pick(&kw, &[], "groups", usize::MAX) {
        Some(a) => {
            let g = args::int(OP, a)?;
            positive(OP, "groups", &[g], a.span)?;
            g
        }
        None => 1,
    };
    ctx.rule(w.span, |ck| {
        window::conv_channels(ck, OP, shape, &ws, groups as usize)
    })?;
    let stride = keyword_sizes(OP, &kw, "stride", 1, 1, dims, span)?;
    let dilation = keyword_sizes(OP, &kw, "dilation", 1, 1, dims, span)?;
    let pads = args::padding(OP, args::pick(&kw, &[], "padding", usize::MAX), dims)?;
    pads_in_range(OP, &pads, arg_span(&kw, "padding", span))?;
    let mut bias_dt = None;
    let bias = match args::pick(&kw, &pos, "bias", 1) {
        Some(b) => {
            let (bs, bd, bc) = args::tensor(OP, b)?;
            bias_dt = Some(bd);
            ctx.rule(b.span, |ck| window::conv_bias(ck, OP, &ws[0], bs))?;
            let bc = bc.clone();
            quote!(Some(&#bc))
        }
        None => quote!(None),
    };
    let out = ctx.rule(span, |ck| {
        window::conv_windows(
            ck,
            OP,
            shape,
            &ws,
            &super::window::sizes(&stride),
            &super::window::sizes(&dilation),
            &super::window::padding(&pads),
        )
    })?;
    let out_dt = conv_dtype(dtype.least_upper(wd), bias_dt);
    let (st, dl, pd) = (sizes_code(&stride), sizes_code(&dilation), pads_code(&pads));
    Ok(ctx.bind(
        out,
        out_dt,
        quote!(#code.conv2d(&#wc, #bias, &::tg::Conv::new().groups(#groups as usize).stride(#st).dilation(#dl).padding(#pd))),
    ))
}

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
