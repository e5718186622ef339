//! Reading op arguments while the macro checks a kernel: compile-time integers (axes, sizes),
//! lists of them, scalars and tensors, with errors pointing at the argument.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::{Error, Result};

use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::Poly;
use tg_core::DType;
use tg_core::ScalarKind;

/// Checks the argument count.
pub fn count(op: &str, args: &[Arg], min: usize, max: usize, span: Span) -> Result<()> {
    if args.len() < min || args.len() > max {
        let want = if min == max {
            format!("{min}")
        } else {
            format!("{min} to {max}")
        };
        let at = args.get(max).map(|a| a.span).unwrap_or(span);
        return Err(Error::new(
            at,
            format!("`{op}` takes {want} argument(s), {} given", args.len()),
        ));
    }
    Ok(())
}

/// A tensor operand: (shape, dtype, code).
pub fn tensor<'a>(op: &str, a: &'a Arg) -> Result<(&'a [Poly], DType, &'a TokenStream)> {
    match &a.val {
        Val::Tensor { shape, dtype, code } => Ok((shape, *dtype, code)),
        other => Err(Error::new(
            a.span,
            format!("`{op}` expects a tensor here, found {}", other.describe()),
        )),
    }
}

/// An integer known while expanding (literal or const-parameter arithmetic).
pub fn poly(op: &str, a: &Arg) -> Result<Poly> {
    match &a.val {
        Val::Int(p) => Ok(p.clone()),
        other => Err(Error::new(
            a.span,
            format!(
                "`{op}` needs an integer known at compile time here, found {}",
                other.describe()
            ),
        )),
    }
}

/// A plain integer literal (axes, counts).
pub fn int(op: &str, a: &Arg) -> Result<i64> {
    poly(op, a)?
        .as_const()
        .ok_or_else(|| Error::new(a.span, format!("`{op}` needs a literal integer here")))
}

/// One integer or a list of them.
pub fn ints(op: &str, a: &Arg) -> Result<Vec<i64>> {
    match &a.val {
        Val::List(items) => items
            .iter()
            .map(|v| int(op, &Arg::new(v.clone(), a.span)))
            .collect(),
        _ => Ok(vec![int(op, a)?]),
    }
}

/// A list of dimensions (compile-time, possibly symbolic).
pub fn polys(op: &str, a: &Arg) -> Result<Vec<Poly>> {
    match &a.val {
        Val::List(items) => items
            .iter()
            .map(|v| poly(op, &Arg::new(v.clone(), a.span)))
            .collect(),
        _ => Ok(vec![poly(op, a)?]),
    }
}

/// A list of `(before, after)` pairs.
pub fn pairs(op: &str, a: &Arg) -> Result<Vec<(i64, i64)>> {
    let Val::List(items) = &a.val else {
        return Err(Error::new(
            a.span,
            format!("`{op}` expects a list of (before, after) pairs"),
        ));
    };
    items
        .iter()
        .map(|v| match v {
            Val::List(p) if p.len() == 2 => {
                let f = |x: &Val| int(op, &Arg::new(x.clone(), a.span));
                Ok((f(&p[0])?, f(&p[1])?))
            }
            _ => Err(Error::new(
                a.span,
                format!("`{op}` expects (before, after) pairs"),
            )),
        })
        .collect()
}

/// A scalar as `f64` code (literal, parameter or integer).
pub fn scalar_f64(op: &str, a: &Arg) -> Result<TokenStream> {
    match &a.val {
        Val::Scalar {
            kind: ScalarKind::Float | ScalarKind::Int,
            code,
            ..
        } => Ok(quote!((#code as f64))),
        Val::Int(p) => {
            let c = p.to_tokens(&|_| quote!(0usize));
            Ok(quote!((#c as f64)))
        }
        other => Err(Error::new(
            a.span,
            format!("`{op}` expects a number here, found {}", other.describe()),
        )),
    }
}

/// A literal bool.
pub fn boolean(op: &str, a: &Arg) -> Result<bool> {
    match &a.val {
        Val::Scalar {
            kind: ScalarKind::Bool,
            code,
            ..
        } if code.to_string() == "true" => Ok(true),
        Val::Scalar {
            kind: ScalarKind::Bool,
            code,
            ..
        } if code.to_string() == "false" => Ok(false),
        _ => Err(Error::new(
            a.span,
            format!("`{op}` expects `true` or `false` here"),
        )),
    }
}

/// A dtype named as an argument.
pub fn dtype(op: &str, a: &Arg) -> Result<DType> {
    match &a.val {
        Val::Dtype(d) => Ok(*d),
        other => Err(Error::new(
            a.span,
            format!(
                "`{op}` expects a dtype (f32, i32, ...), found {}",
                other.describe()
            ),
        )),
    }
}

/// A literal axis (or offset) as tg-ops takes it.
pub fn isize_arg(op: &str, a: &Arg) -> Result<isize> {
    let v = int(op, a)?;
    isize::try_from(v).map_err(|_| Error::new(a.span, format!("`{op}`: {v} is out of range")))
}

/// One literal axis or a list of them.
pub fn axes(op: &str, a: &Arg) -> Result<Vec<isize>> {
    ints(op, a)?
        .into_iter()
        .map(|v| {
            isize::try_from(v)
                .map_err(|_| Error::new(a.span, format!("`{op}`: {v} is out of range")))
        })
        .collect()
}

/// The largest size literal a shape argument may hold: far past any real tensor, and small
/// enough that products of a few stay within the dims' `i64` coefficients.
const MAX_LITERAL: i64 = 1 << 48;

/// An error when a literal size is above 2^48 (negative ones are each op's error).
pub fn bounded(op: &str, dims: &[Poly], span: Span) -> Result<()> {
    match dims
        .iter()
        .filter_map(Poly::as_const)
        .find(|&k| k > MAX_LITERAL)
    {
        Some(k) => Err(Error::new(
            span,
            format!("`{op}`: size {k} is out of range (at most 2^48)"),
        )),
        None => Ok(()),
    }
}

/// A target shape as a user writes it: `-1` (`None`) is left to the op, another negative
/// size is an error (tg-core's rule, as tg-ops applies it to `&[isize]`).
pub fn targets(op: &'static str, dims: &[Poly], span: Span) -> Result<Vec<Option<Poly>>> {
    let shown = show_shape(dims);
    let out = dims
        .iter()
        .map(|d| match d.as_const() {
            Some(c) => tg_core::shape::size_arg::<Poly>(op, c, &shown)
                .map(|s| s.map(|_| d.clone()))
                .map_err(|e| Error::new(span, e.to_string())),
            None => Ok(Some(d.clone())),
        })
        .collect::<Result<Vec<_>>>()?;
    bounded(op, dims, span)?;
    Ok(out)
}

/// `&[isize]` code for dims (possibly symbolic), `-1` allowed.
pub fn dims_isize(v: &[Poly]) -> TokenStream {
    let items = v.iter().map(|p| {
        let c = p.to_tokens(&|_| quote!(0usize));
        match p.as_const() {
            Some(k) if k < 0 => {
                let l = proc_macro2::Literal::i64_unsuffixed(k);
                quote!((#l as isize))
            }
            _ => quote!((#c as isize)),
        }
    });
    quote!(&[#(#items),*])
}

/// Positional arguments (at most `max`) and keyword arguments (named in `known`).
pub fn split(
    op: &str,
    args: Vec<Arg>,
    known: &[&str],
    max: usize,
    span: Span,
) -> Result<(Vec<Arg>, Vec<Arg>)> {
    let (named, positional): (Vec<Arg>, Vec<Arg>) =
        args.into_iter().partition(|a| a.name.is_some());
    if positional.len() > max {
        return Err(Error::new(
            positional[max].span,
            format!("`{op}` takes at most {max} positional argument(s)"),
        ));
    }
    for a in &named {
        let n = a.name.as_deref().unwrap_or_default();
        if !known.contains(&n) {
            return Err(Error::new(
                a.span,
                format!(
                    "`{op}` has no argument `{n}`; it takes {}",
                    known.join(", ")
                ),
            ));
        }
    }
    let _ = span;
    Ok((positional, named))
}

/// `pick`, with an error when the argument is given both by position and by name (or named
/// twice): `pick` alone would silently prefer one.
pub fn pick_once<'a>(
    op: &str,
    named: &'a [Arg],
    positional: &'a [Arg],
    name: &str,
    i: usize,
) -> Result<Option<&'a Arg>> {
    let mut by_name = named.iter().filter(|a| a.name.as_deref() == Some(name));
    let first = by_name.next();
    if let Some(again) = by_name.next() {
        return Err(Error::new(
            again.span,
            format!("`{op}`: argument `{name}` is given twice"),
        ));
    }
    match (first, positional.get(i)) {
        (Some(a), Some(_)) => Err(Error::new(
            a.span,
            format!("`{op}`: argument `{name}` is given by position and by name"),
        )),
        (a, b) => Ok(a.or(b)),
    }
}

/// A scalar as code convertible into `tg::runtime::Scalar` (`f64`, `i64` or `bool`), for
/// fill and pad values that take the tensor's dtype.
pub fn scalar_any(op: &str, a: &Arg) -> Result<TokenStream> {
    match &a.val {
        Val::Scalar {
            kind: ScalarKind::Float,
            code,
            ..
        } => Ok(quote!((#code as f64))),
        Val::Scalar {
            kind: ScalarKind::Int,
            code,
            ..
        } => Ok(quote!((#code as i64))),
        Val::Scalar {
            kind: ScalarKind::Bool,
            code,
            ..
        } => Ok(quote!((#code))),
        Val::Int(p) => {
            let c = p.to_tokens(&|_| quote!(0usize));
            Ok(quote!((#c as i64)))
        }
        other => Err(Error::new(
            a.span,
            format!(
                "`{op}` expects a number or bool here, found {}",
                other.describe()
            ),
        )),
    }
}
