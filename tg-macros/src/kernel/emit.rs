//! The emitting half of `#[kernel]`: the typed function around the checked body (asserts
//! for what depends on const parameters, a closure over `DynTensor`s, and the `KernelCache`
//! that records the first call per input shapes and replays later ones), or, when the body
//! has an error, the function's signature around that error, so callers still type-check and
//! the user sees one error, the body's.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::ItemFn;

use super::infer::Ctx;
use super::signature::{Param, ScalarKind, Signature};

/// The function's signature as the user wrote it, with tg's types spelled out: attributes,
/// visibility, name, generics, parameters, return type and where clause.
fn signature(f: &ItemFn, sig: &Signature) -> TokenStream {
    let vis = &f.vis;
    let attrs = &f.attrs;
    let name = &f.sig.ident;
    let generics = &f.sig.generics;
    let where_clause = &generics.where_clause;
    let params = sig.params.iter().map(|p| match p {
        Param::Tensor {
            name,
            spec,
            by_ref: None,
        } => {
            let ty = spec.rust_type();
            quote!(#name: #ty)
        }
        Param::Tensor {
            name,
            spec,
            by_ref: Some(lifetime),
        } => {
            let ty = spec.rust_type();
            quote!(#name: & #lifetime #ty)
        }
        Param::Scalar { name, ty, .. } | Param::State { name, ty, .. } => quote!(#name: #ty),
    });
    let ret = return_type(sig);
    quote!(#(#attrs)* #vis fn #name #generics (#(#params),*) -> #ret #where_clause)
}

/// The declared return type: one tensor or a tuple of them, in a `Result` or not.
fn return_type(sig: &Signature) -> TokenStream {
    let rets: Vec<TokenStream> = sig.returns.tensors.iter().map(|t| t.rust_type()).collect();
    let inner = if sig.returns.tuple {
        quote!((#(#rets),*))
    } else {
        quote!(#(#rets)*)
    };
    if sig.returns.result {
        quote!(::tg::Result<#inner>)
    } else {
        inner
    }
}

/// The function for a body with an error: its signature, and a body that reports the error
/// and cannot run. Callers type-check against the signature, so the error is the only one.
pub fn stub(f: &ItemFn, sig: &Signature, error: syn::Error) -> TokenStream {
    let head = signature(f, sig);
    let error = error.to_compile_error();
    quote! {
        #[allow(unused_variables, unreachable_code)]
        #head {
            #error
            ::core::unreachable!("this #[kernel] did not compile")
        }
    }
}

/// How often the body names `name` (every occurrence of the identifier in its tokens).
fn references(f: &ItemFn, name: &proc_macro2::Ident) -> usize {
    fn count(tokens: proc_macro2::TokenStream, name: &proc_macro2::Ident) -> usize {
        tokens
            .into_iter()
            .map(|t| match t {
                proc_macro2::TokenTree::Ident(i) if i == *name => 1,
                proc_macro2::TokenTree::Group(g) => count(g.stream(), name),
                _ => 0,
            })
            .sum()
    }
    let block = &f.block;
    count(quote!(#block), name)
}

/// The compiled function: asserts, the body over `DynTensor`s, and the recording cache.
///
/// The recording's inputs are the tensor parameters, then the tensors of each value taken
/// by reference (a model, an optimizer: `KernelState`), so a replay reads and writes the
/// buffers of the values it is given; its outputs are the returned tensors, then the
/// tensors of each value taken by `&mut` (what an optimizer step assigns in place). Before
/// each call the host side of every `&mut` value runs (an optimizer's `advance`) and its
/// runtime scalars are bound.
pub fn emit(f: &ItemFn, sig: &Signature, ctx: Ctx, out_codes: Vec<TokenStream>) -> TokenStream {
    let head = signature(f, sig);
    let name = &f.sig.ident;
    let mut tensor_names = Vec::new();
    let mut inputs = Vec::new();
    let mut scalar_keys = Vec::new();
    let mut scalar_vars = Vec::new();
    let mut prologue = Vec::new();
    let mut epilogue = Vec::new();
    let mut slot = 0;
    for p in &sig.params {
        match p {
            Param::Tensor { name, by_ref, .. } => {
                tensor_names.push(name.clone());
                inputs.push(match by_ref {
                    None => quote!(#name.into_dyn()),
                    Some(_) => quote!(#name.as_dyn().clone()),
                });
            }
            Param::Scalar { name, kind, .. } => {
                // a scalar the body only uses as an operand is a var a replay rebinds; one it
                // uses anywhere else (a size, an option, arithmetic, Rust code) keys the
                // recordings
                if references(f, name) != super::value::operand_uses(slot) {
                    scalar_keys.push(match kind {
                        ScalarKind::Float32 | ScalarKind::Float64 => {
                            quote!(#name.to_bits() as u64)
                        }
                        ScalarKind::Int | ScalarKind::Bool => quote!(#name as u64),
                    });
                }
                scalar_vars.push(quote!(::tg::runtime::Scalar::from(#name)));
                slot += 1;
            }
            Param::State { name, mutable, .. } => {
                prologue.push(quote! {
                    __in.extend(::tg::__private::KernelState::kernel_tensors(&*#name)?);
                    __keys.extend(::tg::__private::KernelState::kernel_key(&*#name));
                });
                if *mutable {
                    prologue.push(quote! {
                        if !::tg::__private::in_kernel_body() {
                            __binds.extend(::tg::__private::KernelState::kernel_advance(&mut *#name));
                        }
                    });
                    epilogue.push(quote! {
                        __o.extend(::tg::__private::KernelState::kernel_tensors(&*#name)?);
                    });
                }
            }
        }
    }
    let rets: Vec<TokenStream> = sig.returns.tensors.iter().map(|t| t.rust_type()).collect();
    let unpack = tensor_names
        .iter()
        .enumerate()
        .map(|(i, n)| quote!(let #n: ::tg::DynTensor = __inputs[#i].clone();));
    let stmts = &ctx.stmts;
    let asserts = &ctx.asserts;
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
        #head {
            #(#asserts;)*
            static __KERNEL: ::tg::__private::KernelCache = ::tg::__private::KernelCache::new(#name_str, true);
            #[allow(unused_mut)]
            let __outs = (|| -> ::tg::Result<::std::vec::Vec<::tg::DynTensor>> {
                let mut __in: ::std::vec::Vec<::tg::DynTensor> = ::std::vec![#(#inputs),*];
                let mut __binds: ::std::vec::Vec<(u64, ::tg::runtime::Scalar)> = ::std::vec::Vec::new();
                let mut __keys: ::std::vec::Vec<u64> = ::std::vec![#(#scalar_keys),*];
                #(#prologue)*
                let __run = |__inputs: &[::tg::DynTensor]| -> ::tg::Result<::std::vec::Vec<::tg::DynTensor>> {
                    #(#unpack)*
                    #(#stmts)*
                    let mut __o = ::std::vec![#(#out_codes.clone()),*];
                    #(#epilogue)*
                    Ok(__o)
                };
                __KERNEL.call_bound(__in, &__keys, &[#(#scalar_vars),*], &__binds, __run)
            })();
            #take
            #(#wrap)*
            #value
        }
    }
}
