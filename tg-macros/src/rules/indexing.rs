//! `x[...]` in a kernel: integers (negative from the end), slices `start:stop:step` and
//! `start..stop`, `None` (new axis), `...`, and tensors of indices (advanced indexing). The
//! shape is tg-core's indexing rule (`shape::index`), with literal slice bounds held to their
//! axis.

use proc_macro2::Span;
use quote::quote;
use syn::{Error, Result};

use super::args;
use crate::dsl::ast::IndexItem;
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};
use crate::sym::Poly;
use tg_core::shape::index::Item;

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

pub fn index(ctx: &mut Ctx, recv: Arg, items: &[IndexItem], span: Span) -> Result<Val> {
    let (shape, dtype, code) = args::tensor("index", &recv)?;
    let (shape, code) = (shape.to_vec(), code.clone());
    let index = quote!(::tg::untyped::indexing::Index);
    // each entry as tg-core's rule reads it, its span, and its code
    let mut rule_items: Vec<Item<Poly>> = Vec::new();
    let mut spans: Vec<Span> = Vec::new();
    let mut emitted = Vec::new();
    for item in items {
        match item {
            IndexItem::NewAxis => {
                rule_items.push(Item::NewAxis);
                spans.push(span);
                emitted.push(quote!(#index::NewAxis));
            }
            IndexItem::Ellipsis(s) => {
                rule_items.push(Item::Ellipsis);
                spans.push(*s);
                emitted.push(quote!(#index::Ellipsis));
            }
            IndexItem::At(ast) => {
                let v = ctx.eval(ast)?;
                match &v {
                    Val::Int(p) => {
                        let i = p.as_const().ok_or_else(|| {
                            Error::new(ast.span(), "an index is a literal integer or a tensor")
                        })?;
                        rule_items.push(Item::Int(i));
                        emitted.push(quote!(#index::Int(#i as isize)));
                    }
                    Val::Tensor {
                        shape: ts,
                        dtype: td,
                        code: tc,
                    } => {
                        rule_items.push(Item::Tensor(ts.clone(), *td));
                        emitted.push(quote!(#index::Tensor(#tc.clone())));
                    }
                    other => {
                        return Err(Error::new(
                            ast.span(),
                            format!("cannot index with {}", other.describe()),
                        ));
                    }
                }
                spans.push(ast.span());
            }
            IndexItem::Slice {
                start,
                stop,
                step,
                span: s,
            } => {
                let (b, e, st) = (
                    bound(ctx, start)?,
                    bound(ctx, stop)?,
                    bound(ctx, step)?.unwrap_or(1),
                );
                rule_items.push(Item::Slice {
                    start: b,
                    stop: e,
                    step: st,
                });
                spans.push(*s);
                let opt = |v: Option<i64>| match v {
                    Some(x) => quote!(Some(#x as isize)),
                    None => quote!(None),
                };
                let (so, eo) = (opt(b), opt(e));
                emitted.push(quote!(#index::Slice { start: #so, stop: #eo, step: #st as isize }));
            }
        }
    }
    let taken = items
        .iter()
        .filter(|i| matches!(i, IndexItem::At(_) | IndexItem::Slice { .. }))
        .count();
    let out = ctx.rule(span, |ck| {
        Ok(tg_core::shape::index::index(ck, &shape, &rule_items, true))
    })?;
    let out = out.map_err(|(k, e)| {
        Error::new(
            k.and_then(|k| spans.get(k).copied()).unwrap_or(span),
            e.to_string(),
        )
    })?;
    if !items.iter().any(|i| matches!(i, IndexItem::Ellipsis(_))) && taken < shape.len() {
        emitted.push(quote!(#index::Ellipsis));
    }
    Ok(ctx.bind(out, dtype, quote!(#code.index(&[#(#emitted),*]))))
}
