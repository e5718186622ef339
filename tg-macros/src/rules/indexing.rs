//! `x[...]` in a kernel: integers (negative from the end), slices `start:stop:step` and
//! `start..stop`, `None` (new axis), `...`, and tensors of indices (advanced indexing).

use proc_macro2::Span;
use quote::quote;
use syn::{Error, Result};

use super::args;
use crate::dsl::ast::IndexItem;
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::Poly;

/// A slice bound or step: a literal integer.
fn bound(ctx: &mut Ctx, e: &Option<Box<crate::dsl::ast::Ast>>) -> Result<Option<i64>> {
    match e {
        None => Ok(None),
        Some(ast) => {
            let v = ctx.eval(ast)?;
            let a = Arg::new(v, ast.span());
            Ok(Some(args::int("index", &a)?))
        }
    }
}

/// Python's slice arithmetic on a dimension of known size.
pub fn slice_len(n: i64, start: Option<i64>, stop: Option<i64>, step: i64) -> i64 {
    let clamp = |v: i64, lo: i64, hi: i64| v.max(lo).min(hi);
    let (s, e) = if step > 0 {
        let s = start.map_or(0, |s| clamp(if s < 0 { s + n } else { s }, 0, n));
        let e = stop.map_or(n, |e| clamp(if e < 0 { e + n } else { e }, 0, n));
        (s, e)
    } else {
        let s = start.map_or(n - 1, |s| clamp(if s < 0 { s + n } else { s }, -1, n - 1));
        let e = stop.map_or(-1, |e| clamp(if e < 0 { e + n } else { e }, -1, n - 1));
        (s, e)
    };
    if step > 0 {
        ((e - s + step - 1) / step).max(0)
    } else {
        ((s - e + (-step) - 1) / (-step)).max(0)
    }
}

pub fn index(ctx: &mut Ctx, recv: Arg, items: &[IndexItem], span: Span) -> Result<Val> {
    let (shape, dtype, code) = args::tensor("index", &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    let consumed = items
        .iter()
        .filter(|i| matches!(i, IndexItem::At(_) | IndexItem::Slice { .. }))
        .count();
    let ellipses = items
        .iter()
        .filter(|i| matches!(i, IndexItem::Ellipsis(_)))
        .count();
    if ellipses > 1 {
        let second = items
            .iter()
            .filter_map(|i| {
                if let IndexItem::Ellipsis(s) = i {
                    Some(*s)
                } else {
                    None
                }
            })
            .nth(1);
        return Err(Error::new(
            second.unwrap_or(span),
            "an index can have only one `...`",
        ));
    }
    if consumed > shape.len() {
        return Err(Error::new(
            span,
            format!(
                "too many indices ({consumed}) for a tensor of shape {} (rank {})",
                show_shape(&shape),
                shape.len()
            ),
        ));
    }
    let index = quote!(::tg::untyped::indexing::Index);
    // the view: kept axes (ints collapse), with where each tensor index sits among them
    let mut kept: Vec<Poly> = Vec::new();
    let mut tensors: Vec<(usize, Vec<Poly>)> = Vec::new();
    let mut emitted = Vec::new();
    let mut dim = 0usize;
    for item in items {
        match item {
            IndexItem::NewAxis => {
                kept.push(Poly::constant(1));
                emitted.push(quote!(#index::NewAxis));
            }
            IndexItem::Ellipsis(_) => {
                let n = shape.len() - consumed;
                kept.extend_from_slice(&shape[dim..dim + n]);
                dim += n;
                emitted.push(quote!(#index::Ellipsis));
            }
            IndexItem::At(ast) => {
                let v = ctx.eval(ast)?;
                match &v {
                    Val::Int(p) => {
                        let i = p.as_const().ok_or_else(|| {
                            Error::new(ast.span(), "an index is a literal integer or a tensor")
                        })?;
                        if let Some(n) = shape[dim].as_const()
                            && (i >= n || i < -n)
                        {
                            return Err(Error::new(
                                ast.span(),
                                format!(
                                    "index {i} is out of range for axis {dim} of size {n} (shape {})",
                                    show_shape(&shape)
                                ),
                            ));
                        }
                        emitted.push(quote!(#index::Int(#i as isize)));
                        dim += 1;
                    }
                    Val::Tensor {
                        shape: ts,
                        dtype: td,
                        code: tc,
                    } => {
                        if !td.is_int() {
                            return Err(Error::new(
                                ast.span(),
                                format!(
                                    "tensor indices are integers, this one is {}",
                                    td.rust_name()
                                ),
                            ));
                        }
                        tensors.push((kept.len(), ts.clone()));
                        kept.push(shape[dim].clone());
                        emitted.push(quote!(#index::Tensor(#tc.clone())));
                        dim += 1;
                    }
                    other => {
                        return Err(Error::new(
                            ast.span(),
                            format!("cannot index with {}", other.describe()),
                        ));
                    }
                }
            }
            IndexItem::Slice {
                start,
                stop,
                step,
                span,
            } => {
                let (s, e, st) = (
                    bound(ctx, start)?,
                    bound(ctx, stop)?,
                    bound(ctx, step)?.unwrap_or(1),
                );
                if st == 0 {
                    return Err(Error::new(*span, "slice step cannot be zero"));
                }
                let n = &shape[dim];
                let len = match n.as_const() {
                    Some(n) => {
                        for (b, what) in [(s, "start"), (e, "stop")] {
                            if let Some(b) = b
                                && (b > n || b < -n)
                            {
                                return Err(Error::new(
                                    *span,
                                    format!(
                                        "slice {what} {b} is out of range for axis {dim} of size {n} (shape {})",
                                        show_shape(&shape)
                                    ),
                                ));
                            }
                        }
                        Poly::constant(slice_len(n, s, e, st))
                    }
                    None if s.is_none() && e.is_none() && st == 1 => n.clone(),
                    None => {
                        return Err(Error::new(
                            *span,
                            format!(
                                "slicing axis {dim} of symbolic size {n} needs the full slice `..`"
                            ),
                        ));
                    }
                };
                kept.push(len);
                let opt = |v: Option<i64>| match v {
                    Some(x) => quote!(Some(#x as isize)),
                    None => quote!(None),
                };
                let (so, eo) = (opt(s), opt(e));
                emitted.push(quote!(#index::Slice { start: #so, stop: #eo, step: #st as isize }));
                dim += 1;
            }
        }
    }
    kept.extend_from_slice(&shape[dim..]);
    if !items.iter().any(|i| matches!(i, IndexItem::Ellipsis(_))) && dim < shape.len() {
        emitted.push(quote!(#index::Ellipsis));
    }
    let out = if tensors.is_empty() {
        kept
    } else {
        // numpy's advanced indexing: the index shapes broadcast together and take the place
        // of the indexed axes, or go first when those axes are not next to each other
        let mut big = tensors[0].1.clone();
        for (_, t) in &tensors[1..] {
            big = ctx.broadcast("index (tensor indices)", &big, t, span)?;
        }
        let dims: Vec<usize> = tensors.iter().map(|(d, _)| *d).collect();
        let d0 = dims[0];
        let consecutive = dims.windows(2).all(|w| w[1] == w[0] + 1);
        let rest: Vec<Poly> = kept
            .iter()
            .enumerate()
            .filter(|(i, _)| !dims.contains(i))
            .map(|(_, d)| d.clone())
            .collect();
        if !consecutive && d0 != 0 {
            big.into_iter().chain(rest).collect()
        } else {
            let before = rest[..d0].to_vec();
            before
                .into_iter()
                .chain(big)
                .chain(rest[d0..].iter().cloned())
                .collect()
        }
    };
    Ok(ctx.bind(out, dtype, quote!(#code.index(&[#(#emitted),*]))))
}
