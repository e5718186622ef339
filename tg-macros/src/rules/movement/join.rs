//! Joining and cutting: cat, stack (along a new axis), chunk (a number of pieces), split (by
//! sizes, or by a piece size).

use proc_macro2::Ident;
use quote::quote;
use syn::{Error, Result};
use tg_core::Checker;
use tg_core::shape::{join, norm_axis, norm_new_axis};

use super::{Call, bind_list, few_pieces, usize_code};
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};
use crate::rules::args;
use crate::sym::Poly;

/// `x.cat([y, z], axis = 0)` / `x.stack([y, z], axis = 0)`. Each operand is checked against
/// the receiver at its own span.
pub(super) fn cat(ctx: &mut Ctx, c: Call, stack: bool) -> Result<Val> {
    c.count(1, 2)?;
    let others: Vec<Arg> = match &c.args[0].val {
        Val::List(items) => items
            .iter()
            .map(|v| Arg::new(v.clone(), c.args[0].span))
            .collect(),
        _ => vec![c.args[0].clone()],
    };
    let ax = c.int_or(1, 0)?;
    if stack {
        ctx.rule(c.at(1), |_| norm_new_axis(c.op, ax, &c.shape))?;
    } else if !c.shape.is_empty() {
        ctx.rule(c.at(1), |_| norm_axis(c.op, ax, &c.shape))?;
    }
    let join_rule = |ck: &mut Checker<Poly>, shapes: &[&[Poly]]| {
        if stack {
            join::stack(ck, shapes, ax)
        } else {
            join::cat(ck, shapes, ax)
        }
    };
    let mut dtype = c.dtype;
    let mut shapes = vec![c.shape.clone()];
    let mut codes = vec![c.code.clone()];
    for o in &others {
        let (s, d, code) = args::tensor(c.op, o)?;
        ctx.rule(o.span, |ck| join_rule(ck, &[&c.shape, s]))?;
        dtype = dtype.least_upper(d);
        shapes.push(s.to_vec());
        codes.push(code.clone());
    }
    // every pair was checked above: this only adds up the sizes
    let all: Vec<&[Poly]> = shapes.iter().map(Vec::as_slice).collect();
    let (_, out) =
        join_rule(&mut Checker::new(), &all).map_err(|e| Error::new(c.span, e.to_string()))?;
    let f = Ident::new(c.op, c.span);
    Ok(ctx.bind(
        out,
        dtype,
        quote!(::tg::DynTensor::#f(&[#(#codes.clone()),*], #ax as isize)),
    ))
}

/// `x.chunk(n, axis = 0)`: `n` must be a literal, since it is the number of tensors.
pub(super) fn chunk(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 2)?;
    let n = args::poly(c.op, &c.args[0])?;
    let Some(n) = n.as_const() else {
        return Err(Error::new(
            c.at(0),
            format!(
                "`chunk` needs a literal chunk count: the number of tensors it returns must be known at compile time (found {n})"
            ),
        ));
    };
    if n <= 0 {
        return Err(Error::new(
            c.at(0),
            format!("`chunk`: the number of chunks must be positive, found {n}"),
        ));
    }
    // every count is at most `n` pieces (fewer when the last chunks would be empty)
    few_pieces(c.op, n as usize, c.at(0))?;
    let ax = c.int_or(1, 0)?;
    args::axis(c.op, ax, &c.shape, c.at(1))?;
    let (_, pieces) = ctx.rule(c.at(0), |_| join::chunk(&c.shape, n as usize, ax))?;
    let code = &c.code;
    Ok(bind_list(
        ctx,
        pieces,
        c.dtype,
        quote!(#code.chunk(#n as usize, #ax as isize)),
    ))
}

/// `x.split([2, 3], axis = 0)` (sizes that add up to the axis) or `x.split(2, axis = 0)`
/// (pieces of 2, the last smaller).
pub(super) fn split(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 2)?;
    let ax = c.int_or(1, 0)?;
    let n = args::axis(c.op, ax, &c.shape, c.at(1))?;
    let code = &c.code;
    if let Val::List(_) = &c.args[0].val {
        let sizes = args::polys(c.op, &c.args[0])?;
        few_pieces(c.op, sizes.len(), c.at(0))?;
        args::bounded(c.op, &sizes, c.at(0))?;
        if let Some(s) = sizes.iter().find(|s| s.as_const().is_some_and(|k| k < 0)) {
            return Err(Error::new(
                c.at(0),
                format!(
                    "`split`: size {s} in {} is negative",
                    crate::kernel::value::show_shape(&sizes)
                ),
            ));
        }
        let (_, pieces) = ctx.rule(c.at(0), |ck| join::split(ck, &c.shape, &sizes, ax))?;
        let items = sizes.iter().map(usize_code);
        return Ok(bind_list(
            ctx,
            pieces,
            c.dtype,
            quote!(#code.split(&[#(#items),*], #ax as isize)),
        ));
    }
    let size = args::int(c.op, &c.args[0])?;
    if size <= 0 {
        return Err(Error::new(
            c.at(0),
            format!("`split`: the piece size must be positive, found {size}"),
        ));
    }
    // the number of pieces first: each becomes a local
    if let Some(len) = c.shape[n].as_const() {
        few_pieces(c.op, ((len - 1).max(0) / size + 1) as usize, c.at(0))?;
    }
    let (_, pieces) = ctx.rule(c.at(0), |_| join::split_every(&c.shape, size as usize, ax))?;
    Ok(bind_list(
        ctx,
        pieces,
        c.dtype,
        quote!(#code.split_every(#size as usize, #ax as isize)),
    ))
}
