//! Reading and writing at the positions an index tensor holds (`gather`, `scatter`,
//! `scatter_reduce`), resizing by interpolation (`interpolate`), and packing
//! selected elements or their positions into a length known at compile time
//! (`masked_select_sized`, `nonzero_sized`: their unsized forms have data-dependent shapes,
//! which a kernel cannot type).
//!
//! Modes are strings, as tinygrad and torch spell them: `x.scatter(1, i, 2.0, reduce =
//! "add")`, `x.scatter_reduce(0, i, s, "amax", include_self = false)`.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Error, Result};

use super::args::{self, Input};
use super::ops;
use super::window::{sizes_not_negative, usizes_code};
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::Poly;
use tg_core::DType;
use tg_core::ScalarKind;

ops! {
    /// The gather family.
    pub enum GatherOp {
        Gather = "gather",
        Scatter = "scatter",
        ScatterReduce = "scatter_reduce",
        MaskedSelectSized = "masked_select_sized",
        NonzeroSized = "nonzero_sized",
        Interpolate = "interpolate",
    }
}

/// `scatter_reduce`'s reductions (torch's names), in `ScatterReduce`'s variant order.
const REDUCTIONS: &[&str] = &["sum", "prod", "mean", "amax", "amin"];
const REDUCTION_VARIANTS: &[&str] = &["Sum", "Prod", "Mean", "Amax", "Amin"];
/// `scatter`'s `reduce` for a scalar src (tinygrad's names).
const SCATTER_OPS: &[&str] = &["add", "multiply"];

/// The dtype of `scatter_reduce` with `how` on a `d` input, as tg-ops composes it: the
/// values are selected with an integer 0/1 (bool becomes i32), a sum accumulates in the
/// sum's dtype, a mean divides by an i32 count; amax and amin keep the dtype.
fn reduce_dtype(d: DType, how: &str) -> DType {
    let picked = d.weak(ScalarKind::Int);
    let sum = picked.sum_dtype().least_upper(d);
    match how {
        "sum" => sum,
        "prod" => picked,
        "mean" => sum.least_upper(DType::I32).float_of(),
        _ => d,
    }
}

/// A required argument, by name or position.
fn required<'a>(
    op: &str,
    named: &'a [Arg],
    positional: &'a [Arg],
    name: &str,
    i: usize,
    span: Span,
    usage: &str,
) -> Result<&'a Arg> {
    args::pick(named, positional, name, i)
        .ok_or_else(|| Error::new(span, format!("`{op}` needs `{name}`: {usage}")))
}

/// tg-ops' checks shared by `scatter` and `scatter_reduce`: an integer index of the input's
/// rank, no larger than the input on every axis but `dim` and than a tensor src on every
/// axis; a tensor src of the input's dtype. Returns the (literal) dim.
fn check_scatter(
    ctx: &mut Ctx,
    op: &'static str,
    input: (&[Poly], DType),
    dim: &Arg,
    index: &Arg,
    src: Option<&Arg>,
) -> Result<isize> {
    let (shape, dtype) = input;
    let (is, idt, _) = args::tensor(op, index)?;
    if !idt.is_int() {
        return Err(Error::new(
            index.span,
            format!("`{op}` takes integer indices, not {}", idt.rust_name()),
        ));
    }
    let src_shape = match src {
        Some(s) => {
            let (ss, sdt, _) = args::tensor(op, s)?;
            if sdt != dtype {
                return Err(Error::new(
                    s.span,
                    format!(
                        "`{op}`: src is {}, the input {}: src must have the input's dtype (cast it first)",
                        sdt.rust_name(),
                        dtype.rust_name()
                    ),
                ));
            }
            Some((ss, s.span))
        }
        None => None,
    };
    let ranks_differ =
        is.len() != shape.len() || src_shape.is_some_and(|(ss, _)| ss.len() != shape.len());
    if ranks_differ {
        let at = match src_shape {
            Some((ss, sp)) if is.len() == shape.len() && ss.len() != shape.len() => sp,
            _ => index.span,
        };
        let src_text = src_shape.map_or("a scalar".into(), |(ss, _)| show_shape(ss));
        return Err(Error::new(
            at,
            format!(
                "`{op}`: input {}, index {} and src {src_text} must have one rank",
                show_shape(shape),
                show_shape(is)
            ),
        ));
    }
    let d = args::isize_arg(op, dim)?;
    // a rank-0 input is scattered as a rank-1 one of one element, as tg-ops does
    let one = [Poly::constant(1)];
    let ax_shape = if shape.is_empty() { &one[..] } else { shape };
    let n = args::axis(op, d, ax_shape, dim.span)?;
    for a in 0..shape.len() {
        if a != n {
            args::require_le(ctx, &is[a], &shape[a], index.span, || {
                format!(
                    "`{op}`: index {} is larger than the input {} on axis {a} ({} > {}); only axis {d} may be larger",
                    show_shape(is),
                    show_shape(shape),
                    is[a],
                    shape[a]
                )
            })?;
        }
        if let Some((ss, sp)) = src_shape {
            args::require_le(ctx, &is[a], &ss[a], sp, || {
                format!(
                    "`{op}`: index {} is larger than src {} on axis {a} ({} > {})",
                    show_shape(is),
                    show_shape(ss),
                    is[a],
                    ss[a]
                )
            })?;
        }
    }
    Ok(d)
}

pub fn apply(ctx: &mut Ctx, op: GatherOp, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let name = op.name();
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    match op {
        GatherOp::Gather => {
            args::count(name, &args, 2, 2, span)?;
            let d = args::isize_arg(name, &args[0])?;
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
        GatherOp::Interpolate => interpolate(ctx, (&shape, dtype, &code), args, span),
        GatherOp::Scatter => {
            let usage = "`x.scatter(dim, index, src)`, or a scalar src with `reduce = \"add\"` or `\"multiply\"`";
            let (pos, kw) = args::split(name, args, &["dim", "index", "src", "reduce"], 4, span)?;
            let dim = required(name, &kw, &pos, "dim", 0, span, usage)?;
            let index = required(name, &kw, &pos, "index", 1, span, usage)?;
            let src = required(name, &kw, &pos, "src", 2, span, usage)?;
            let reduce = args::pick(&kw, &pos, "reduce", 3)
                .map(|a| args::choice(name, "scatter reduce", a, SCATTER_OPS).map(|r| (r, a)))
                .transpose()?;
            let ic = args::tensor(name, index)?.2.clone();
            if let Val::Tensor { code: sc, .. } = &src.val {
                if let Some((_, a)) = reduce {
                    return Err(Error::new(
                        a.span,
                        "`scatter`: reduce takes a scalar src; use `scatter_reduce` for a tensor",
                    ));
                }
                let d = check_scatter(ctx, name, (&shape, dtype), dim, index, Some(src))?;
                let sc = sc.clone();
                return Ok(ctx.bind(
                    shape,
                    dtype,
                    quote!(#code.scatter(#d as isize, &#ic, &#sc, None)),
                ));
            }
            let v = args::scalar_any(name, src)?;
            let d = check_scatter(ctx, name, (&shape, dtype), dim, index, None)?;
            let (out, op): (DType, TokenStream) = match reduce {
                None => (dtype, quote!(None)),
                Some(("add", _)) => (
                    reduce_dtype(dtype, "sum"),
                    quote!(Some(::tg::untyped::gather::ScatterOp::Add)),
                ),
                Some(_) => (
                    reduce_dtype(dtype, "prod"),
                    quote!(Some(::tg::untyped::gather::ScatterOp::Multiply)),
                ),
            };
            Ok(ctx.bind(
                shape,
                out,
                quote!(#code.scatter(#d as isize, &#ic, ::tg::untyped::elementwise::Operand::from(#v), #op)),
            ))
        }
        GatherOp::ScatterReduce => {
            let usage = "`x.scatter_reduce(dim, index, src, \"sum\" | \"prod\" | \"mean\" | \"amax\" | \"amin\", include_self = true)`";
            let (pos, kw) = args::split(
                name,
                args,
                &["dim", "index", "src", "reduce", "include_self"],
                5,
                span,
            )?;
            let dim = required(name, &kw, &pos, "dim", 0, span, usage)?;
            let index = required(name, &kw, &pos, "index", 1, span, usage)?;
            let src = required(name, &kw, &pos, "src", 2, span, usage)?;
            let how = required(name, &kw, &pos, "reduce", 3, span, usage)?;
            let how = args::choice(name, "reduction", how, REDUCTIONS)?;
            let include_self = args::pick(&kw, &pos, "include_self", 4)
                .map(|a| args::boolean(name, a))
                .transpose()?
                .unwrap_or(true);
            if !matches!(src.val, Val::Tensor { .. }) {
                return Err(Error::new(
                    src.span,
                    format!(
                        "`scatter_reduce` takes a tensor src, found {}; for a scalar use `scatter(dim, index, value, reduce = \"add\")`",
                        src.val.describe()
                    ),
                ));
            }
            let d = check_scatter(ctx, name, (&shape, dtype), dim, index, Some(src))?;
            let (ic, sc) = (
                args::tensor(name, index)?.2.clone(),
                args::tensor(name, src)?.2.clone(),
            );
            let i = REDUCTIONS.iter().position(|r| *r == how).unwrap_or(0);
            let variant = proc_macro2::Ident::new(REDUCTION_VARIANTS[i], span);
            Ok(ctx.bind(
                shape,
                reduce_dtype(dtype, how),
                quote!(#code.scatter_reduce(#d as isize, &#ic, &#sc, ::tg::untyped::gather::ScatterReduce::#variant, #include_self)),
            ))
        }
        GatherOp::MaskedSelectSized => {
            let usage = "`x.masked_select_sized(mask, size, fill_value = 0)`";
            let (pos, kw) = args::split(name, args, &["mask", "size", "fill_value"], 3, span)?;
            let mask = required(name, &kw, &pos, "mask", 0, span, usage)?;
            let size = required(name, &kw, &pos, "size", 1, span, usage)?;
            let (ms, mdt, mc) = args::tensor(name, mask)?;
            if mdt != DType::Bool {
                return Err(Error::new(
                    mask.span,
                    format!(
                        "`masked_select_sized`: the mask must be bool, this one is {}",
                        mdt.rust_name()
                    ),
                ));
            }
            // the mask broadcasts to the input (one way: the input keeps its shape)
            if ms.len() > shape.len() {
                return Err(Error::new(
                    mask.span,
                    format!(
                        "`masked_select_sized`: mask {} does not broadcast to the input {}: it has more axes",
                        show_shape(ms),
                        show_shape(&shape)
                    ),
                ));
            }
            let off = shape.len() - ms.len();
            for (i, m) in ms.iter().enumerate() {
                let s = &shape[off + i];
                if m.as_const() != Some(1) {
                    ctx.require_equal(m, s, mask.span, || {
                        format!(
                            "`masked_select_sized`: mask {} does not broadcast to the input {}: axis {} is {m}, not 1 or {s}",
                            show_shape(ms),
                            show_shape(&shape),
                            off + i
                        )
                    })?;
                }
            }
            let n = sized(name, size)?;
            let fill = args::pick(&kw, &pos, "fill_value", 2)
                .map(|a| args::scalar_any(name, a))
                .transpose()?
                .unwrap_or(quote!(0i64));
            let (mc, nc) = (mc.clone(), n.to_tokens(&|_| quote!(0usize)));
            Ok(ctx.bind(
                vec![n],
                dtype,
                quote!(#code.masked_select_sized(&#mc, #nc, #fill)),
            ))
        }
        GatherOp::NonzeroSized => {
            let usage = "`x.nonzero_sized(size, fill_value = 0)`";
            let (pos, kw) = args::split(name, args, &["size", "fill_value"], 2, span)?;
            let size = required(name, &kw, &pos, "size", 0, span, usage)?;
            let n = sized(name, size)?;
            let fill = match args::pick(&kw, &pos, "fill_value", 1) {
                None => quote!(0i32),
                Some(a) => fill_i32(name, a)?,
            };
            let nc = n.to_tokens(&|_| quote!(0usize));
            let rank = Poly::constant(shape.len() as i64);
            Ok(ctx.bind(
                vec![n, rank],
                DType::I32,
                quote!(#code.nonzero_sized(#nc, #fill)),
            ))
        }
    }
}

/// The output length of a sized op: a compile-time integer (const parameters allowed), not
/// negative.
fn sized(op: &str, a: &Arg) -> Result<Poly> {
    let n = args::poly(op, a)?;
    if let Some(k) = n.as_const()
        && k < 0
    {
        return Err(Error::new(
            a.span,
            format!("`{op}`: the size must not be negative, found {k}"),
        ));
    }
    Ok(n)
}

/// `nonzero_sized`'s fill value: an i32 (it fills rows of positions).
fn fill_i32(op: &str, a: &Arg) -> Result<TokenStream> {
    match &a.val {
        Val::Int(p) => match p.as_const() {
            Some(k) if i32::try_from(k).is_ok() => {
                let l = proc_macro2::Literal::i32_suffixed(k as i32);
                Ok(quote!(#l))
            }
            Some(k) => Err(Error::new(
                a.span,
                format!("`{op}`: fill_value {k} does not fit an i32 position"),
            )),
            None => {
                let c = p.to_tokens(&|_| quote!(0usize));
                Ok(quote!((#c as i32)))
            }
        },
        Val::Scalar {
            kind: ScalarKind::Int,
            code,
            ..
        } => Ok(quote!((#code as i32))),
        other => Err(Error::new(
            a.span,
            format!(
                "`{op}`: fill_value is an i32 position, found {}",
                other.describe()
            ),
        )),
    }
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
