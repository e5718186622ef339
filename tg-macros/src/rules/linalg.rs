//! matmul (`a @ b`, `a.matmul(b)`, `a.dot(b)`) and `linear`, with numpy's shape rules: 1-D
//! operands are promoted and the added axis removed, batch axes broadcast.

use proc_macro2::Span;
use quote::quote;
use syn::{Error, Result};

use super::args;
use crate::dtype_rules::least_upper;
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val, show_shape};
use crate::sym::Poly;

pub const NAMES: &[&str] = &["matmul", "dot", "linear"];

/// numpy matmul's output shape.
pub fn matmul_shape(ctx: &mut Ctx, a: &[Poly], b: &[Poly], span: Span) -> Result<Vec<Poly>> {
    if a.is_empty() || b.is_empty() {
        return Err(Error::new(
            span,
            format!(
                "matmul needs tensors of rank 1 or more, got {} and {}",
                show_shape(a),
                show_shape(b)
            ),
        ));
    }
    let k_a = &a[a.len() - 1];
    let k_b = if b.len() == 1 { &b[0] } else { &b[b.len() - 2] };
    ctx.require_equal(k_a, k_b, span, || {
        format!(
            "matmul: inner dimensions differ: {} @ {}: {k_a} (last axis of the left) vs {k_b} ({} of the right)",
            show_shape(a),
            show_shape(b),
            if b.len() == 1 { "the only axis" } else { "second-to-last axis" }
        )
    })?;
    let (ba, bb) = (
        &a[..a.len().saturating_sub(2)],
        &b[..b.len().saturating_sub(2)],
    );
    let mut out = ctx.broadcast("matmul (batch axes)", ba, bb, span)?;
    if a.len() >= 2 {
        out.push(a[a.len() - 2].clone());
    }
    if b.len() >= 2 {
        out.push(b[b.len() - 1].clone());
    }
    Ok(out)
}

pub fn matmul(ctx: &mut Ctx, a: Arg, b: Arg, span: Span) -> Result<Val> {
    let (sa, da, ca) = args::tensor("matmul", &a)?;
    let (sb, db, cb) = args::tensor("matmul", &b)?;
    let out = matmul_shape(ctx, sa, sb, span)?;
    let (ca, cb) = (ca.clone(), cb.clone());
    Ok(ctx.bind(out, least_upper(da, db), quote!(#ca.matmul(&#cb))))
}

pub fn apply(ctx: &mut Ctx, name: &str, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    if let Some(a) = args.iter().find(|a| a.name.is_some()) {
        return Err(Error::new(
            a.span,
            format!("`{name}` takes no keyword arguments"),
        ));
    }
    match name {
        "matmul" | "dot" => {
            args::count(name, &args, 1, 1, span)?;
            matmul(ctx, recv, args.into_iter().next().expect("one"), span)
        }
        _ => {
            // linear(weight (in, out), bias?)
            args::count(name, &args, 1, 2, span)?;
            let w = args[0].clone();
            let Val::Tensor { shape, dtype, .. } = matmul(ctx, recv.clone(), w.clone(), span)?
            else {
                unreachable!("tensor")
            };
            let (_, _, cx) = args::tensor(name, &recv)?;
            let (_, _, cw) = args::tensor(name, &w)?;
            let (cx, cw) = (cx.clone(), cw.clone());
            let (shape, dtype, bias) = match args.get(1) {
                Some(b) => {
                    let (sb, db, cb) = args::tensor(name, b)?;
                    let cb = cb.clone();
                    let s = ctx.broadcast("linear (bias)", &shape, sb, b.span)?;
                    (s, least_upper(dtype, db), quote!(Some(&#cb)))
                }
                None => (shape, dtype, quote!(None)),
            };
            Ok(ctx.bind(shape, dtype, quote!(#cx.linear(&#cw, #bias))))
        }
    }
}
