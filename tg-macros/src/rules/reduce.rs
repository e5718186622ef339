//! Reductions: `x.sum()`, `x.sum(1)`, `x.sum([0, 2])`, `x.sum(-1, true)` (keepdim).

use proc_macro2::{Ident, Span};
use quote::quote;
use syn::Result;

use super::args;
use tg_core::DType;

use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};
use crate::sym::Poly;

pub const NAMES: &[&str] = &["sum", "prod", "max", "min", "mean", "any", "all"];

/// The reduced shape: axes removed, or kept as 1.
pub fn reduced(
    op: &str,
    shape: &[Poly],
    axes: Option<&[i64]>,
    keepdim: bool,
    span: Span,
) -> Result<(Vec<Poly>, Vec<usize>)> {
    let axes: Vec<usize> = match axes {
        None => (0..shape.len()).collect(),
        Some(list) => {
            let mut out = Vec::new();
            for &a in list {
                let n = args::axis(op, a, shape, span)?;
                if out.contains(&n) {
                    return Err(syn::Error::new(
                        span,
                        format!("`{op}`: axis {a} is listed twice"),
                    ));
                }
                out.push(n);
            }
            out
        }
    };
    let out = shape
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match (axes.contains(&i), keepdim) {
            (false, _) => Some(d.clone()),
            (true, true) => Some(Poly::constant(1)),
            (true, false) => None,
        })
        .collect();
    Ok((out, axes))
}

pub fn out_dtype(op: &str, dt: DType) -> DType {
    match op {
        "sum" => dt.sum_dtype(),
        "mean" => dt.float_of(),
        "any" | "all" => DType::Bool,
        _ => dt,
    }
}

pub fn apply(ctx: &mut Ctx, name: &str, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    args::count(name, &args, 0, 2, span)?;
    let (shape, dtype, code) = args::tensor(name, &recv)?;
    let axes = args
        .first()
        .map(|a| args::ints(name, a).map(|v| (v, a.span)))
        .transpose()?;
    let keepdim = args
        .get(1)
        .map(|a| args::boolean(name, a))
        .transpose()?
        .unwrap_or(false);
    let at = axes.as_ref().map(|(_, s)| *s).unwrap_or(span);
    let (out, _) = reduced(
        name,
        shape,
        axes.as_ref().map(|(v, _)| v.as_slice()),
        keepdim,
        at,
    )?;
    let m = Ident::new(name, span);
    let axes_code = match &axes {
        None => quote!(None),
        Some((v, _)) => {
            let s = args::isize_slice(v);
            quote!(Some(#s))
        }
    };
    let code = code.clone();
    Ok(ctx.bind(
        out,
        out_dtype(name, dtype),
        quote!(#code.#m(#axes_code, #keepdim)),
    ))
}
