//! `tensor!` expressions outside `#[kernel]`: the macro does not see the operands' types, so
//! it emits the typed API's operators and methods and lets tg-ops' trait bounds check shapes
//! and dtypes (rank broadcasting, matmul inner dims, dtype categories).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{Error, Result};

use super::ast::{Ast, BinOp, IndexItem};

pub fn emit(ast: &Ast) -> Result<TokenStream> {
    Ok(match ast {
        Ast::Var(id) => quote!(::tg::__private::arg(&#id)),
        Ast::Lit(l) => quote!(#l),
        Ast::Literal(tokens, _) => {
            let code = crate::literal::expand(tokens.clone())?;
            quote!((#code))
        }
        Ast::Neg(a, span) => {
            let a = emit(a)?;
            quote_spanned!(*span=> (-(#a)))
        }
        Ast::Not(a, span) => {
            let a = emit(a)?;
            quote_spanned!(*span=> (!(#a)))
        }
        Ast::Bin(op, a, b, span) => {
            let (a, b) = (emit(a)?, emit(b)?);
            let span = *span;
            match op {
                BinOp::Add => quote_spanned!(span=> ((#a) + (#b))),
                BinOp::Sub => quote_spanned!(span=> ((#a) - (#b))),
                BinOp::Mul => quote_spanned!(span=> ((#a) * (#b))),
                BinOp::Div => quote_spanned!(span=> ((#a) / (#b))),
                BinOp::Rem => quote_spanned!(span=> ((#a) % (#b))),
                BinOp::BitAnd => quote_spanned!(span=> ((#a) & (#b))),
                BinOp::BitOr => quote_spanned!(span=> ((#a) | (#b))),
                BinOp::BitXor => quote_spanned!(span=> ((#a) ^ (#b))),
                BinOp::Shl => quote_spanned!(span=> ((#a) << (#b))),
                BinOp::Shr => quote_spanned!(span=> ((#a) >> (#b))),
                BinOp::MatMul => quote_spanned!(span=> (#a).matmul(&(#b))),
                BinOp::Pow => quote_spanned!(span=> (#a).pow(#b)),
                BinOp::Lt => quote_spanned!(span=> (#a).lt(#b)),
                BinOp::Le => quote_spanned!(span=> (#a).le(#b)),
                BinOp::Gt => quote_spanned!(span=> (#a).gt(#b)),
                BinOp::Ge => quote_spanned!(span=> (#a).ge(#b)),
                BinOp::Eq => quote_spanned!(span=> (#a).eq(#b)),
                BinOp::Ne => quote_spanned!(span=> (#a).ne(#b)),
                BinOp::And => quote_spanned!(span=> (#a).logical_and(#b)),
                BinOp::Or => quote_spanned!(span=> (#a).logical_or(#b)),
            }
        }
        Ast::Method {
            recv,
            name,
            args,
            span,
        } => {
            let r = emit(recv)?;
            let args = args.iter().map(emit).collect::<Result<Vec<_>>>()?;
            quote_spanned!(*span=> (#r).#name(#(#args),*))
        }
        Ast::Call { path, args, span } => {
            let args = args.iter().map(emit).collect::<Result<Vec<_>>>()?;
            quote_spanned!(*span=> #(#path)::*(#(#args),*))
        }
        Ast::Host(e) => quote!(#e),
        Ast::Index { recv, items, span } => {
            let r = emit(recv)?;
            let items = items.iter().map(index_item).collect::<Result<Vec<_>>>()?;
            // the result's shape type comes from the context (`let y: Tensor<..> = ...`)
            quote_spanned!(*span=> (#r).index(&[#(#items),*]))
        }
        Ast::List(_, span) => {
            return Err(Error::new(*span, "a list is not a tensor expression here"));
        }
        Ast::Field(base, i, _) => {
            let b = emit(base)?;
            let idx = syn::Index::from(*i);
            quote!((#b).#idx)
        }
        Ast::Named(n, _) => {
            return Err(Error::new(
                n.span(),
                "keyword arguments need #[kernel]; outside it, call the typed method",
            ));
        }
    })
}

/// One index item as an `Index` value.
fn index_item(item: &IndexItem) -> Result<TokenStream> {
    let index = quote!(::tg::untyped::indexing::Index);
    let int = |e: &Option<Box<Ast>>| -> Result<TokenStream> {
        Ok(match e {
            None => quote!(None),
            Some(a) => {
                let v = emit(a)?;
                quote!(Some((#v) as isize))
            }
        })
    };
    Ok(match item {
        IndexItem::NewAxis => quote!(#index::NewAxis),
        IndexItem::Ellipsis(_) => quote!(#index::Ellipsis),
        IndexItem::Slice {
            start, stop, step, ..
        } => {
            let (s, e) = (int(start)?, int(stop)?);
            let st = match step {
                None => quote!(1isize),
                Some(a) => {
                    let v = emit(a)?;
                    quote!((#v) as isize)
                }
            };
            quote!(#index::Slice { start: #s, stop: #e, step: #st })
        }
        IndexItem::At(Ast::Var(id)) => quote!(::tg::__private::index_item(&#id)),
        IndexItem::At(a) => {
            let v = emit(a)?;
            quote!(#index::Int((#v) as isize))
        }
    })
}

/// A whole `tensor!` expression: its value as an owned tensor.
pub fn expand(input: TokenStream) -> Result<TokenStream> {
    let ast = super::parse::parse_expr(input)?;
    let code = emit(&ast)?;
    Ok(match ast {
        Ast::Var(_) => quote!(::core::clone::Clone::clone(#code)),
        _ => code,
    })
}
