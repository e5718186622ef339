//! `#[kernel]`: checks a function's tensor shapes symbolically while expanding it, then emits
//! a function that records its kernels on the first call with a given set of input shapes and
//! replays them on later calls.

pub mod infer;
mod signature;
mod syntax;
pub mod value;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{Error, ItemFn, Result, Stmt};

use infer::Ctx;
use signature::{Param, ScalarKind};
use value::{Val, show_shape};

use crate::sym::Equal;

pub fn expand(attr: TokenStream, item: TokenStream) -> Result<TokenStream> {
    if !attr.is_empty() {
        return Err(Error::new(attr.span(), "#[kernel] takes no arguments"));
    }
    let f: ItemFn = syn::parse2(item)?;
    let sig = signature::read(&f)?;
    let mut ctx = Ctx::new(sig.const_params.clone());
    for p in &sig.params {
        match p {
            Param::Tensor { name, spec } => {
                let shape = spec.shape(&name.to_string());
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
                    },
                );
            }
        }
    }
    // the body: `let` bindings, then the returned expression
    let mut result: Option<(Val, proc_macro2::Span)> = None;
    let n = f.block.stmts.len();
    for (i, stmt) in f.block.stmts.iter().enumerate() {
        match stmt {
            Stmt::Local(local) => {
                let init = local
                    .init
                    .as_ref()
                    .ok_or_else(|| Error::new(local.span(), "a kernel's `let` needs a value"))?;
                let v = ctx.eval(&syntax::from_syn(&init.expr)?)?;
                bind_pattern(&mut ctx, &local.pat, v)?;
            }
            Stmt::Expr(e, None) if i + 1 == n => {
                result = Some((ctx.eval(&syntax::from_syn(e)?)?, e.span()));
            }
            Stmt::Expr(e, _) => {
                ctx.eval(&syntax::from_syn(e)?)?;
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
    Ok(emit(&f, &sig, ctx, out_codes))
}

fn bind_pattern(ctx: &mut Ctx, pat: &syn::Pat, v: Val) -> Result<()> {
    match pat {
        syn::Pat::Ident(p) => {
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

fn emit(
    f: &ItemFn,
    sig: &signature::Signature,
    ctx: Ctx,
    out_codes: Vec<TokenStream>,
) -> TokenStream {
    let vis = &f.vis;
    let attrs = &f.attrs;
    let name = &f.sig.ident;
    let generics = &f.sig.generics;
    let where_clause = &generics.where_clause;
    let mut params = Vec::new();
    let mut tensor_names = Vec::new();
    let mut scalar_keys = Vec::new();
    for p in &sig.params {
        match p {
            Param::Tensor { name, spec } => {
                let ty = spec.rust_type();
                params.push(quote!(#name: #ty));
                tensor_names.push(name.clone());
            }
            Param::Scalar { name, kind, ty } => {
                params.push(quote!(#name: #ty));
                scalar_keys.push(match kind {
                    ScalarKind::Float32 | ScalarKind::Float64 => quote!(#name.to_bits() as u64),
                    _ => quote!(#name as u64),
                });
            }
        }
    }
    let rets: Vec<TokenStream> = sig.returns.tensors.iter().map(|t| t.rust_type()).collect();
    let ret_inner = if sig.returns.tuple {
        quote!((#(#rets),*))
    } else {
        quote!(#(#rets)*)
    };
    let ret_ty = if sig.returns.result {
        quote!(::tg::Result<#ret_inner>)
    } else {
        ret_inner.clone()
    };
    let unpack = tensor_names
        .iter()
        .enumerate()
        .map(|(i, n)| quote!(let #n: ::tg::DynTensor = __inputs[#i].clone();));
    let stmts = &ctx.stmts;
    let asserts = &ctx.asserts;
    let replayable = ctx.replayable;
    let name_str = name.to_string();
    let out_vars: Vec<_> = (0..rets.len()).map(|i| format_ident!("__o{i}")).collect();
    let take = if sig.returns.result {
        quote!(let mut __it = __outs?.into_iter();)
    } else {
        quote!(let mut __it = __outs.unwrap_or_else(|e| panic!("{}: {}", #name_str, e)).into_iter();)
    };
    let wrap = rets.iter().zip(&out_vars).map(|(ty, v)| {
        if sig.returns.result {
            quote!(let #v = <#ty>::try_from_dyn(__it.next().expect("kernel output"))?;)
        } else {
            quote!(let #v = <#ty>::from_dyn(__it.next().expect("kernel output"));)
        }
    });
    let value = if sig.returns.tuple {
        quote!((#(#out_vars),*))
    } else {
        quote!(#(#out_vars)*)
    };
    let value = if sig.returns.result {
        quote!(Ok(#value))
    } else {
        value
    };
    quote! {
        #(#attrs)*
        #vis fn #name #generics (#(#params),*) -> #ret_ty #where_clause {
            #(#asserts;)*
            let __run = |__inputs: &[::tg::DynTensor]| -> ::tg::Result<::std::vec::Vec<::tg::DynTensor>> {
                #(#unpack)*
                #(#stmts)*
                Ok(::std::vec![#(#out_codes.clone()),*])
            };
            static __KERNEL: ::tg::KernelCache = ::tg::KernelCache::new(#name_str, #replayable);
            let __outs = __KERNEL.call(::std::vec![#(#tensor_names.into_dyn()),*], &[#(#scalar_keys),*], __run);
            #take
            #(#wrap)*
            #value
        }
    }
}
