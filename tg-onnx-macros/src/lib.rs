//! `onnx_kernel!`: an ONNX model read while the crate compiles and turned into a function whose
//! inputs and outputs are shape-typed tensors.
//!
//! ```ignore
//! tg::onnx_kernel!(pub fn classify = "models/mobilenet.onnx");
//! // model input `x: float32 [batch, 3, 96, 96]`, output `y: float32 [batch, 100]`:
//! // pub fn classify<const BATCH: usize>(x: &Tensor<shape![BATCH, 3, 96, 96]>)
//! //     -> tg::onnx::Result<Tensor<shape![BATCH, 100]>>
//! ```
//!
//! The path is relative to the file that invokes the macro (as `include_bytes!`'s). The model
//! is loaded and checked here, with tg-onnx-format (which links no device code): a model tg
//! cannot import is a compile error naming the op and the node. Each symbolic dimension of the
//! inputs becomes a const parameter, so a call with a tensor of another shape does not compile;
//! a dimension the model leaves open is dynamic (`_`). The function loads the model from the
//! file on its first call (weights uploaded once) and runs it through `OnnxModel`, which
//! records the first call per input shapes and replays it after, as `#[kernel]` does.

use std::path::{Path, PathBuf};

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token, Visibility};
use tg_onnx_format::{DType, Dim, Model, ValueInfo, ValueKind};

struct Spec {
    vis: Visibility,
    name: Ident,
    path: LitStr,
}

impl Parse for Spec {
    fn parse(input: ParseStream) -> syn::Result<Spec> {
        let vis: Visibility = input.parse()?;
        input.parse::<Token![fn]>()?;
        let name: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        let path: LitStr = input.parse()?;
        if !input.is_empty() {
            input.parse::<Token![;]>()?;
        }
        Ok(Spec { vis, name, path })
    }
}

/// Reads an ONNX model at compile time and defines a function of shape-typed tensors that
/// runs it: `onnx_kernel!(pub fn name = "path/to/model.onnx")`. See the crate docs.
#[proc_macro]
pub fn onnx_kernel(input: TokenStream) -> TokenStream {
    let spec = match syn::parse::<Spec>(input) {
        Ok(s) => s,
        Err(e) => return e.to_compile_error().into(),
    };
    match expand(&spec) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// The model file: relative to the invoking source file's folder, else to the crate root.
fn resolve(path: &str) -> PathBuf {
    let p = Path::new(path);
    if p.is_absolute() {
        return p.to_path_buf();
    }
    let from_file = proc_macro::Span::call_site()
        .local_file()
        .and_then(|f| f.parent().map(|d| d.join(p)));
    match from_file {
        Some(f) if f.exists() => f,
        _ => {
            let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
            Path::new(&root).join(p)
        }
    }
}

fn rust_type(d: DType) -> TokenStream2 {
    match d {
        DType::Bool => quote!(bool),
        DType::I8 => quote!(i8),
        DType::U8 => quote!(u8),
        DType::I16 => quote!(i16),
        DType::U16 => quote!(u16),
        DType::I32 => quote!(i32),
        DType::U32 => quote!(u32),
        DType::I64 => quote!(i64),
        DType::U64 => quote!(u64),
        DType::F16 => quote!(::tg::prelude::f16),
        DType::F32 => quote!(f32),
        DType::F64 => quote!(f64),
    }
}

/// A symbolic dimension's const parameter: its name in upper case, other characters `_`.
fn symbol_ident(s: &str) -> Ident {
    let mut name: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, 'D');
    }
    format_ident!("{}", name)
}

/// A parameter named after the model input (lower case, other characters `_`), so that a
/// type error at a call names it.
fn param_ident(name: &str, i: usize) -> Ident {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s = format!("input{i}_{s}");
    }
    if syn::parse_str::<Ident>(&s).is_err() {
        s.push('_');
    }
    format_ident!("{}", s)
}

/// `shape![..]` for declared dims; `symbols` are the const parameters (from the inputs).
fn shape_tokens(v: &ValueInfo, symbols: &[String], span: Span) -> syn::Result<TokenStream2> {
    let dims = v.dims.as_ref().ok_or_else(|| {
        syn::Error::new(
            span,
            format!("ONNX value {:?} has no declared shape", v.name),
        )
    })?;
    let parts: Vec<TokenStream2> = dims
        .iter()
        .map(|d| match d {
            Dim::Fixed(n) => {
                let lit = proc_macro2::Literal::usize_unsuffixed(*n);
                quote!(#lit)
            }
            Dim::Symbol(s) if symbols.contains(s) => {
                let id = symbol_ident(s);
                quote!(#id)
            }
            _ => quote!(_),
        })
        .collect();
    Ok(quote!(::tg::shape![#(#parts),*]))
}

fn expand(spec: &Spec) -> syn::Result<TokenStream2> {
    let span = spec.path.span();
    // absolute, so that `include_bytes!` and the load at run time find the same file
    let path = resolve(&spec.path.value());
    let path = std::fs::canonicalize(&path).unwrap_or(path);
    let model = Model::load(&path).map_err(|e| syn::Error::new(span, format!("{e}")))?;
    let mut symbols: Vec<String> = Vec::new();
    for v in model.inputs() {
        if v.kind != ValueKind::Tensor || v.exotic.is_some() || v.dtype.is_none() {
            return Err(syn::Error::new(
                span,
                format!("ONNX input {:?} is not a tensor of a tg dtype", v.name),
            ));
        }
        for d in v.dims.iter().flatten() {
            if let Dim::Symbol(s) = d
                && !symbols.contains(s)
            {
                symbols.push(s.clone());
            }
        }
    }
    let params: Vec<Ident> = symbols.iter().map(|s| symbol_ident(s)).collect();
    let mut args = Vec::new();
    let mut arg_names = Vec::new();
    for (i, v) in model.inputs().iter().enumerate() {
        let id = param_ident(&v.name, i);
        let shape = shape_tokens(v, &symbols, span)?;
        let ty = rust_type(v.dtype.unwrap_or(DType::F32));
        args.push(quote!(#id: &::tg::Tensor<#shape, #ty>));
        arg_names.push(id);
    }
    let mut outs = Vec::new();
    for v in model.outputs() {
        if v.kind != ValueKind::Tensor || v.exotic.is_some() {
            return Err(syn::Error::new(
                span,
                format!("ONNX output {:?} is not a tensor of a tg dtype", v.name),
            ));
        }
        let dt = v.dtype.ok_or_else(|| {
            syn::Error::new(
                span,
                format!("ONNX output {:?} declares no element type", v.name),
            )
        })?;
        let shape = shape_tokens(v, &symbols, span)?;
        let ty = rust_type(dt);
        outs.push(quote!(::tg::Tensor<#shape, #ty>));
    }
    let ret = if outs.len() == 1 {
        outs[0].clone()
    } else {
        quote!((#(#outs),*))
    };
    let conv: Vec<TokenStream2> = (0..outs.len())
        .map(|i| quote!(::tg::Tensor::try_from_dyn(outs[#i].clone()).map_err(::tg::onnx::Error::device)))
        .collect();
    let value = if outs.len() == 1 {
        quote!(#(#conv)*)
    } else {
        quote!(Ok((#(#conv?),*)))
    };
    let file = path.to_string_lossy().into_owned();
    let (vis, name) = (&spec.vis, &spec.name);
    let doc = format!(
        "Runs the ONNX model `{}` (read when this crate compiled; opset {}).",
        spec.path.value(),
        model.opset
    );
    Ok(quote! {
        #[doc = #doc]
        #vis fn #name<#(const #params: usize),*>(#(#args),*) -> ::tg::onnx::Result<#ret> {
            // rebuild when the model changes (an unused const: nothing lands in the binary)
            const _: &[u8] = include_bytes!(#file);
            static MODEL: ::std::sync::OnceLock<::tg::onnx::OnnxModel> = ::std::sync::OnceLock::new();
            let model = match MODEL.get() {
                Some(m) => m,
                None => {
                    let loaded = ::tg::onnx::OnnxModel::load(#file)?;
                    MODEL.get_or_init(|| loaded)
                }
            };
            let outs = model.run_positional(&[#(#arg_names.as_dyn().clone()),*])?;
            #value
        }
    })
}
