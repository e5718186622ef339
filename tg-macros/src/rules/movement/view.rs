//! Views: reshape, permute, transpose, t, expand, broadcast_to, squeeze, unsqueeze, flatten,
//! unflatten, flip.

use quote::quote;
use syn::Result;
use tg_core::shape::{broadcast, movement, norm_axis_scalar_ok};

use super::Call;
use crate::kernel::infer::Ctx;
use crate::kernel::value::Val;
use crate::rules::args;

/// `x.reshape([B, -1])`.
pub(super) fn reshape(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 1)?;
    let target = args::polys(c.op, &c.args[0])?;
    let t = args::targets(c.op, &target, c.at(0))?;
    let out = ctx.rule(c.at(0), |ck| movement::reshape(ck, &c.shape, &t))?;
    let (code, dims) = (&c.code, args::dims_isize(&target));
    Ok(ctx.bind(out, c.dtype, quote!(#code.reshape(#dims))))
}

/// `x.permute([2, 0, 1])`.
pub(super) fn permute(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 1)?;
    let order = args::axes(c.op, &c.args[0])?;
    let (_, out) = ctx.rule(c.at(0), |_| movement::permute(c.op, &c.shape, &order))?;
    let (code, s) = (&c.code, args::isize_slice(&order));
    Ok(ctx.bind(out, c.dtype, quote!(#code.permute(#s))))
}

/// `x.transpose(a = -2, b = -1)`.
pub(super) fn transpose(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(0, 2)?;
    let (a, b) = (c.int_or(0, -2)?, c.int_or(1, -1)?);
    args::axis(c.op, a, &c.shape, c.at(0))?;
    args::axis(c.op, b, &c.shape, c.at(1))?;
    let (_, out) = ctx.rule(c.span, |_| movement::transpose(c.op, &c.shape, a, b))?;
    let code = &c.code;
    Ok(ctx.bind(
        out,
        c.dtype,
        quote!(#code.transpose(#a as isize, #b as isize)),
    ))
}

/// `x.t()`: the last two axes swapped.
pub(super) fn t(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(0, 0)?;
    let (_, out) = ctx.rule(c.span, |_| movement::matrix_transpose(&c.shape))?;
    let code = &c.code;
    Ok(ctx.bind(out, c.dtype, quote!(#code.t())))
}

/// `x.expand([4, -1, 3])` (`-1` keeps an axis), `x.broadcast_to([4, 2, 3])`.
pub(super) fn expand(ctx: &mut Ctx, c: Call, exact: bool) -> Result<Val> {
    c.count(1, 1)?;
    let target = args::polys(c.op, &c.args[0])?;
    let t = args::targets(c.op, &target, c.at(0))?;
    let out = ctx.rule(c.at(0), |ck| broadcast::expand(ck, c.op, &c.shape, &t))?;
    let code = &c.code;
    if exact {
        let us = out.iter().map(|p| p.to_tokens(&|_| quote!(0usize)));
        return Ok(ctx.bind(
            out.clone(),
            c.dtype,
            quote!(#code.broadcast_to(&[#(#us),*])),
        ));
    }
    let dims = args::dims_isize(&target);
    Ok(ctx.bind(out, c.dtype, quote!(#code.expand(#dims))))
}

/// `x.squeeze()` (every size-1 axis), `x.squeeze(1)` (that axis, if its size is 1).
pub(super) fn squeeze(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(0, 1)?;
    let code = &c.code;
    match c.args.first() {
        None => {
            let out = ctx.rule(c.span, |_| movement::squeeze(&c.shape, None))?;
            Ok(ctx.bind(out, c.dtype, quote!(#code.squeeze(None))))
        }
        Some(a) => {
            let ax = args::isize_arg(c.op, a)?;
            let out = ctx.rule(a.span, |_| movement::squeeze(&c.shape, Some(ax)))?;
            Ok(ctx.bind(out, c.dtype, quote!(#code.squeeze(Some(#ax as isize)))))
        }
    }
}

/// `x.unsqueeze(-1)`.
pub(super) fn unsqueeze(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 1)?;
    let ax = args::isize_arg(c.op, &c.args[0])?;
    let out = ctx.rule(c.at(0), |_| movement::unsqueeze(&c.shape, ax))?;
    let code = &c.code;
    Ok(ctx.bind(out, c.dtype, quote!(#code.unsqueeze(#ax as isize))))
}

/// `x.flatten(start = 0, end = -1)`.
pub(super) fn flatten(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(0, 2)?;
    let (s, e) = (c.int_or(0, 0)?, c.int_or(1, -1)?);
    ctx.rule(c.at(0), |_| norm_axis_scalar_ok(c.op, s, &c.shape))?;
    ctx.rule(c.at(1), |_| norm_axis_scalar_ok(c.op, e, &c.shape))?;
    let out = ctx.rule(c.span, |_| movement::flatten(&c.shape, s, e))?;
    let code = &c.code;
    Ok(ctx.bind(
        out,
        c.dtype,
        quote!(#code.flatten(#s as isize, #e as isize)),
    ))
}

/// `x.unflatten(axis, [2, -1])`.
pub(super) fn unflatten(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(2, 2)?;
    let ax = args::isize_arg(c.op, &c.args[0])?;
    args::axis(c.op, ax, &c.shape, c.at(0))?;
    let sizes = args::polys(c.op, &c.args[1])?;
    let t = args::targets(c.op, &sizes, c.at(1))?;
    let out = ctx.rule(c.at(1), |ck| movement::unflatten(ck, &c.shape, ax, &t))?;
    let (code, dims) = (&c.code, args::dims_isize(&sizes));
    Ok(ctx.bind(out, c.dtype, quote!(#code.unflatten(#ax as isize, #dims))))
}

/// `x.flip([0, -1])`.
pub(super) fn flip(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 1)?;
    let axes = args::axes(c.op, &c.args[0])?;
    ctx.rule(c.at(0), |_| movement::flip(&c.shape, &axes))?;
    let (code, s) = (&c.code, args::isize_slice(&axes));
    Ok(ctx.bind(c.shape.clone(), c.dtype, quote!(#code.flip(#s))))
}
