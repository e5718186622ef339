//! Growing and cutting axes: pad (a constant), pad_with (a mode), pad_flat (torch's flat
//! form), pad_to, shrink.

use quote::quote;
use syn::{Error, Result};
use tg_core::shape::pad::{self, PadMode};

use super::{Call, pairs, pairs_code, usize_code};
use crate::kernel::infer::Ctx;
use crate::kernel::value::Val;
use crate::rules::args;

/// `x.pad([(1, 2), (-1, 0)], value = 0.0)`: a negative pad cuts.
pub(super) fn pad(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 2)?;
    let pads = pairs(c.op, &c.args[0])?;
    let out = ctx.rule(c.at(0), |ck| {
        pad::pad(ck, c.op, &c.shape, &pads, PadMode::Constant)
    })?;
    let value = c
        .args
        .get(1)
        .map(|a| args::scalar_f64(c.op, a))
        .transpose()?
        .unwrap_or(quote!(0.0f64));
    let (code, p) = (&c.code, pairs_code(&pads));
    Ok(ctx.bind(out, c.dtype, quote!(#code.pad(#p, #value))))
}

/// `x.pad_with(pads, "reflect")`, `x.pad_with(pads, "constant", 1.0)`, or a value alone for
/// the constant mode (`PadMode::constant(v)`).
pub(super) fn pad_with(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 3)?;
    let pads = pairs(c.op, &c.args[0])?;
    let (mode, value) = match c.args.get(1) {
        None => (PadMode::Constant, None),
        Some(a) if matches!(a.val, Val::Str(_)) => {
            let name = args::choice(c.op, "pad mode", a, &PadMode::NAMES)?;
            let m = PadMode::from_name(name).unwrap_or(PadMode::Constant);
            if m != PadMode::Constant && c.args.len() > 2 {
                return Err(Error::new(
                    c.at(2),
                    format!(
                        "`pad_with`: a value is only for the \"constant\" mode, not {:?}",
                        m.name()
                    ),
                ));
            }
            (m, c.args.get(2))
        }
        Some(a) => {
            if c.args.len() > 2 {
                return Err(Error::new(
                    c.at(2),
                    "`pad_with` takes a mode and a value, or a value alone for the constant mode",
                ));
            }
            (PadMode::Constant, Some(a))
        }
    };
    let out = ctx.rule(c.at(0), |ck| pad::pad(ck, c.op, &c.shape, &pads, mode))?;
    let mode_code = match mode {
        PadMode::Constant => {
            let v = value
                .map(|a| args::scalar_any(c.op, a))
                .transpose()?
                .unwrap_or(quote!(0i64));
            quote!(::tg::untyped::pad_modes::PadMode::constant(#v))
        }
        PadMode::Reflect => quote!(::tg::untyped::pad_modes::PadMode::Reflect),
        PadMode::Replicate => quote!(::tg::untyped::pad_modes::PadMode::Replicate),
        PadMode::Circular => quote!(::tg::untyped::pad_modes::PadMode::Circular),
    };
    let (code, p) = (&c.code, pairs_code(&pads));
    Ok(ctx.bind(out, c.dtype, quote!(#code.pad_with(#p, #mode_code))))
}

/// `x.pad_flat([last_before, last_after, ...], value)`: torch's flat form, pairs from the last
/// axis backwards.
pub(super) fn pad_flat(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 2)?;
    let flat = args::axes(c.op, &c.args[0])?;
    let out = ctx.rule(c.at(0), |ck| {
        let grouped = pad::group_flat_pads(c.op, &c.shape, &flat)?;
        pad::pad(ck, c.op, &c.shape, &grouped, PadMode::Constant)
    })?;
    let v = c
        .args
        .get(1)
        .map(|a| args::scalar_any(c.op, a))
        .transpose()?
        .unwrap_or(quote!(0i64));
    let (code, s) = (&c.code, args::isize_slice(&flat));
    Ok(ctx.bind(out, c.dtype, quote!(#code.pad_flat(#s, #v))))
}

/// `x.pad_to([4, -1])`: zeros at the end of each axis up to the target (`-1` keeps an axis,
/// tg-ops' `None`, which a kernel body cannot spell).
pub(super) fn pad_to(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 1)?;
    let target = args::polys(c.op, &c.args[0])?;
    let t = args::targets(c.op, &target, c.at(0))?;
    let out = ctx.rule(c.at(0), |ck| pad::resize_to(ck, c.op, &c.shape, &t, true))?;
    let items = t.iter().map(|d| match d {
        None => quote!(None),
        Some(p) => {
            let u = usize_code(p);
            quote!(Some(#u))
        }
    });
    let code = &c.code;
    Ok(ctx.bind(out, c.dtype, quote!(#code.pad_to(&[#(#items),*]))))
}

/// `x.shrink([(0, 1), (1, 3)])`: `start..end` of each axis.
pub(super) fn shrink(ctx: &mut Ctx, c: Call) -> Result<Val> {
    c.count(1, 1)?;
    let ranges = pairs(c.op, &c.args[0])?;
    let out = ctx.rule(c.at(0), |ck| pad::shrink(ck, c.op, &c.shape, &ranges))?;
    let items = ranges.iter().map(|&(s, e)| {
        let (s, e) = (s as i64, e as i64);
        quote!((#s as usize, #e as usize))
    });
    let code = &c.code;
    Ok(ctx.bind(out, c.dtype, quote!(#code.shrink(&[#(#items),*]))))
}
