//! `x[...]` in a kernel: integers (negative from the end), slices `start:stop:step` and
//! `start..stop`, `None` (new axis), `...`, and tensors of indices (advanced indexing).

use proc_macro2::Span;
use syn::{Error, Result};

use super::args;
use crate::dsl::ast::IndexItem;
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::Poly;

/// A slice bound or step: a literal integer.
fn bound(ctx: &mut Ctx, e: &Option<crate::dsl::ast::Ast>) -> Result<Option<i64>> {
    match e {
        None => Ok(None),
        Some(ast) => {
            let v = ctx.eval(ast)?;
            let a = Arg {
                val: v,
                span: ast.span(),
            };
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
    let (shape, _dtype, _code) = args::tensor("index", &recv)?;
    let shape = shape.to_vec();
    let consumed = items
        .iter()
        .filter(|i| matches!(i, IndexItem::At(_) | IndexItem::Slice { .. }))
        .count();
    let ellipses = items
        .iter()
        .filter(|i| matches!(i, IndexItem::Ellipsis(_)))
        .count();
    if ellipses > 1 {
        return Err(Error::new(span, "an index can have only one `...`"));
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
    let mut out: Vec<Poly> = Vec::new();
    let mut dim = 0usize;
    for item in items {
        match item {
            IndexItem::NewAxis(_) => out.push(Poly::constant(1)),
            IndexItem::Ellipsis(_) => {
                let n = shape.len() - consumed;
                out.extend_from_slice(&shape[dim..dim + n]);
                dim += n;
            }
            IndexItem::At(ast) => {
                let v = ctx.eval(ast)?;
                match &v {
                    Val::Int(p) => {
                        if let (Some(i), Some(n)) = (p.as_const(), shape[dim].as_const())
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
                        dim += 1;
                    }
                    Val::Tensor { .. } => {
                        return Err(Error::new(
                            ast.span(),
                            "tensor indices inside #[kernel] are not supported yet; use `gather`",
                        ));
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
                                "slicing axis {dim} of symbolic size {n} needs a full slice `..`; slice it with `shrink` after a reshape, or write the size"
                            ),
                        ));
                    }
                };
                out.push(len);
                dim += 1;
            }
        }
    }
    out.extend_from_slice(&shape[dim..]);
    let _ = out;
    Err(Error::new(
        span,
        "indexing inside #[kernel] is being added; use shrink/flip/reshape for now",
    ))
}
