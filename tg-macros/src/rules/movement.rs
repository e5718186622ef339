//! Movement ops: the output shape is arithmetic on the input's (symbolic) dims.

use proc_macro2::{Ident, Span};
use quote::quote;
use syn::{Error, Result};

use super::args;
use crate::dtype_rules::least_upper;
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::{Equal, Poly};

pub const NAMES: &[&str] = &[
    "reshape",
    "permute",
    "transpose",
    "t",
    "expand",
    "broadcast_to",
    "squeeze",
    "unsqueeze",
    "flatten",
    "unflatten",
    "flip",
    "pad",
    "shrink",
    "repeat",
    "repeat_interleave",
    "roll",
    "cat",
    "stack",
];

/// `total / known` when it divides exactly, also symbolically (`784*B / 28*B`).
fn exact_div(total: &Poly, known: &Poly) -> Option<Poly> {
    if let Some(k) = known.as_const() {
        if k == 0 {
            return None;
        }
        let q = total.div(k);
        return (q.mul(known).equal(total) == Equal::Yes).then_some(q);
    }
    // divide by a monomial's symbols: try each candidate quotient factor
    let q_sym = crate::sym::Poly::divide_monomial(total, known)?;
    (q_sym.mul(known).equal(total) == Equal::Yes).then_some(q_sym)
}

/// Resolves one `-1` in a target shape against the element count `total`.
pub fn infer_reshape(op: &str, input: &[Poly], target: &[Poly], span: Span) -> Result<Vec<Poly>> {
    let total = Poly::product(input);
    let minus: Vec<usize> = (0..target.len())
        .filter(|&i| target[i].as_const() == Some(-1))
        .collect();
    if minus.len() > 1 {
        return Err(Error::new(
            span,
            format!(
                "`{op}`: only one dimension may be -1, the target {} has {}",
                show_shape(target),
                minus.len()
            ),
        ));
    }
    let mut out = target.to_vec();
    if let Some(&i) = minus.first() {
        let known = Poly::product(
            &target
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, d)| d.clone())
                .collect::<Vec<_>>(),
        );
        out[i] = exact_div(&total, &known).ok_or_else(|| {
            Error::new(
                span,
                format!(
                    "`{op}`: cannot infer the -1 in {}: {} elements ({total}) are not a multiple of {known}",
                    show_shape(target),
                    show_shape(input)
                ),
            )
        })?;
    }
    Ok(out)
}

pub fn apply(ctx: &mut Ctx, name: &str, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    if name == "cat" || name == "stack" {
        return cat(ctx, name, recv, args, span);
    }
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    let m = Ident::new(name, span);
    let at = |i: usize| args.get(i).map(|a| a.span).unwrap_or(span);
    match name {
        "reshape" => {
            args::count(name, &args, 1, 1, span)?;
            let target = args::polys(name, &args[0])?;
            let out = infer_reshape(name, &shape, &target, at(0))?;
            let (a, b) = (Poly::product(&shape), Poly::product(&out));
            ctx.require_equal(&a, &b, at(0), || {
                format!(
                    "`reshape`: cannot reshape {} ({a} elements) to {} ({b} elements)",
                    show_shape(&shape),
                    show_shape(&out)
                )
            })?;
            let dims = args::dims_isize(&target);
            Ok(ctx.bind(out, dtype, quote!(#code.reshape(#dims))))
        }
        "permute" => {
            args::count(name, &args, 1, 1, span)?;
            let order = args::ints(name, &args[0])?;
            if order.len() != shape.len() {
                return Err(Error::new(
                    at(0),
                    format!(
                        "`permute`: {} axes given for a tensor of rank {} ({})",
                        order.len(),
                        shape.len(),
                        show_shape(&shape)
                    ),
                ));
            }
            let mut seen = Vec::new();
            for &a in &order {
                let n = args::axis(name, a, &shape, at(0))?;
                if seen.contains(&n) {
                    return Err(Error::new(
                        at(0),
                        format!("`permute`: axis {a} appears twice in {order:?}"),
                    ));
                }
                seen.push(n);
            }
            let out = seen.iter().map(|&i| shape[i].clone()).collect();
            let s = args::isize_slice(&order);
            Ok(ctx.bind(out, dtype, quote!(#code.permute(#s))))
        }
        "transpose" => {
            args::count(name, &args, 0, 2, span)?;
            let a = args
                .first()
                .map(|a| args::int(name, a))
                .transpose()?
                .unwrap_or(-2);
            let b = args
                .get(1)
                .map(|a| args::int(name, a))
                .transpose()?
                .unwrap_or(-1);
            let (x, y) = (
                args::axis(name, a, &shape, at(0))?,
                args::axis(name, b, &shape, at(1))?,
            );
            let mut out = shape.clone();
            out.swap(x, y);
            Ok(ctx.bind(
                out,
                dtype,
                quote!(#code.transpose(#a as isize, #b as isize)),
            ))
        }
        "t" => {
            args::count(name, &args, 0, 0, span)?;
            if shape.len() < 2 {
                return Err(Error::new(
                    span,
                    format!(
                        "`t` needs rank 2 or more, the tensor is {}",
                        show_shape(&shape)
                    ),
                ));
            }
            let mut out = shape.clone();
            let r = out.len();
            out.swap(r - 2, r - 1);
            Ok(ctx.bind(out, dtype, quote!(#code.t())))
        }
        "expand" | "broadcast_to" => {
            args::count(name, &args, 1, 1, span)?;
            let target = args::polys(name, &args[0])?;
            if target.len() < shape.len() {
                return Err(Error::new(
                    at(0),
                    format!(
                        "`{name}`: cannot broadcast {} to the lower rank {}",
                        show_shape(&shape),
                        show_shape(&target)
                    ),
                ));
            }
            let off = target.len() - shape.len();
            let mut out = target.clone();
            for (i, d) in shape.iter().enumerate() {
                let t = &target[off + i];
                if t.as_const() == Some(-1) {
                    out[off + i] = d.clone();
                } else if d.as_const() != Some(1) {
                    ctx.require_equal(d, t, at(0), || {
                        format!(
                            "`{name}`: cannot broadcast {} to {}: axis {i} is {d}, not 1 or {t}",
                            show_shape(&shape),
                            show_shape(&target)
                        )
                    })?;
                }
            }
            let dims = args::dims_isize(&target);
            if name == "broadcast_to" {
                let us: Vec<proc_macro2::TokenStream> = out
                    .iter()
                    .map(|p| p.to_tokens(&|_| quote!(0usize)))
                    .collect();
                return Ok(ctx.bind(out, dtype, quote!(#code.broadcast_to(&[#(#us),*]))));
            }
            Ok(ctx.bind(out, dtype, quote!(#code.expand(#dims))))
        }
        "squeeze" => {
            args::count(name, &args, 0, 1, span)?;
            match args.first() {
                None => {
                    let out = shape
                        .iter()
                        .filter(|d| d.as_const() != Some(1))
                        .cloned()
                        .collect();
                    Ok(ctx.bind(out, dtype, quote!(#code.squeeze(None))))
                }
                Some(a) => {
                    let ax = args::int(name, a)?;
                    let n = args::axis(name, ax, &shape, a.span)?;
                    let mut out = shape.clone();
                    // tinygrad: squeezing an axis that is not 1 leaves the tensor as it is
                    if shape[n].as_const() == Some(1) {
                        out.remove(n);
                    } else if shape[n].as_const().is_none() {
                        return Err(Error::new(
                            a.span,
                            format!(
                                "`squeeze`: axis {ax} has the symbolic size {}; its rank after squeeze would depend on it",
                                shape[n]
                            ),
                        ));
                    }
                    Ok(ctx.bind(out, dtype, quote!(#code.squeeze(Some(#ax as isize)))))
                }
            }
        }
        "unsqueeze" => {
            args::count(name, &args, 1, 1, span)?;
            let ax = args::int(name, &args[0])?;
            let r = shape.len() as i64 + 1;
            if ax < -r || ax >= r {
                return Err(Error::new(
                    at(0),
                    format!(
                        "`unsqueeze`: axis {ax} is out of range for a new axis of a tensor of shape {} (rank {})",
                        show_shape(&shape),
                        r - 1
                    ),
                ));
            }
            let n = if ax < 0 {
                (ax + r) as usize
            } else {
                ax as usize
            };
            let mut out = shape.clone();
            out.insert(n, Poly::constant(1));
            Ok(ctx.bind(out, dtype, quote!(#code.unsqueeze(#ax as isize))))
        }
        "flatten" => {
            args::count(name, &args, 0, 2, span)?;
            if shape.is_empty() {
                return Ok(ctx.bind(vec![Poly::constant(1)], dtype, quote!(#code.flatten(0, -1))));
            }
            let s = args
                .first()
                .map(|a| args::int(name, a))
                .transpose()?
                .unwrap_or(0);
            let e = args
                .get(1)
                .map(|a| args::int(name, a))
                .transpose()?
                .unwrap_or(-1);
            let (a, b) = (
                args::axis(name, s, &shape, at(0))?,
                args::axis(name, e, &shape, at(1))?,
            );
            if a > b {
                return Err(Error::new(
                    span,
                    format!("`flatten`: start axis {s} comes after end axis {e}"),
                ));
            }
            let mut out = shape[..a].to_vec();
            out.push(Poly::product(&shape[a..=b]));
            out.extend_from_slice(&shape[b + 1..]);
            Ok(ctx.bind(out, dtype, quote!(#code.flatten(#s as isize, #e as isize))))
        }
        "unflatten" => {
            args::count(name, &args, 2, 2, span)?;
            let ax = args::int(name, &args[0])?;
            let n = args::axis(name, ax, &shape, at(0))?;
            let sizes = infer_reshape(name, &shape[n..=n], &args::polys(name, &args[1])?, at(1))?;
            let (a, b) = (shape[n].clone(), Poly::product(&sizes));
            ctx.require_equal(&a, &b, at(1), || {
                format!(
                    "`unflatten`: axis {ax} has {a} elements, the sizes {} make {b}",
                    show_shape(&sizes)
                )
            })?;
            let dims = args::dims_isize(&args::polys(name, &args[1])?);
            let mut out = shape[..n].to_vec();
            out.extend(sizes);
            out.extend_from_slice(&shape[n + 1..]);
            Ok(ctx.bind(out, dtype, quote!(#code.unflatten(#ax as isize, #dims))))
        }
        "flip" => {
            args::count(name, &args, 1, 1, span)?;
            let axes = args::ints(name, &args[0])?;
            for &a in &axes {
                args::axis(name, a, &shape, at(0))?;
            }
            let s = args::isize_slice(&axes);
            Ok(ctx.bind(shape, dtype, quote!(#code.flip(#s))))
        }
        "pad" => {
            args::count(name, &args, 1, 2, span)?;
            let pads = args::pairs(name, &args[0])?;
            if pads.len() != shape.len() {
                return Err(Error::new(
                    at(0),
                    format!(
                        "`pad`: {} (before, after) pairs for a tensor of rank {} ({})",
                        pads.len(),
                        shape.len(),
                        show_shape(&shape)
                    ),
                ));
            }
            let out = shape
                .iter()
                .zip(&pads)
                .map(|(d, &(b, a))| d.add(&Poly::constant(b + a)))
                .collect();
            let value = args
                .get(1)
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(quote!(0.0f64));
            let items = pads
                .iter()
                .map(|&(b, a)| quote!((#b as isize, #a as isize)));
            Ok(ctx.bind(out, dtype, quote!(#code.pad(&[#(#items),*], #value))))
        }
        "shrink" => {
            args::count(name, &args, 1, 1, span)?;
            let ranges = args::pairs(name, &args[0])?;
            if ranges.len() != shape.len() {
                return Err(Error::new(
                    at(0),
                    format!(
                        "`shrink`: {} ranges for a tensor of rank {} ({})",
                        ranges.len(),
                        shape.len(),
                        show_shape(&shape)
                    ),
                ));
            }
            let mut out = Vec::new();
            for (i, (d, &(s, e))) in shape.iter().zip(&ranges).enumerate() {
                if s < 0 || e < s || d.as_const().is_some_and(|n| e > n) {
                    return Err(Error::new(
                        at(0),
                        format!(
                            "`shrink`: range {s}..{e} does not fit axis {i} of size {d} ({})",
                            show_shape(&shape)
                        ),
                    ));
                }
                out.push(Poly::constant(e - s));
            }
            let items = ranges
                .iter()
                .map(|&(s, e)| quote!((#s as usize, #e as usize)));
            Ok(ctx.bind(out, dtype, quote!(#code.shrink(&[#(#items),*]))))
        }
        "repeat" => {
            args::count(name, &args, 1, 1, span)?;
            let reps = args::ints(name, &args[0])?;
            if reps.len() < shape.len() || reps.iter().any(|&r| r < 0) {
                return Err(Error::new(
                    at(0),
                    format!(
                        "`repeat`: {reps:?} does not fit a tensor of shape {}",
                        show_shape(&shape)
                    ),
                ));
            }
            let off = reps.len() - shape.len();
            let out = reps
                .iter()
                .enumerate()
                .map(|(i, &r)| {
                    if i < off {
                        Poly::constant(r)
                    } else {
                        shape[i - off].scale(r)
                    }
                })
                .collect();
            let items = reps.iter().map(|&r| quote!(#r as usize));
            Ok(ctx.bind(out, dtype, quote!(#code.repeat(&[#(#items),*]))))
        }
        "repeat_interleave" => {
            args::count(name, &args, 1, 2, span)?;
            let n = args::int(name, &args[0])?;
            match args.get(1) {
                Some(a) => {
                    let ax = args::int(name, a)?;
                    let i = args::axis(name, ax, &shape, a.span)?;
                    let mut out = shape.clone();
                    out[i] = out[i].scale(n);
                    Ok(ctx.bind(
                        out,
                        dtype,
                        quote!(#code.repeat_interleave(#n as usize, Some(#ax as isize))),
                    ))
                }
                None => {
                    let out = vec![Poly::product(&shape).scale(n)];
                    Ok(ctx.bind(
                        out,
                        dtype,
                        quote!(#code.repeat_interleave(#n as usize, None)),
                    ))
                }
            }
        }
        "roll" => {
            args::count(name, &args, 1, 2, span)?;
            let shifts = args::ints(name, &args[0])?;
            let axes = args.get(1).map(|a| args::ints(name, a)).transpose()?;
            if let Some(ax) = &axes {
                for &a in ax {
                    args::axis(name, a, &shape, at(1))?;
                }
            }
            let s = args::isize_slice(&shifts);
            let a = match &axes {
                Some(v) => {
                    let s = args::isize_slice(v);
                    quote!(Some(#s))
                }
                None => quote!(None),
            };
            let _ = &m;
            Ok(ctx.bind(shape, dtype, quote!(#code.roll(#s, #a))))
        }
        _ => Err(Error::new(span, format!("internal: no rule for `{name}`"))),
    }
}

/// `x.cat([y, z], axis)` / `x.stack([y, z], axis)`.
fn cat(ctx: &mut Ctx, name: &str, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    args::count(name, &args, 1, 2, span)?;
    let others: Vec<Arg> = match &args[0].val {
        Val::List(items) => items
            .iter()
            .map(|v| Arg::new(v.clone(), args[0].span))
            .collect(),
        _ => vec![args[0].clone()],
    };
    let ax = args
        .get(1)
        .map(|a| args::int(name, a))
        .transpose()?
        .unwrap_or(0);
    let (shape, mut dtype, code) = args::tensor(name, &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    let mut codes = vec![code];
    let axis = if name == "stack" {
        let r = shape.len() as i64 + 1;
        if ax < -r || ax >= r {
            return Err(Error::new(
                args.get(1).map_or(span, |a| a.span),
                format!(
                    "`stack`: axis {ax} is out of range for a new axis of rank-{} tensors",
                    r - 1
                ),
            ));
        }
        if ax < 0 {
            (ax + r) as usize
        } else {
            ax as usize
        }
    } else {
        args::axis(name, ax, &shape, args.get(1).map_or(span, |a| a.span))?
    };
    let mut total = if name == "stack" {
        Poly::constant(1)
    } else {
        shape[axis].clone()
    };
    for o in &others {
        let (s, d, c) = args::tensor(name, o)?;
        if s.len() != shape.len() {
            return Err(Error::new(
                o.span,
                format!(
                    "`{name}`: ranks differ: {} and {}",
                    show_shape(&shape),
                    show_shape(s)
                ),
            ));
        }
        for i in 0..shape.len() {
            if name == "cat" && i == axis {
                continue;
            }
            ctx.require_equal(&shape[i], &s[i], o.span, || {
                format!(
                    "`{name}` along axis {ax}: shapes {} and {} differ at axis {i} ({} vs {})",
                    show_shape(&shape),
                    show_shape(s),
                    shape[i],
                    s[i]
                )
            })?;
        }
        total = if name == "stack" {
            total.add(&Poly::constant(1))
        } else {
            total.add(&s[axis])
        };
        dtype = least_upper(dtype, d);
        codes.push(c.clone());
    }
    let mut out = shape.clone();
    if name == "stack" {
        out.insert(axis, total);
    } else {
        out[axis] = total;
    }
    let f = Ident::new(name, span);
    Ok(ctx.bind(
        out,
        dtype,
        quote!(::tg::DynTensor::#f(&[#(#codes.clone()),*], #ax as isize)),
    ))
}
