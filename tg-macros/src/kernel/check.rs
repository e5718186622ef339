//! The checking half of `#[kernel]`: the body walked with symbolic shapes, each op's rule
//! applied, and the returned tensors matched against the signature. Any mistake is an error
//! at the expression at fault; nothing is emitted here but the body's `DynTensor` code, kept
//! in the context.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Error, ItemFn, Result, Stmt};

use super::infer::Ctx;
use super::signature::{Param, ScalarKind, Signature};
use super::syntax;
use super::value::{Val, show_shape};
use crate::sym::Equal;

/// Walks the body of `f` with the symbolic values of its parameters: every op's rule checks
/// its operands and emits its code into the returned context; the returned tensors are
/// checked against the declared ones. Gives the context and the code of each output.
pub fn body(f: &ItemFn, sig: &Signature) -> Result<(Ctx, Vec<TokenStream>)> {
    let mut ctx = Ctx::new(sig.const_params.clone());
    super::value::reset_operand_uses();
    let mut slot = 0;
    for p in &sig.params {
        match p {
            Param::Tensor { name, spec, by_ref } => {
                let shape = spec.shape(&name.to_string());
                if by_ref.is_some() {
                    ctx.by_ref.insert(name.to_string());
                }
                ctx.env.insert(
                    name.to_string(),
                    Val::Tensor {
                        shape,
                        dtype: spec.dtype,
                        code: quote!(#name),
                    },
                );
            }
            Param::Scalar { name, kind, .. } => {
                let kind = match kind {
                    ScalarKind::Float32 | ScalarKind::Float64 => tg_core::ScalarKind::Float,
                    ScalarKind::Int => tg_core::ScalarKind::Int,
                    ScalarKind::Bool => tg_core::ScalarKind::Bool,
                };
                ctx.env.insert(
                    name.to_string(),
                    Val::Scalar {
                        kind,
                        code: quote!(#name),
                        param: Some(slot),
                    },
                );
                slot += 1;
            }
            Param::State { name, .. } => {
                ctx.env
                    .insert(name.to_string(), Val::Host(name.to_string()));
            }
        }
    }
    // the body: `let` bindings, then the returned expression
    let mut result: Option<(Val, proc_macro2::Span)> = None;
    let n = f.block.stmts.len();
    for (i, stmt) in f.block.stmts.iter().enumerate() {
        let host = |ctx: &Ctx, e: &syn::Expr| {
            syntax::is_host(e, &|id| {
                matches!(ctx.env.get(&id.to_string()), Some(Val::Host(_)))
            })
        };
        match stmt {
            Stmt::Local(local) => {
                let init = local
                    .init
                    .as_ref()
                    .ok_or_else(|| Error::new(local.span(), "a kernel's `let` needs a value"))?;
                if host(&ctx, &init.expr) {
                    ctx.host_let(local, &init.expr)?;
                } else {
                    let v = ctx.eval(&dsl(&ctx, &init.expr)?)?;
                    bind_pattern(&mut ctx, &local.pat, v)?;
                }
            }
            Stmt::Expr(e, None) if i + 1 == n => {
                let v = if host(&ctx, e) {
                    let ret = &f.sig.output;
                    ctx.host_tensors(
                        e,
                        &sig.returns.tensors,
                        sig.returns.tuple,
                        "return",
                        ret.span(),
                    )
                } else {
                    ctx.eval(&dsl(&ctx, e)?)?
                };
                result = Some((v, e.span()));
            }
            Stmt::Expr(e, _) if host(&ctx, e) => ctx.host_stmt(e),
            Stmt::Expr(e, _) => {
                ctx.eval(&dsl(&ctx, e)?)?;
            }
            Stmt::Macro(m) => {
                let e = syn::Expr::Macro(syn::ExprMacro {
                    attrs: m.attrs.clone(),
                    mac: m.mac.clone(),
                });
                if host(&ctx, &e) {
                    ctx.host_stmt(&e);
                } else {
                    ctx.eval(&dsl(&ctx, &e)?)?;
                }
            }
            other => {
                return Err(Error::new(
                    other.span(),
                    "only `let` bindings and expressions are supported in a #[kernel] body",
                ));
            }
        }
    }
    let (value, vspan) = result.ok_or_else(|| {
        Error::new(
            f.block.span(),
            "a kernel ends with the tensor(s) it returns",
        )
    })?;
    let outs: Vec<Val> = match (value, sig.returns.tuple) {
        (Val::List(items), true) => items,
        (v, false) => vec![v],
        (v, true) => {
            return Err(Error::new(
                vspan,
                format!(
                    "the kernel declares a tuple of tensors but returns {}",
                    v.describe()
                ),
            ));
        }
    };
    if outs.len() != sig.returns.tensors.len() {
        return Err(Error::new(
            vspan,
            format!(
                "the kernel declares {} tensors but returns {}",
                sig.returns.tensors.len(),
                outs.len()
            ),
        ));
    }
    let mut out_codes = Vec::new();
    for (k, (v, spec)) in outs.iter().zip(&sig.returns.tensors).enumerate() {
        let Val::Tensor { shape, dtype, code } = v else {
            return Err(Error::new(
                vspan,
                format!("the kernel returns {}, not a tensor", v.describe()),
            ));
        };
        let declared = spec.shape(&format!("return.{k}"));
        if shape.len() != declared.len() {
            return Err(Error::new(
                vspan,
                format!(
                    "the kernel computes a tensor of shape {} but declares {} (rank {} vs {})",
                    show_shape(shape),
                    show_shape(&declared),
                    shape.len(),
                    declared.len()
                ),
            ));
        }
        for (i, (got, want)) in shape.iter().zip(&declared).enumerate() {
            if want.is_dynamic() {
                continue;
            }
            if got.equal(want) == Equal::No {
                return Err(Error::new(
                    vspan,
                    format!(
                        "the kernel computes a tensor of shape {} but declares {}: axis {i} is {got}, not {want}",
                        show_shape(shape),
                        show_shape(&declared)
                    ),
                ));
            }
            ctx.require_equal(got, want, vspan, || {
                format!("declared output axis {i} is {want}, computed {got}")
            })?;
        }
        if *dtype != spec.dtype {
            return Err(Error::new(
                vspan,
                format!(
                    "the kernel computes {} but declares {}; add `.cast({})`",
                    dtype.rust_name(),
                    spec.dtype.rust_name(),
                    spec.dtype.rust_name()
                ),
            ));
        }
        out_codes.push(code.clone());
    }
    Ok((ctx, out_codes))
}

/// The DSL expression of `e`, with the body's Rust values as they are bound now.
fn dsl(ctx: &Ctx, e: &syn::Expr) -> Result<crate::dsl::ast::Ast> {
    syntax::from_syn(e, &|id| {
        matches!(ctx.env.get(&id.to_string()), Some(Val::Host(_)))
    })
}

/// Binds the names of a `let` pattern to `v` (a tuple pattern to a list's items).
pub(crate) fn bind_pattern(ctx: &mut Ctx, pat: &syn::Pat, v: Val) -> Result<()> {
    match pat {
        syn::Pat::Ident(p) => {
            ctx.by_ref.remove(&p.ident.to_string());
            ctx.env.insert(p.ident.to_string(), v);
            Ok(())
        }
        syn::Pat::Type(t) => bind_pattern(ctx, &t.pat, v),
        syn::Pat::Tuple(t) => match v {
            Val::List(items) if items.len() == t.elems.len() => {
                for (p, item) in t.elems.iter().zip(items) {
                    bind_pattern(ctx, p, item)?;
                }
                Ok(())
            }
            other => Err(Error::new(
                t.span(),
                format!(
                    "cannot unpack {} into {} names",
                    other.describe(),
                    t.elems.len()
                ),
            )),
        },
        syn::Pat::Wild(_) => Ok(()),
        other => Err(Error::new(
            other.span(),
            "kernel `let` patterns are names or tuples of names",
        )),
    }
}
