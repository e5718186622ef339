//! Rust code in a kernel body: a call of a function or of another `#[kernel]`, a layer's
//! `forward`, an optimizer's step. The macro runs it as written, inside the recorded body,
//! with the body's tensors in scope as typed tensors of the shapes it proved
//! (`Tensor<(Const<B>, Const<784>)>`), so rustc checks every call against the signature it
//! calls: a tensor of the wrong shape is a type error at the argument. What the code gives
//! back is a tensor of the type written where it is bound (`let y: Tensor<shape![B, 10]> =
//! f(x);`, or the kernel's own return type when the code is the body's value), which rustc
//! checks against the callee's return type; any other value stays a Rust value, usable by
//! later Rust code.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Error, Expr, Result};

use super::infer::Ctx;
use super::signature::{TensorSpec, tensor_spec};
use super::value::Val;
use crate::sym::Poly;
use tg_core::DType;

/// The typed tensor type of a body's tensor: a dimension is `Const<N>` when it is a literal
/// or a const parameter, `usize` when dynamic, and left to rustc (`_`) when derived
/// (`B * T`, which stable Rust cannot write as a type).
pub fn typed_type(shape: &[Poly], dtype: DType) -> TokenStream {
    let dims = shape.iter().map(|d| {
        if let Some(n) = d.as_const() {
            let n = proc_macro2::Literal::usize_unsuffixed(n.max(0) as usize);
            quote!(::tg::Const<#n>,)
        } else if let Some(p) = d.as_param() {
            let p = Ident::new(p, Span::call_site());
            quote!(::tg::Const<#p>,)
        } else if d.is_dynamic() {
            quote!(usize,)
        } else {
            quote!(_,)
        }
    });
    let dt = crate::dtype::rust_type(dtype);
    quote!(::tg::Tensor<(#(#dims)*), #dt>)
}

/// `tokens` with every token's span set to `span`, so rustc's errors about generated code
/// point at what the user wrote (a type annotation, the kernel's return type).
pub fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|t| match t {
            TokenTree::Group(g) => {
                let mut g2 = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                g2.set_span(span);
                TokenTree::Group(g2)
            }
            mut other => {
                other.set_span(span);
                other
            }
        })
        .collect()
}

/// Every identifier in `tokens`, with the span of its first occurrence.
fn identifiers(tokens: TokenStream, out: &mut Vec<Ident>, seen: &mut BTreeSet<String>) {
    for t in tokens {
        match t {
            TokenTree::Ident(i) if seen.insert(i.to_string()) => out.push(i),
            TokenTree::Group(g) => identifiers(g.stream(), out, seen),
            _ => {}
        }
    }
}

/// The tensor type(s) of a `let`'s annotation: one tensor, a tuple of tensors, or `None`
/// when the annotation is some other Rust type.
fn tensor_types(ty: &syn::Type, consts: &[Ident]) -> Result<Option<(Vec<TensorSpec>, bool)>> {
    if let syn::Type::Tuple(t) = ty {
        let mut specs = Vec::new();
        for e in &t.elems {
            match tensor_spec(e, consts)? {
                Some(s) => specs.push(s),
                None => return Ok(None),
            }
        }
        return Ok((!specs.is_empty()).then_some((specs, true)));
    }
    Ok(tensor_spec(ty, consts)?.map(|s| (vec![s], false)))
}

impl Ctx {
    /// The body's values that `e` names, as Rust locals of the same names: tensors as typed
    /// tensors (see [`typed_type`]), scalars and integers as numbers.
    fn shadows(&self, e: &Expr) -> TokenStream {
        let mut names = Vec::new();
        identifiers(quote!(#e), &mut names, &mut BTreeSet::new());
        let mut out = TokenStream::new();
        for name in names {
            let Some(v) = self.env.get(&name.to_string()) else {
                continue;
            };
            if let Some(mut value) = self.typed_value(v) {
                if self.by_ref.contains(&name.to_string()) {
                    value = quote!(&#value);
                }
                out.extend(quote!(#[allow(unused_variables, unused_mut)] let #name = #value;));
            }
        }
        out
    }

    /// Rust code for `v` as host code sees it, or `None` where it needs no local (a Rust
    /// value, a scalar parameter under its own name) or has no Rust form.
    fn typed_value(&self, v: &Val) -> Option<TokenStream> {
        match v {
            Val::Tensor { shape, dtype, code } => {
                let ty = typed_type(shape, *dtype);
                Some(quote!(<#ty>::from_dyn(::core::clone::Clone::clone(&#code))))
            }
            Val::Scalar { code, .. } => Some(code.clone()),
            Val::Int(p) if !p.is_dynamic() => {
                let c = p.to_tokens(&|_| quote!(0usize));
                Some(quote!((#c as usize)))
            }
            Val::List(items) => {
                let items = items
                    .iter()
                    .map(|i| self.typed_value(i))
                    .collect::<Option<Vec<_>>>()?;
                Some(quote!((#(#items,)*)))
            }
            Val::Str(s) => Some(quote!(#s)),
            Val::Int(_) | Val::Dtype(_) | Val::Host(_) => None,
        }
    }

    /// Host code whose value is the tensor(s) of `specs` (a tuple when `tuple`): rustc checks
    /// the code's type against them; the macro continues with their shapes (`origin` names
    /// the dynamic dimensions). `at` is where the types were written.
    pub fn host_tensors(
        &mut self,
        e: &Expr,
        specs: &[TensorSpec],
        tuple: bool,
        origin: &str,
        at: Span,
    ) -> Val {
        let shadows = self.shadows(e);
        let types: Vec<TokenStream> = specs.iter().map(|s| respan(s.rust_type(), at)).collect();
        let names: Vec<Ident> = specs.iter().map(|_| self.fresh()).collect();
        let vals: Vec<Val> = specs
            .iter()
            .zip(&names)
            .enumerate()
            .map(|(k, (s, n))| Val::Tensor {
                shape: s.shape(&if tuple {
                    format!("{origin}.{k}")
                } else {
                    origin.to_string()
                }),
                dtype: s.dtype,
                code: quote!(#n),
            })
            .collect();
        let dyns = names.iter().map(|_| quote!(::tg::DynTensor));
        if tuple {
            let idx = (0..specs.len()).map(syn::Index::from);
            self.stmts.push(quote! {
                let (#(#names,)*): (#(#dyns,)*) = {
                    #shadows
                    let __r: (#(#types,)*) =
                        ::tg::__private::KernelValue::<(#(#types,)*)>::into_kernel_value(#e)?;
                    (#(__r.#idx.into_dyn(),)*)
                };
            });
            Val::List(vals)
        } else {
            let ty = &types[0];
            let n = &names[0];
            self.stmts.push(quote! {
                let #n: ::tg::DynTensor = {
                    #shadows
                    let __r: #ty = ::tg::__private::KernelValue::<#ty>::into_kernel_value(#e)?;
                    __r.into_dyn()
                };
            });
            vals.into_iter().next().expect("one tensor")
        }
    }

    /// `let pat [: ty] = e;` for host code `e`: with a tensor type, the tensor(s) the body
    /// goes on with; with another type or none, Rust values bound as written.
    pub fn host_let(&mut self, local: &syn::Local, e: &Expr) -> Result<()> {
        let (pat, ty) = match &local.pat {
            syn::Pat::Type(t) => (&*t.pat, Some(&*t.ty)),
            p => (p, None),
        };
        if let Some(ty) = ty
            && let Some((specs, tuple)) = tensor_types(ty, &self.consts)?
        {
            let origin = quote!(#pat).to_string();
            let v = self.host_tensors(e, &specs, tuple, &origin, ty.span());
            return super::check::bind_pattern(self, pat, v);
        }
        let shadows = self.shadows(e);
        let annotation = ty.map(|t| quote!(: #t));
        self.stmts
            .push(quote!(let #pat #annotation = { #shadows #e };));
        self.bind_host(pat)
    }

    /// Host code run for its effect (`opt.step(model, loss.as_dyn())?;`).
    pub fn host_stmt(&mut self, e: &Expr) {
        let shadows = self.shadows(e);
        self.stmts.push(quote!({ #shadows #e; }));
    }

    /// Names bound by a host `let` pattern become Rust values.
    fn bind_host(&mut self, pat: &syn::Pat) -> Result<()> {
        match pat {
            syn::Pat::Ident(p) => {
                let name = p.ident.to_string();
                self.by_ref.remove(&name);
                self.env.insert(name.clone(), Val::Host(name));
                Ok(())
            }
            syn::Pat::Tuple(t) => t.elems.iter().try_for_each(|p| self.bind_host(p)),
            syn::Pat::TupleStruct(t) => t.elems.iter().try_for_each(|p| self.bind_host(p)),
            syn::Pat::Type(t) => self.bind_host(&t.pat),
            syn::Pat::Reference(r) => self.bind_host(&r.pat),
            syn::Pat::Wild(_) => Ok(()),
            other => Err(Error::new(
                other.span(),
                "kernel `let` patterns are names or tuples of names",
            )),
        }
    }
}

/// The error for host code where the DSL needs a tensor of known shape.
pub fn untyped(e: &Expr) -> Error {
    let code = quote!(#e).to_string();
    Error::new(
        e.span(),
        format!(
            "`{code}` is Rust code, and the kernel does not know the shape of what it gives: bind it first with its type, `let y: Tensor<shape![..]> = {code};` (rustc checks the type against the function's)"
        ),
    )
}
