//! `#[derive(Module)]`: a struct's `Module` impl from its fields. A field is a tensor
//! (`DynTensor`, `Option<DynTensor>`, a typed `Tensor<..>`: a parameter, or a buffer with
//! `#[module(buffer)]`), a scalar or string (configuration, skipped), or a child module
//! (any other type: a layer, a `Vec` or array of layers, another derived struct), whose
//! tensors are named `field.…`. `#[module(skip)]` leaves a field out.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Error, Fields, GenericArgument, PathArguments, Result, Type};

/// What a field is to the module.
enum Kind {
    /// A `DynTensor`.
    Tensor,
    /// An `Option<DynTensor>`.
    OptTensor,
    /// A typed `Tensor<S, T>`.
    Typed,
    /// A module whose tensors are this one's, prefixed.
    Child,
    /// Not part of the module's state.
    Skip,
}

/// The last path segment of a type, if it is a plain path.
fn last(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last(),
        _ => None,
    }
}

/// The type argument of `Option<T>`.
fn option_inner(ty: &Type) -> Option<&Type> {
    let seg = last(ty)?;
    if seg.ident != "Option" {
        return None;
    }
    match &seg.arguments {
        PathArguments::AngleBracketed(a) => match a.args.first() {
            Some(GenericArgument::Type(t)) => Some(t),
            _ => None,
        },
        _ => None,
    }
}

const SCALARS: &[&str] = &[
    "f32",
    "f64",
    "bool",
    "usize",
    "isize",
    "u8",
    "u16",
    "u32",
    "u64",
    "i8",
    "i16",
    "i32",
    "i64",
    "String",
    "PhantomData",
    "DType",
];

fn kind_of(ty: &Type) -> Kind {
    if let Some(inner) = option_inner(ty) {
        return match kind_of(inner) {
            Kind::Tensor => Kind::OptTensor,
            Kind::Skip => Kind::Skip,
            _ => Kind::Child,
        };
    }
    match last(ty).map(|s| s.ident.to_string()) {
        Some(n) if n == "DynTensor" => Kind::Tensor,
        Some(n) if n == "Tensor" => Kind::Typed,
        Some(n) if SCALARS.contains(&n.as_str()) => Kind::Skip,
        _ => Kind::Child,
    }
}

/// The field's `#[module(..)]` options: (skip, buffer).
fn options(field: &syn::Field) -> Result<(bool, bool)> {
    let (mut skip, mut buffer) = (false, false);
    for attr in field.attrs.iter().filter(|a| a.path().is_ident("module")) {
        attr.parse_nested_meta(|m| {
            if m.path.is_ident("skip") {
                skip = true;
                Ok(())
            } else if m.path.is_ident("buffer") {
                buffer = true;
                Ok(())
            } else {
                Err(m.error("expected `skip` or `buffer`"))
            }
        })?;
    }
    Ok((skip, buffer))
}

pub fn derive(input: TokenStream) -> Result<TokenStream> {
    let item: DeriveInput = syn::parse2(input)?;
    let Data::Struct(data) = &item.data else {
        return Err(Error::new(
            item.ident.span(),
            "#[derive(Module)] is for structs (their fields are the module's tensors and layers)",
        ));
    };
    let members: Vec<(syn::Member, String, &syn::Field)> = match &data.fields {
        Fields::Named(f) => f
            .named
            .iter()
            .map(|f| {
                let id = f.ident.clone().expect("named field");
                let name = id.to_string();
                (syn::Member::Named(id), name, f)
            })
            .collect(),
        Fields::Unnamed(f) => f
            .unnamed
            .iter()
            .enumerate()
            .map(|(i, f)| (syn::Member::Unnamed(i.into()), i.to_string(), f))
            .collect(),
        Fields::Unit => Vec::new(),
    };
    let (mut visit, mut inspect, mut train, mut modes) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let f = format_ident!("__f");
    for (member, name, field) in &members {
        let (skip, buffer) = options(field)?;
        if skip {
            continue;
        }
        let kind = kind_of(&field.ty);
        let role = if buffer {
            quote!(::tg::nn::Role::Buffer)
        } else {
            quote!(::tg::nn::Role::Parameter)
        };
        if buffer && matches!(kind, Kind::Child | Kind::Skip) {
            return Err(Error::new(
                field.ty.span(),
                "`#[module(buffer)]` marks a tensor field (`DynTensor`, `Option<DynTensor>`, `Tensor<..>`)",
            ));
        }
        match kind {
            Kind::Tensor => {
                visit.push(quote!(#f(#name, #role, &mut self.#member)?;));
                inspect.push(quote!(#f(#name, #role, &self.#member)?;));
            }
            Kind::OptTensor => {
                visit.push(quote!(if let Some(t) = &mut self.#member { #f(#name, #role, t)?; }));
                inspect.push(quote!(if let Some(t) = &self.#member { #f(#name, #role, t)?; }));
            }
            Kind::Typed => {
                visit.push(quote!(::tg::nn::visit_typed(#name, #role, &mut self.#member, #f)?;));
                inspect.push(quote!(#f(#name, #role, self.#member.as_dyn())?;));
            }
            Kind::Child => {
                visit.push(quote!(::tg::nn::child(#name, &mut self.#member, #f)?;));
                inspect.push(quote!(::tg::nn::child_ref(#name, &self.#member, #f)?;));
                train.push(quote!(::tg::nn::Module::set_training(&mut self.#member, training);));
                modes.push(quote!(::tg::nn::Module::modes(&self.#member, out);));
            }
            Kind::Skip => {}
        }
    }
    let ident = &item.ident;
    let (impl_generics, ty_generics, where_clause) = item.generics.split_for_impl();
    Ok(quote! {
        impl #impl_generics ::tg::nn::Module for #ident #ty_generics #where_clause {
            fn visit(&mut self, #f: &mut ::tg::nn::Visitor<'_>) -> ::tg::Result<()> {
                #(#visit)*
                Ok(())
            }

            fn inspect(&self, #f: &mut ::tg::nn::Inspector<'_>) -> ::tg::Result<()> {
                #(#inspect)*
                Ok(())
            }

            fn set_training(&mut self, training: bool) {
                let _ = training;
                #(#train)*
            }

            fn modes(&self, out: &mut ::std::vec::Vec<u64>) {
                let _ = &out;
                #(#modes)*
            }
        }
    })
}
