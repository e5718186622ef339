//! Movement ops: the output shape is arithmetic on the input's (symbolic) dims.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use syn::{Error, Result};

use super::args;
use tg_core::DType;

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
    "tril",
    "triu",
    "diagonal",
    "pad_to",
    "pad_with",
    "pad_flat",
    "chunk",
    "split",
];

/// The ops of [`structure`]: triangles, diagonals, padding modes and splits.
const STRUCTURE: &[&str] = &[
    "tril", "triu", "diagonal", "pad_to", "pad_with", "pad_flat", "chunk", "split",
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
    if STRUCTURE.contains(&name) {
        return structure(ctx, name, recv, args, span);
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
            args::per_axis(name, order.len(), "axes given", &shape, at(0))?;
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
            let out = padded(ctx, name, &shape, &pads, PadMode::Constant, at(0))?;
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
            args::per_axis(name, ranges.len(), "ranges", &shape, at(0))?;
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
        dtype = dtype.least_upper(d);
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

/// How `pad_with` fills the new elements (tg-ops' `PadMode`), in the order of `PAD_MODES`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PadMode {
    Constant,
    Reflect,
    Replicate,
    Circular,
}

/// The DSL's names of the pad modes (tinygrad's `mode=` strings).
const PAD_MODES: &[&str] = &["constant", "reflect", "replicate", "circular"];

/// The most tensors one `chunk` or `split` may give: each becomes a local of the kernel.
const MAX_PIECES: usize = 1024;

/// The largest pad or size literal the structure rules take: far past any real tensor, and
/// small enough that sums of a few never overflow the dims' `i64` coefficients.
const MAX_LITERAL: i64 = 1 << 48;

/// An error unless `k` is within `MAX_LITERAL`.
fn bounded(op: &str, what: &str, k: i64, span: Span) -> Result<()> {
    if k.unsigned_abs() > MAX_LITERAL as u64 {
        return Err(Error::new(
            span,
            format!("`{op}`: {what} {k} is out of range (at most 2^48)"),
        ));
    }
    Ok(())
}

/// An error when a split gives more than `MAX_PIECES` tensors.
fn few_pieces(op: &str, n: usize, span: Span) -> Result<()> {
    if n > MAX_PIECES {
        return Err(Error::new(
            span,
            format!(
                "`{op}` would give {n} tensors; a kernel takes at most {MAX_PIECES} from one split"
            ),
        ));
    }
    Ok(())
}

/// `usize` code for a dim: a plain literal when it is one, else the polynomial.
fn usize_code(p: &Poly) -> TokenStream {
    match p.as_const() {
        Some(n) => {
            let l = proc_macro2::Literal::usize_suffixed(n.max(0) as usize);
            quote!(#l)
        }
        None => p.to_tokens(&|_| quote!(0usize)),
    }
}

/// Binds a `Result<Vec<DynTensor>>` expression once and each piece to a fresh local: a list
/// value, so `let (a, b) = x.split(..)` and `.0` work as for pairs.
fn bind_list(ctx: &mut Ctx, shapes: Vec<Vec<Poly>>, dtype: DType, code: TokenStream) -> Val {
    // `stmts` grows with every binding, so its length names this one uniquely
    let parts = format_ident!("__parts{}", ctx.stmts.len());
    ctx.stmts
        .push(quote!(let #parts: ::std::vec::Vec<::tg::DynTensor> = #code?;));
    Val::List(
        shapes
            .into_iter()
            .enumerate()
            .map(|(i, s)| ctx.bind(s, dtype, quote!(Ok::<_, ::tg::Error>(#parts[#i].clone()))))
            .collect(),
    )
}

/// `max(d - k, 0)` for `k >= 0`: exact on a literal dim; on a symbolic one `d - k`, with
/// `d >= k` asserted after monomorphization (a polynomial has no `max`).
fn cut_dim(
    ctx: &mut Ctx,
    d: &Poly,
    k: i64,
    span: Span,
    message: impl FnOnce() -> String,
) -> Result<Poly> {
    if k <= 0 {
        return Ok(d.clone());
    }
    if let Some(n) = d.as_const() {
        return Ok(Poly::constant((n - k).max(0)));
    }
    args::require_le(ctx, &Poly::constant(k), d, span, message)?;
    Ok(d.sub(&Poly::constant(k)))
}

/// `min(a, b)` when their difference is known; otherwise a dynamic dim named by the
/// expression (equal expressions stay equal), which the op checks at run time.
fn min_dim(a: &Poly, b: &Poly) -> Poly {
    match a.sub(b).as_const() {
        Some(c) if c <= 0 => a.clone(),
        Some(_) => b.clone(),
        None => Poly::dynamic(&format!("min({a}, {b})")),
    }
}

/// The padded shape for `(before, after)` pairs in `mode`, with tg-ops' checks: cuts (negative
/// pads) no longer than the axis, reflect pads shorter than it, replicate from a nonempty
/// axis, circular pads wrapping at most once.
fn padded(
    ctx: &mut Ctx,
    op: &str,
    shape: &[Poly],
    pads: &[(i64, i64)],
    mode: PadMode,
    span: Span,
) -> Result<Vec<Poly>> {
    args::per_axis(op, pads.len(), "(before, after) pairs", shape, span)?;
    for &(b, a) in pads {
        bounded(op, "pad", b, span)?;
        bounded(op, "pad", a, span)?;
    }
    let mut out = Vec::with_capacity(shape.len());
    for (i, (d, &(b, a))) in shape.iter().zip(pads).enumerate() {
        let cut = Poly::constant((-b).max(0) + (-a).max(0));
        let grow = b.max(0).max(a.max(0));
        let cut_msg = |n: &Poly| {
            let (n, cut) = (n.clone(), cut.clone());
            move || {
                format!(
                    "`{op}`: pads ({b}, {a}) cut {cut} elements from axis {i} of size {n} ({})",
                    show_shape(shape)
                )
            }
        };
        match mode {
            PadMode::Constant if cut.as_const() == Some(0) => {}
            PadMode::Constant => args::require_le(ctx, &cut, d, span, cut_msg(d))?,
            PadMode::Circular => {
                if cut.as_const() != Some(0) {
                    args::require_le(ctx, &cut, d, span, cut_msg(d))?;
                }
                let rest = d.sub(&cut);
                args::require_le(ctx, &Poly::constant(grow), &rest, span, || {
                    format!(
                        "`{op}`: circular pads ({b}, {a}) wrap around axis {i} of size {rest} more than once ({})",
                        show_shape(shape)
                    )
                })?;
            }
            PadMode::Reflect | PadMode::Replicate => {
                if grow > 0 {
                    let (need, what) = if mode == PadMode::Reflect {
                        (grow + 1, "reflect pads must be smaller than")
                    } else {
                        (1, "replicate pads need a nonempty")
                    };
                    args::require_le(ctx, &Poly::constant(need), d, span, || {
                        format!(
                            "`{op}`: {what} axis {i} (pads ({b}, {a}), axis size {d}, shape {})",
                            show_shape(shape)
                        )
                    })?;
                }
                if cut.as_const() != Some(0) {
                    let full = d.add(&Poly::constant(b.max(0) + a.max(0)));
                    args::require_le(ctx, &cut, &full, span, cut_msg(&full))?;
                }
            }
        }
        out.push(d.add(&Poly::constant(b + a)));
    }
    Ok(out)
}

/// Triangles, diagonals, padding to a size or in a mode, and splitting into several tensors.
fn structure(ctx: &mut Ctx, name: &str, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    let at = |i: usize| args.get(i).map(|a| a.span).unwrap_or(span);
    match name {
        "tril" | "triu" => {
            args::count(name, &args, 0, 1, span)?;
            // the diagonal shifts no dim, so a const parameter will do as well as a literal
            let k = match args.first().map(|a| args::poly(name, a)).transpose()? {
                None => quote!(0isize),
                Some(p) => match p.as_const() {
                    Some(k) => quote!((#k as isize)),
                    None => {
                        let t = p.to_tokens(&|_| quote!(0usize));
                        quote!(((#t as i64) as isize))
                    }
                },
            };
            if shape.len() < 2 {
                return Err(Error::new(
                    recv.span,
                    format!(
                        "`{name}` needs a tensor of rank 2 or more, {} has rank {}",
                        show_shape(&shape),
                        shape.len()
                    ),
                ));
            }
            let m = Ident::new(name, span);
            Ok(ctx.bind(shape, dtype, quote!(#code.#m(#k))))
        }
        "diagonal" => {
            // numpy's defaults: the main diagonal of axes 0 and 1
            args::count(name, &args, 0, 3, span)?;
            let lit = |i: usize, default: i64| -> Result<i64> {
                args.get(i).map_or(Ok(default), |a| args::int(name, a))
            };
            let (off, d1, d2) = (lit(0, 0)?, lit(1, 0)?, lit(2, 1)?);
            bounded(name, "offset", off, at(0))?;
            if shape.len() < 2 {
                return Err(Error::new(
                    recv.span,
                    format!(
                        "`diagonal` needs a tensor of rank 2 or more, {} has rank {}",
                        show_shape(&shape),
                        shape.len()
                    ),
                ));
            }
            let (a, b) = (
                args::axis(name, d1, &shape, at(1))?,
                args::axis(name, d2, &shape, at(2))?,
            );
            if a == b {
                return Err(Error::new(
                    at(2),
                    format!(
                        "`diagonal`: dim1 {d1} and dim2 {d2} name one axis ({a}) of {}",
                        show_shape(&shape)
                    ),
                ));
            }
            let (rows, cols) = (&shape[a], &shape[b]);
            let shown = show_shape(&shape);
            let past = |n: &Poly, ax: usize| {
                let (n, shown) = (n.clone(), shown.clone());
                move || {
                    format!(
                        "`diagonal`: offset {off} is past axis {ax} of symbolic size {n} ({shown})"
                    )
                }
            };
            let (rows, cols) = if off >= 0 {
                let c = cut_dim(ctx, cols, off, at(0), past(cols, b))?;
                (rows.clone(), c)
            } else {
                let r = cut_dim(ctx, rows, -off, at(0), past(rows, a))?;
                (r, cols.clone())
            };
            let mut out: Vec<Poly> = (0..shape.len())
                .filter(|&i| i != a && i != b)
                .map(|i| shape[i].clone())
                .collect();
            out.push(min_dim(&rows, &cols));
            Ok(ctx.bind(
                out,
                dtype,
                quote!(#code.diagonal(#off as isize, #d1 as isize, #d2 as isize)),
            ))
        }
        "pad_to" => {
            // `-1` keeps an axis (tg-ops' `None`, which a kernel body cannot spell)
            args::count(name, &args, 1, 1, span)?;
            let target = args::polys(name, &args[0])?;
            if target.len() != shape.len() {
                return Err(Error::new(
                    at(0),
                    format!(
                        "`pad_to`: the target {} has {} axes, the tensor {} has {}",
                        show_shape(&target),
                        target.len(),
                        shape.len(),
                        show_shape(&shape)
                    ),
                ));
            }
            let mut out = Vec::with_capacity(shape.len());
            let mut items = Vec::with_capacity(shape.len());
            for (i, (d, t)) in shape.iter().zip(&target).enumerate() {
                if t.as_const() == Some(-1) {
                    out.push(d.clone());
                    items.push(quote!(None));
                    continue;
                }
                if let Some(k) = t.as_const() {
                    if k < 0 {
                        return Err(Error::new(
                            at(0),
                            format!(
                                "`pad_to`: size {k} on axis {i} of the target {} is negative (-1 keeps an axis)",
                                show_shape(&target)
                            ),
                        ));
                    }
                    bounded(name, "size", k, at(0))?;
                }
                args::require_le(ctx, d, t, at(0), || {
                    format!(
                        "`pad_to`: cannot grow {} to {}: axis {i} is {d}, more than {t}",
                        show_shape(&shape),
                        show_shape(&target)
                    )
                })?;
                out.push(t.clone());
                let c = usize_code(t);
                items.push(quote!(Some(#c)));
            }
            Ok(ctx.bind(out, dtype, quote!(#code.pad_to(&[#(#items),*]))))
        }
        "pad_with" => {
            // `x.pad_with(pads, "reflect")`, `x.pad_with(pads, "constant", 1.0)`, or a value
            // alone for the constant mode (`PadMode::constant(v)`)
            args::count(name, &args, 1, 3, span)?;
            let pads = args::pairs(name, &args[0])?;
            let (mode, value) = match args.get(1) {
                None => (PadMode::Constant, None),
                Some(a) if matches!(a.val, Val::Str(_)) => {
                    let m = match args::choice(name, "pad mode", a, PAD_MODES)? {
                        "reflect" => PadMode::Reflect,
                        "replicate" => PadMode::Replicate,
                        "circular" => PadMode::Circular,
                        _ => PadMode::Constant,
                    };
                    if m != PadMode::Constant && args.len() > 2 {
                        return Err(Error::new(
                            at(2),
                            format!(
                                "`pad_with`: a value is only for the \"constant\" mode, not {:?}",
                                PAD_MODES[m as usize]
                            ),
                        ));
                    }
                    (m, args.get(2))
                }
                Some(a) => {
                    if args.len() > 2 {
                        return Err(Error::new(
                            at(2),
                            "`pad_with` takes a mode and a value, or a value alone for the constant mode",
                        ));
                    }
                    (PadMode::Constant, Some(a))
                }
            };
            let out = padded(ctx, name, &shape, &pads, mode, at(0))?;
            let mode_code = match mode {
                PadMode::Constant => {
                    let v = value
                        .map(|a| args::scalar_any(name, a))
                        .transpose()?
                        .unwrap_or(quote!(0i64));
                    quote!(::tg::untyped::pad_modes::PadMode::constant(#v))
                }
                PadMode::Reflect => quote!(::tg::untyped::pad_modes::PadMode::Reflect),
                PadMode::Replicate => quote!(::tg::untyped::pad_modes::PadMode::Replicate),
                PadMode::Circular => quote!(::tg::untyped::pad_modes::PadMode::Circular),
            };
            let items = pads
                .iter()
                .map(|&(b, a)| quote!((#b as isize, #a as isize)));
            Ok(ctx.bind(
                out,
                dtype,
                quote!(#code.pad_with(&[#(#items),*], #mode_code)),
            ))
        }
        "pad_flat" => {
            // torch's flat form: pairs from the last axis backwards
            args::count(name, &args, 1, 2, span)?;
            let flat = args::ints(name, &args[0])?;
            if flat.len() % 2 != 0 || flat.len() > 2 * shape.len() {
                return Err(Error::new(
                    at(0),
                    format!(
                        "`pad_flat`: flat pads {flat:?} must be (before, after) pairs, at most one per axis of {}",
                        show_shape(&shape)
                    ),
                ));
            }
            let mut pads = vec![(0, 0); shape.len()];
            for (i, p) in flat.chunks(2).enumerate() {
                pads[shape.len() - 1 - i] = (p[0], p[1]);
            }
            let out = padded(ctx, name, &shape, &pads, PadMode::Constant, at(0))?;
            let v = args
                .get(1)
                .map(|a| args::scalar_any(name, a))
                .transpose()?
                .unwrap_or(quote!(0i64));
            let s = args::isize_slice(&flat);
            Ok(ctx.bind(out, dtype, quote!(#code.pad_flat(#s, #v))))
        }
        "chunk" => {
            args::count(name, &args, 1, 2, span)?;
            let c = args::poly(name, &args[0])?;
            let Some(c) = c.as_const() else {
                return Err(Error::new(
                    at(0),
                    format!(
                        "`chunk` needs a literal chunk count: the number of tensors it returns must be known at compile time (found {c})"
                    ),
                ));
            };
            if c <= 0 {
                return Err(Error::new(
                    at(0),
                    format!("`chunk`: the number of chunks must be positive, found {c}"),
                ));
            }
            // every count is at most `c` pieces (fewer when the last chunks would be empty)
            few_pieces(name, c as usize, at(0))?;
            let ax = args.get(1).map_or(Ok(0), |a| args::int(name, a))?;
            let n = args::axis(name, ax, &shape, at(1))?;
            let sizes: Vec<Poly> = match shape[n].as_const() {
                Some(0) => vec![Poly::constant(0); c as usize],
                Some(len) => {
                    let size = (len - 1) / c + 1;
                    (0..len)
                        .step_by(size as usize)
                        .map(|i| Poly::constant(size.min(len - i)))
                        .collect()
                }
                None => {
                    // an exact multiple `c * q` gives c pieces of q (also when q is 0)
                    let q = exact_div(&shape[n], &Poly::constant(c)).ok_or_else(|| {
                        Error::new(
                            at(0),
                            format!(
                                "`chunk`: axis {ax} of {} has the symbolic size {}, not a known multiple of {c}: the number of pieces would depend on it; use `split` with sizes",
                                show_shape(&shape),
                                shape[n]
                            ),
                        )
                    })?;
                    vec![q; c as usize]
                }
            };
            let shapes = sizes
                .into_iter()
                .map(|s| {
                    let mut o = shape.clone();
                    o[n] = s;
                    o
                })
                .collect();
            Ok(bind_list(
                ctx,
                shapes,
                dtype,
                quote!(#code.chunk(#c as usize, #ax as isize)),
            ))
        }
        "split" => {
            // a list of sizes, or one size for pieces of that many (the last smaller)
            args::count(name, &args, 1, 2, span)?;
            let ax = args.get(1).map_or(Ok(0), |a| args::int(name, a))?;
            let n = args::axis(name, ax, &shape, at(1))?;
            let dim = shape[n].clone();
            let (sizes, call) = if let Val::List(_) = &args[0].val {
                let sizes = args::polys(name, &args[0])?;
                few_pieces(name, sizes.len(), at(0))?;
                for s in &sizes {
                    if let Some(k) = s.as_const() {
                        bounded(name, "size", k, at(0))?;
                    }
                }
                if let Some(s) = sizes.iter().find(|s| s.as_const().is_some_and(|k| k < 0)) {
                    return Err(Error::new(
                        at(0),
                        format!("`split`: size {s} in {} is negative", show_shape(&sizes)),
                    ));
                }
                let sum = sizes.iter().fold(Poly::constant(0), |acc, s| acc.add(s));
                ctx.require_equal(&sum, &dim, at(0), || {
                    format!(
                        "`split`: sizes {} sum to {sum}, not {dim}, the size of axis {ax} of {}",
                        show_shape(&sizes),
                        show_shape(&shape)
                    )
                })?;
                let items = sizes.iter().map(usize_code);
                let call = quote!(#code.split(&[#(#items),*], #ax as isize));
                (sizes, call)
            } else {
                let size = args::int(name, &args[0])?;
                if size <= 0 {
                    return Err(Error::new(
                        at(0),
                        format!("`split`: the piece size must be positive, found {size}"),
                    ));
                }
                bounded(name, "piece size", size, at(0))?;
                let Some(len) = dim.as_const() else {
                    return Err(Error::new(
                        at(0),
                        format!(
                            "`split`: axis {ax} of {} has the symbolic size {dim}: the number of pieces of {size} would depend on it; give the sizes as a list",
                            show_shape(&shape)
                        ),
                    ));
                };
                few_pieces(name, ((len - 1).max(0) / size + 1) as usize, at(0))?;
                let sizes = if len == 0 {
                    vec![Poly::constant(0)]
                } else {
                    (0..len)
                        .step_by(size as usize)
                        .map(|i| Poly::constant(size.min(len - i)))
                        .collect()
                };
                let call = quote!(#code.split_every(#size as usize, #ax as isize));
                (sizes, call)
            };
            let shapes = sizes
                .into_iter()
                .map(|s| {
                    let mut o = shape.clone();
                    o[n] = s;
                    o
                })
                .collect();
            Ok(bind_list(ctx, shapes, dtype, call))
        }
        _ => Err(Error::new(span, format!("internal: no rule for `{name}`"))),
    }
}
