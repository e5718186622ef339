//! Reads a `#[kernel]` signature: which parameters are tensors with which symbolic shapes and
//! dtypes, which are scalars (part of the replay cache key), and what the function returns.
//!
//! rustc parses an item before an attribute macro sees it, and `[B, 784]` is not a Rust type,
//! so shapes are written with the `shape!` type macro (`Tensor<shape![B, 784]>`, `_` for a
//! dynamic dimension), as `Rank2<B, 784>`, or as a tuple of `Const<N>` and `usize`.

use proc_macro2::Ident;
use syn::spanned::Spanned;
use syn::{
    Error, FnArg, GenericArgument, GenericParam, ItemFn, Pat, PathArguments, Result, ReturnType,
    Type,
};

use crate::sym::Poly;
use tg_core::DType;

/// One written dimension.
#[derive(Clone, Debug)]
pub enum DimSpec {
    Lit(usize),
    Param(Ident),
    /// `_`: known at run time only.
    Dynamic,
}

/// A tensor type as written: dims and dtype, and where it was written.
#[derive(Clone, Debug)]
pub struct TensorSpec {
    pub dims: Vec<DimSpec>,
    pub dtype: DType,
}

impl TensorSpec {
    /// Symbolic shape; dynamic dims become symbols named after `origin` and the axis.
    pub fn shape(&self, origin: &str) -> Vec<Poly> {
        self.dims
            .iter()
            .enumerate()
            .map(|(i, d)| match d {
                DimSpec::Lit(n) => Poly::constant(*n as i64),
                DimSpec::Param(p) => Poly::param(&p.to_string()),
                DimSpec::Dynamic => Poly::dynamic(&format!("{origin}.{i}")),
            })
            .collect()
    }

    /// The Rust type `::tg::Tensor<(dims), dtype>`.
    pub fn rust_type(&self) -> proc_macro2::TokenStream {
        let dims = self.dims.iter().map(|d| match d {
            DimSpec::Lit(n) => {
                let n = proc_macro2::Literal::usize_unsuffixed(*n);
                quote::quote!(::tg::Const<#n>,)
            }
            DimSpec::Param(p) => quote::quote!(::tg::Const<#p>,),
            DimSpec::Dynamic => quote::quote!(usize,),
        });
        let dt = crate::dtype::rust_type(self.dtype);
        quote::quote!(::tg::Tensor<(#(#dims)*), #dt>)
    }
}

/// A scalar parameter: its value keys the replay cache.
#[derive(Clone, Debug)]
pub enum ScalarKind {
    Float32,
    Float64,
    Int,
    Bool,
}

/// A parameter of the kernel.
#[derive(Clone, Debug)]
pub enum Param {
    /// A tensor, taken by value or by shared reference (`&Tensor<..>`, with its lifetime if
    /// one is written), so callers need no `.clone()` to keep theirs.
    Tensor {
        name: Ident,
        spec: TensorSpec,
        by_ref: Option<Option<syn::Lifetime>>,
    },
    Scalar {
        name: Ident,
        kind: ScalarKind,
        ty: Box<Type>,
    },
    /// Any other value by reference (`model: &mut Gpt`, `opt: &mut AdamW`, `layer:
    /// &TypedLinear<4, 3>`): the body's Rust code uses it; its tensors are the recording's
    /// inputs (`tg::replay::KernelState`), and by `&mut` its host side runs each call.
    State {
        name: Ident,
        ty: Box<Type>,
        mutable: bool,
    },
}

/// What the kernel returns.
#[derive(Clone, Debug)]
pub struct Returns {
    pub tensors: Vec<TensorSpec>,
    /// A tuple of tensors rather than one.
    pub tuple: bool,
    /// Wrapped in `Result`.
    pub result: bool,
}

pub struct Signature {
    pub params: Vec<Param>,
    pub const_params: Vec<Ident>,
    pub returns: Returns,
}

fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last(),
        _ => None,
    }
}

fn dim_from_expr(e: &syn::Expr, consts: &[Ident]) -> Result<DimSpec> {
    match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => Ok(DimSpec::Lit(i.base10_parse()?)),
        syn::Expr::Path(p) if p.path.get_ident().is_some() => {
            let id = p.path.get_ident().expect("ident").clone();
            if consts.contains(&id) {
                Ok(DimSpec::Param(id))
            } else {
                Err(Error::new(
                    id.span(),
                    format!("`{id}` is not a const parameter of this kernel"),
                ))
            }
        }
        syn::Expr::Infer(_) => Ok(DimSpec::Dynamic),
        syn::Expr::Block(_) | syn::Expr::Binary(_) => Err(Error::new(
            e.span(),
            "a derived dimension cannot be named as a type on stable Rust; write `_` (checked at run time) or a literal",
        )),
        _ => Err(Error::new(
            e.span(),
            "a dimension is a literal, a const parameter, or `_`",
        )),
    }
}

/// Dims of a `shape![...]` invocation.
fn dims_of_macro(m: &syn::TypeMacro, consts: &[Ident]) -> Result<Vec<DimSpec>> {
    let items = syn::parse::Parser::parse2(
        syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
        m.mac.tokens.clone(),
    )?;
    items.iter().map(|e| dim_from_expr(e, consts)).collect()
}

/// Dims of a shape type: `shape![..]`, `RankN<..>`, or a tuple of `Const<N>`/`usize`.
fn dims_of_type(ty: &Type, consts: &[Ident]) -> Result<Vec<DimSpec>> {
    match ty {
        Type::Macro(m)
            if m.mac
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "shape") =>
        {
            dims_of_macro(m, consts)
        }
        Type::Tuple(t) => t.elems.iter().map(|e| dim_of_type(e, consts)).collect(),
        Type::Array(a) => Err(Error::new(
            a.span(),
            "write shapes as `shape![a, b]` (rustc rejects `[a, b]` as a type before any macro sees it)",
        )),
        _ => {
            let seg = last_segment(ty).ok_or_else(|| Error::new(ty.span(), "expected a shape"))?;
            let name = seg.ident.to_string();
            if let Some(rank) = name
                .strip_prefix("Rank")
                .and_then(|r| r.parse::<usize>().ok())
            {
                let args: Vec<DimSpec> = match &seg.arguments {
                    PathArguments::AngleBracketed(a) => a
                        .args
                        .iter()
                        .map(|g| match g {
                            GenericArgument::Const(e) => dim_from_expr(e, consts),
                            GenericArgument::Type(Type::Path(p))
                                if p.path.get_ident().is_some() =>
                            {
                                dim_from_expr(&syn::parse_quote!(#p), consts)
                            }
                            other => Err(Error::new(other.span(), "expected a dimension")),
                        })
                        .collect::<Result<_>>()?,
                    PathArguments::None => vec![],
                    other => return Err(Error::new(other.span(), "expected `RankN<..>`")),
                };
                if args.len() != rank {
                    return Err(Error::new(
                        seg.span(),
                        format!("Rank{rank} takes {rank} dimensions"),
                    ));
                }
                return Ok(args);
            }
            Err(Error::new(
                ty.span(),
                "expected a shape: `shape![a, b]`, `RankN<..>` or a tuple of `Const<N>`/`usize`",
            ))
        }
    }
}

fn dim_of_type(ty: &Type, consts: &[Ident]) -> Result<DimSpec> {
    if let Some(seg) = last_segment(ty) {
        if seg.ident == "usize" {
            return Ok(DimSpec::Dynamic);
        }
        if seg.ident == "Const"
            && let PathArguments::AngleBracketed(a) = &seg.arguments
            && let Some(g) = a.args.first()
        {
            return match g {
                GenericArgument::Const(e) => dim_from_expr(e, consts),
                GenericArgument::Type(Type::Path(p)) => {
                    dim_from_expr(&syn::parse_quote!(#p), consts)
                }
                other => Err(Error::new(other.span(), "expected a dimension")),
            };
        }
    }
    Err(Error::new(
        ty.span(),
        "a dimension type is `Const<N>` or `usize`",
    ))
}

/// A `Tensor<shape, dtype>` type, if `ty` is one.
pub fn tensor_spec(ty: &Type, consts: &[Ident]) -> Result<Option<TensorSpec>> {
    let Some(seg) = last_segment(ty) else {
        return Ok(None);
    };
    if seg.ident != "Tensor" {
        return Ok(None);
    }
    let PathArguments::AngleBracketed(a) = &seg.arguments else {
        return Err(Error::new(
            seg.span(),
            "write the shape: `Tensor<shape![..]>`",
        ));
    };
    let mut args = a.args.iter();
    let shape = match args.next() {
        Some(GenericArgument::Type(t)) => dims_of_type(t, consts)?,
        other => {
            return Err(Error::new(
                other.map_or(seg.span(), |o| o.span()),
                "expected a shape type",
            ));
        }
    };
    let dtype = match args.next() {
        None => DType::F32,
        Some(GenericArgument::Type(t)) => {
            let name = last_segment(t)
                .map(|s| s.ident.to_string())
                .unwrap_or_default();
            DType::from_rust_name(&name).ok_or_else(|| {
                Error::new(
                    t.span(),
                    format!("unknown dtype; tg dtypes are {}", DType::RUST_NAMES),
                )
            })?
        }
        Some(other) => return Err(Error::new(other.span(), "expected a dtype")),
    };
    Ok(Some(TensorSpec { dims: shape, dtype }))
}

fn scalar_kind(ty: &Type) -> Option<ScalarKind> {
    let name = last_segment(ty)?.ident.to_string();
    Some(match name.as_str() {
        "f32" => ScalarKind::Float32,
        "f64" => ScalarKind::Float64,
        "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize" | "isize" => {
            ScalarKind::Int
        }
        "bool" => ScalarKind::Bool,
        _ => return None,
    })
}

fn returns(ret: &ReturnType, consts: &[Ident]) -> Result<Returns> {
    let ReturnType::Type(_, ty) = ret else {
        return Err(Error::new(
            ret.span(),
            "a kernel returns a tensor: `-> Tensor<shape![..]>`",
        ));
    };
    let mut ty: &Type = ty;
    let mut result = false;
    if let Some(seg) = last_segment(ty)
        && seg.ident == "Result"
        && let PathArguments::AngleBracketed(a) = &seg.arguments
        && let Some(GenericArgument::Type(inner)) = a.args.first()
    {
        result = true;
        ty = inner;
    }
    if let Type::Tuple(t) = ty {
        let tensors = t
            .elems
            .iter()
            .map(|e| {
                tensor_spec(e, consts)?
                    .ok_or_else(|| Error::new(e.span(), "a kernel returns tensors"))
            })
            .collect::<Result<Vec<_>>>()?;
        return Ok(Returns {
            tensors,
            tuple: true,
            result,
        });
    }
    let spec = tensor_spec(ty, consts)?
        .ok_or_else(|| Error::new(ty.span(), "a kernel returns `Tensor<shape![..]>`"))?;
    Ok(Returns {
        tensors: vec![spec],
        tuple: false,
        result,
    })
}

pub fn read(f: &ItemFn) -> Result<Signature> {
    let mut const_params = Vec::new();
    for g in &f.sig.generics.params {
        match g {
            GenericParam::Const(c) => const_params.push(c.ident.clone()),
            GenericParam::Lifetime(_) => {}
            GenericParam::Type(t) => {
                return Err(Error::new(
                    t.span(),
                    "a kernel's generic parameters are const dimensions (`const B: usize`)",
                ));
            }
        }
    }
    let mut params = Vec::new();
    for input in &f.sig.inputs {
        let FnArg::Typed(pt) = input else {
            return Err(Error::new(
                input.span(),
                "a kernel is a free function, not a method",
            ));
        };
        let Pat::Ident(pi) = &*pt.pat else {
            return Err(Error::new(
                pt.pat.span(),
                "kernel parameters are plain names",
            ));
        };
        let name = pi.ident.clone();
        let (ty, by_ref, mutable) = match &*pt.ty {
            Type::Reference(r) => (&*r.elem, Some(r.lifetime.clone()), r.mutability),
            ty => (ty, None, None),
        };
        if let Some(spec) = tensor_spec(ty, &const_params)? {
            if let Some(m) = mutable {
                return Err(Error::new(
                    m.span(),
                    "a kernel takes tensors by value or by shared reference (`&Tensor<..>`), not `&mut`",
                ));
            }
            params.push(Param::Tensor { name, spec, by_ref });
        } else if by_ref.is_some() && scalar_kind(ty).is_some() {
            return Err(Error::new(
                pt.ty.span(),
                "a kernel takes scalars by value; only tensors may be passed by reference",
            ));
        } else if by_ref.is_some() {
            params.push(Param::State {
                name,
                ty: pt.ty.clone(),
                mutable: mutable.is_some(),
            });
        } else if let Some(kind) = scalar_kind(&pt.ty) {
            params.push(Param::Scalar {
                name,
                kind,
                ty: pt.ty.clone(),
            });
        } else {
            return Err(Error::new(
                pt.ty.span(),
                "kernel parameters are tensors or scalars (f32, f64, integers, bool): their values key the compiled replay; a model or an optimizer is taken by reference (`model: &mut Gpt`)",
            ));
        }
    }
    let returns = returns(&f.sig.output, &const_params)?;
    Ok(Signature {
        params,
        const_params,
        returns,
    })
}
