//! Ops built of expand and strided views: repeat, repeat_interleave, roll, diagonal.

use quote::quote;
use syn::{Error, Result};
use tg_core::shape::movement;

use super::Call;
use crate::kernel::infer::Ctx;
use crate::kernel::value::Val;
use crate::rules::args;

/// A count that tg-ops takes as `usize`: an error when negative.
fn count(c: &Call, i: usize, what: &str) -> Result<usize> {
    let v = args::int(c.op, &c.args[i])?;
    usize::try_from(v)
        .map_err(|_| Error::new(c.at(i), format!("`{}`: the {what} {v} is negative", c.op)))
}

/// `x.repeat([2, 1, 3])`: each axis tiled (extra leading counts add axes).
pub(super) fn repeat(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 1)?;
    let reps = args::ints(c.op, &c.args[0])?
        .into_iter()
        .map(|r| {
            usize::try_from(r)
                .map_err(|_| Error::new(c.at(0), format!("`repeat`: the count {r} is negative")))
        })
        .collect::<Result<Vec<usize>>>()?;
    let out = ctx.rule(c.at(0), |_| movement::repeat(&c.shape, &reps))?;
    let items = reps.iter().map(|&r| quote!(#r as usize));
    let code = &c.code;
    Ok(ctx.bind(out, c.dtype, quote!(#code.repeat(&[#(#items),*]))))
}

/// `x.repeat_interleave(n, axis?)`: each element `n` times along the axis (over the flattened
/// tensor without one).
pub(super) fn repeat_interleave(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 2)?;
    let n = count(&c, 0, "repeat count")?;
    let axis = c
        .args
        .get(1)
        .map(|a| args::isize_arg(c.op, a))
        .transpose()?;
    let out = ctx.rule(c.at(1), |_| movement::repeat_interleave(&c.shape, n, axis))?;
    let code = &c.code;
    let a = match axis {
        Some(ax) => quote!(Some(#ax as isize)),
        None => quote!(None),
    };
    Ok(ctx.bind(
        out,
        c.dtype,
        quote!(#code.repeat_interleave(#n as usize, #a)),
    ))
}

/// `x.roll(shifts, axes?)`.
pub(super) fn roll(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 2)?;
    let shifts = args::axes(c.op, &c.args[0])?;
    let axes = c.args.get(1).map(|a| args::axes(c.op, a)).transpose()?;
    ctx.rule(c.at(1), |_| {
        movement::roll(&c.shape, &shifts, axes.as_deref())
    })?;
    let s = args::isize_slice(&shifts);
    let a = match &axes {
        Some(v) => {
            let s = args::isize_slice(v);
            quote!(Some(#s))
        }
        None => quote!(None),
    };
    let code = &c.code;
    Ok(ctx.bind(c.shape.clone(), c.dtype, quote!(#code.roll(#s, #a))))
}

/// `x.diagonal(offset = 0, dim1 = 0, dim2 = 1)`: numpy's defaults, the main diagonal of axes
/// 0 and 1.
pub(super) fn diagonal(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(0, 3)?;
    let (off, d1, d2) = (c.int_or(0, 0)?, c.int_or(1, 0)?, c.int_or(2, 1)?);
    ctx.rule(c.recv.span, |_| movement::require_rank(c.op, &c.shape, 2))?;
    args::axis(c.op, d1, &c.shape, c.at(1))?;
    args::axis(c.op, d2, &c.shape, c.at(2))?;
    let (_, out) = ctx.rule(c.span, |ck| movement::diagonal(ck, &c.shape, off, d1, d2))?;
    let code = &c.code;
    Ok(ctx.bind(
        out,
        c.dtype,
        quote!(#code.diagonal(#off as isize, #d1 as isize, #d2 as isize)),
    ))
}
