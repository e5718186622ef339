//! A kernel body's Rust syntax as DSL expressions. What the DSL does not support is an error
//! pointing at it (control flow, for one: the body is traced once and then replayed).
//!
//! Rust code that is not the DSL's (a call of a function or another kernel, a method of a
//! model, a layer or an optimizer, a field, `?`) is kept as written ([`Ast::Host`]): the
//! kernel runs it, with the body's tensors in scope as typed tensors, and rustc checks it.

use syn::spanned::Spanned;
use syn::{Error, Expr, Result};

use crate::dsl::ast::{Ast, BinOp, IndexItem};

/// Whether `e` is Rust code the kernel runs as written: it reaches a Rust value (`host`
/// says which names are: a model or an optimizer parameter, a Rust value bound in the
/// body), calls a function that is not a creation op, reads a named field, or uses `?`,
/// a closure, a block or a macro other than `tensor!`.
pub fn is_host(e: &Expr, host: &dyn Fn(&syn::Ident) -> bool) -> bool {
    match e {
        Expr::Path(p) => p.qself.is_none() && p.path.get_ident().is_some_and(host),
        Expr::Field(f) => match &f.member {
            syn::Member::Named(_) => true,
            syn::Member::Unnamed(_) => is_host(&f.base, host),
        },
        Expr::Try(_) | Expr::Closure(_) | Expr::Block(_) | Expr::Unsafe(_) => true,
        Expr::MethodCall(m) => is_host(&m.receiver, host),
        Expr::Call(c) => !is_creation_call(c),
        Expr::Index(i) => is_host(&i.expr, host),
        Expr::Reference(r) => is_host(&r.expr, host),
        Expr::Paren(p) => is_host(&p.expr, host),
        Expr::Group(g) => is_host(&g.expr, host),
        Expr::Macro(m) => m
            .mac
            .path
            .segments
            .last()
            .is_none_or(|s| s.ident != "tensor"),
        _ => false,
    }
}

/// `Tensor::name(..)` or `DynTensor::name(..)` (with any path before them): a creation op.
fn is_creation_call(c: &syn::ExprCall) -> bool {
    let Expr::Path(p) = &*c.func else {
        return false;
    };
    let segs: Vec<&syn::PathSegment> = p.path.segments.iter().collect();
    segs.len() >= 2 && {
        let ty = &segs[segs.len() - 2].ident;
        ty == "Tensor" || ty == "DynTensor"
    }
}

/// The DSL expression of `e`; `host` says which names are Rust values (see [`is_host`]).
pub fn from_syn(e: &Expr, host: &dyn Fn(&syn::Ident) -> bool) -> Result<Ast> {
    if is_host(e, host) {
        return Ok(Ast::Host(Box::new(e.clone())));
    }
    let from_syn = |e: &Expr| from_syn(e, host);
    Ok(match e {
        Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some() => {
            Ast::Var(p.path.get_ident().expect("ident").clone())
        }
        Expr::Lit(l) => Ast::Lit(l.lit.clone()),
        Expr::Paren(p) => from_syn(&p.expr)?,
        Expr::Group(g) => from_syn(&g.expr)?,
        Expr::Reference(r) => from_syn(&r.expr)?,
        Expr::Unary(u) => {
            let inner = Box::new(from_syn(&u.expr)?);
            match u.op {
                syn::UnOp::Neg(t) => Ast::Neg(inner, t.span),
                syn::UnOp::Not(t) => Ast::Not(inner, t.span),
                _ => {
                    return Err(Error::new(
                        u.span(),
                        "dereferencing is not supported in a #[kernel] body",
                    ));
                }
            }
        }
        Expr::Binary(b) => {
            use syn::BinOp as B;
            let op = match b.op {
                B::Add(_) => BinOp::Add,
                B::Sub(_) => BinOp::Sub,
                B::Mul(_) => BinOp::Mul,
                B::Div(_) => BinOp::Div,
                B::Rem(_) => BinOp::Rem,
                B::And(_) => BinOp::And,
                B::Or(_) => BinOp::Or,
                B::BitXor(_) => BinOp::BitXor,
                B::BitAnd(_) => BinOp::BitAnd,
                B::BitOr(_) => BinOp::BitOr,
                B::Shl(_) => BinOp::Shl,
                B::Shr(_) => BinOp::Shr,
                B::Eq(_) => BinOp::Eq,
                B::Lt(_) => BinOp::Lt,
                B::Le(_) => BinOp::Le,
                B::Ne(_) => BinOp::Ne,
                B::Ge(_) => BinOp::Ge,
                B::Gt(_) => BinOp::Gt,
                _ => {
                    return Err(Error::new(
                        b.op.span(),
                        "assignment operators are not supported in a #[kernel] body",
                    ));
                }
            };
            Ast::Bin(
                op,
                Box::new(from_syn(&b.left)?),
                Box::new(from_syn(&b.right)?),
                b.op.span(),
            )
        }
        Expr::MethodCall(m) => {
            if let Some(t) = &m.turbofish {
                return Err(Error::new(
                    t.span(),
                    "kernel bodies take axes and shapes as arguments, not type parameters: write `x.sum(1)`",
                ));
            }
            Ast::Method {
                recv: Box::new(from_syn(&m.receiver)?),
                name: m.method.clone(),
                args: m.args.iter().map(&from_syn).collect::<Result<_>>()?,
                span: m.method.span(),
            }
        }
        Expr::Call(c) => {
            let Expr::Path(p) = &*c.func else {
                return Err(Error::new(
                    c.func.span(),
                    "only named functions can be called in a #[kernel] body",
                ));
            };
            if p.qself.is_some() || p.path.segments.iter().any(|s| !s.arguments.is_none()) {
                return Err(Error::new(
                    p.span(),
                    "write the call without type arguments: `Tensor::zeros([B, 4])`, `f(x)`",
                ));
            }
            let path: Vec<syn::Ident> = p.path.segments.iter().map(|s| s.ident.clone()).collect();
            let span = path.last().map_or_else(|| p.span(), |i| i.span());
            Ast::Call {
                path,
                args: c.args.iter().map(&from_syn).collect::<Result<_>>()?,
                span,
            }
        }
        Expr::Array(a) => Ast::List(
            a.elems.iter().map(&from_syn).collect::<Result<_>>()?,
            a.span(),
        ),
        Expr::Tuple(t) => Ast::List(
            t.elems.iter().map(&from_syn).collect::<Result<_>>()?,
            t.span(),
        ),
        Expr::Index(i) => {
            let item = match &*i.index {
                Expr::Range(r) => {
                    if matches!(r.limits, syn::RangeLimits::Closed(_)) {
                        return Err(Error::new(
                            r.span(),
                            "inclusive ranges are not supported in indexing; write `a..b+1`",
                        ));
                    }
                    IndexItem::Slice {
                        start: r.start.as_deref().map(&from_syn).transpose()?.map(Box::new),
                        stop: r.end.as_deref().map(&from_syn).transpose()?.map(Box::new),
                        step: None,
                        span: r.span(),
                    }
                }
                other => IndexItem::At(from_syn(other)?),
            };
            Ast::Index {
                recv: Box::new(from_syn(&i.expr)?),
                items: vec![item],
                span: i.bracket_token.span.join(),
            }
        }
        Expr::Macro(m)
            if m.mac
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "tensor") =>
        {
            let tokens = m.mac.tokens.clone();
            if crate::literal::is_literal(&tokens) {
                Ast::Literal(tokens, m.span())
            } else {
                crate::dsl::parse::parse_expr(tokens)?
            }
        }
        Expr::Field(f) => match &f.member {
            syn::Member::Unnamed(i) => {
                Ast::Field(Box::new(from_syn(&f.base)?), i.index as usize, f.span())
            }
            syn::Member::Named(n) => {
                return Err(Error::new(
                    n.span(),
                    "fields are not supported in a #[kernel] body",
                ));
            }
        },
        Expr::Assign(a) => match &*a.left {
            Expr::Path(p) if p.path.get_ident().is_some() => Ast::Named(
                p.path.get_ident().expect("ident").clone(),
                Box::new(from_syn(&a.right)?),
            ),
            _ => {
                return Err(Error::new(
                    a.span(),
                    "assignments are not supported in a #[kernel] body",
                ));
            }
        },
        Expr::If(_) | Expr::Match(_) | Expr::Loop(_) | Expr::While(_) | Expr::ForLoop(_) => {
            return Err(Error::new(
                e.span(),
                "control flow is not supported in a #[kernel] body: it is traced once and replayed",
            ));
        }
        other => {
            return Err(Error::new(
                other.span(),
                "this expression is not supported in a #[kernel] body",
            ));
        }
    })
}
