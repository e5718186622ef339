//! `tensor!` literals: nested brackets of numbers become a tensor whose static shape is the
//! nesting. The dtype comes from the literals (floats f32, integers i32, bools bool, or a
//! suffix such as `1u8`) or is stated after a semicolon: `tensor!([[1, 2], [3, 4]]; f16)`.
//! An empty literal states dtype and shape: `tensor!([]; f32, [0, 3])`.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::{Error, Result};

use tg_core::DType;

/// One element: its value, the kind the literal had, and where it is.
#[derive(Clone)]
struct Elem {
    value: Value,
    suffix: Option<DType>,
    span: Span,
}

#[derive(Clone)]
enum Value {
    Int(i128),
    Float(f64),
    Bool(bool),
    /// Any other expression (allowed when the dtype is stated).
    Expr(TokenStream),
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Bool(_) => "a bool",
            Value::Expr(_) => "an expression",
        }
    }
}

/// A parsed nesting: a list of sub-literals or one element.
enum Node {
    List(Vec<Node>, Span),
    Leaf(Elem),
}

/// Is this `tensor!` input a literal (rather than an expression)?
pub fn is_literal(input: &TokenStream) -> bool {
    let mut it = input.clone().into_iter();
    match it.next() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket => {
            matches!(it.next(), None | Some(TokenTree::Punct(_)))
                && !input.to_string().contains('@')
                && split_semicolon(input).0.into_iter().count() == 1
        }
        Some(TokenTree::Literal(_)) => true,
        Some(TokenTree::Punct(p)) if p.as_char() == '-' => {
            matches!(it.next(), Some(TokenTree::Literal(_)))
                && it.next().is_none_or(|t| is_semicolon(&t))
        }
        _ => false,
    }
}

fn is_semicolon(t: &TokenTree) -> bool {
    matches!(t, TokenTree::Punct(p) if p.as_char() == ';')
}

/// Splits `body ; spec` at the top-level semicolon.
fn split_semicolon(input: &TokenStream) -> (TokenStream, Option<TokenStream>) {
    let tokens: Vec<TokenTree> = input.clone().into_iter().collect();
    match tokens.iter().position(is_semicolon) {
        Some(i) => (
            tokens[..i].iter().cloned().collect(),
            Some(tokens[i + 1..].iter().cloned().collect()),
        ),
        None => (input.clone(), None),
    }
}

fn parse_elem(tokens: &[TokenTree]) -> Result<Elem> {
    let span = tokens
        .first()
        .map(|t| t.span())
        .unwrap_or_else(Span::call_site);
    let (neg, rest) = match tokens.first() {
        Some(TokenTree::Punct(p)) if p.as_char() == '-' => (true, &tokens[1..]),
        _ => (false, tokens),
    };
    if let [TokenTree::Literal(l)] = rest {
        let lit = syn::Lit::new(l.clone());
        let elem = match &lit {
            syn::Lit::Int(i) => {
                let v: i128 = i.base10_parse().map_err(|e| Error::new(l.span(), e))?;
                let suffix = suffix_dt(i.suffix(), l.span())?;
                if suffix.is_some_and(|d| d.is_float()) {
                    Elem {
                        value: Value::Float(if neg { -(v as f64) } else { v as f64 }),
                        suffix,
                        span,
                    }
                } else {
                    Elem {
                        value: Value::Int(if neg { -v } else { v }),
                        suffix,
                        span,
                    }
                }
            }
            syn::Lit::Float(f) => {
                let v: f64 = f.base10_parse().map_err(|e| Error::new(l.span(), e))?;
                Elem {
                    value: Value::Float(if neg { -v } else { v }),
                    suffix: suffix_dt(f.suffix(), l.span())?,
                    span,
                }
            }
            syn::Lit::Bool(b) if !neg => Elem {
                value: Value::Bool(b.value),
                suffix: None,
                span,
            },
            _ => return Err(Error::new(span, "a tensor literal holds numbers or bools")),
        };
        return Ok(elem);
    }
    if let [TokenTree::Ident(i)] = rest
        && !neg
        && (i == "true" || i == "false")
    {
        return Ok(Elem {
            value: Value::Bool(i == "true"),
            suffix: None,
            span,
        });
    }
    if tokens.is_empty() {
        return Err(Error::new(span, "empty element: remove the extra comma"));
    }
    Ok(Elem {
        value: Value::Expr(tokens.iter().cloned().collect()),
        suffix: None,
        span,
    })
}

fn suffix_dt(suffix: &str, span: Span) -> Result<Option<DType>> {
    if suffix.is_empty() {
        return Ok(None);
    }
    DType::from_rust_name(suffix).map(Some).ok_or_else(|| {
        Error::new(
            span,
            format!(
                "unknown literal suffix `{suffix}`; tg dtypes are {}",
                DType::RUST_NAMES
            ),
        )
    })
}

fn parse_node(tokens: &[TokenTree], span: Span) -> Result<Node> {
    if let [TokenTree::Group(g)] = tokens
        && g.delimiter() == Delimiter::Bracket
    {
        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
        let mut items = Vec::new();
        let mut start = 0;
        for i in 0..=inner.len() {
            let at_comma =
                i < inner.len() && matches!(&inner[i], TokenTree::Punct(p) if p.as_char() == ',');
            if i == inner.len() || at_comma {
                let part = &inner[start..i];
                if part.is_empty() {
                    if i == inner.len() {
                        break; // trailing comma or empty list
                    }
                    return Err(Error::new(
                        inner[i].span(),
                        "empty element: remove the extra comma",
                    ));
                }
                items.push(parse_node(part, part[0].span())?);
                start = i + 1;
            }
        }
        return Ok(Node::List(items, g.span()));
    }
    let _ = span;
    Ok(Node::Leaf(parse_elem(tokens)?))
}

/// Checks the nesting is rectangular; returns the shape and the elements in row-major order.
fn flatten(node: &Node) -> Result<(Vec<usize>, Vec<Elem>)> {
    match node {
        Node::Leaf(e) => Ok((vec![], vec![e.clone()])),
        Node::List(items, _) => {
            let mut shape: Option<Vec<usize>> = None;
            let mut elems = Vec::new();
            for (i, item) in items.iter().enumerate() {
                let (s, e) = flatten(item)?;
                match &shape {
                    None => shape = Some(s),
                    Some(first) if *first != s => {
                        let span = match item {
                            Node::List(_, sp) => *sp,
                            Node::Leaf(e) => e.span,
                        };
                        let what = |s: &[usize]| {
                            if s.is_empty() {
                                "a number".to_string()
                            } else {
                                format!("shape {s:?}")
                            }
                        };
                        return Err(Error::new(
                            span,
                            format!(
                                "ragged tensor literal: element {i} has {}, but element 0 has {}",
                                what(&s),
                                what(first)
                            ),
                        ));
                    }
                    _ => {}
                }
                elems.extend(e);
            }
            let mut full = vec![items.len()];
            full.extend(shape.unwrap_or_default());
            Ok((full, elems))
        }
    }
}

/// The stated `; dtype` and optional `, [shape]`.
fn parse_spec(spec: &TokenStream) -> Result<(DType, Option<Vec<usize>>)> {
    let tokens: Vec<TokenTree> = spec.clone().into_iter().collect();
    let Some(TokenTree::Ident(id)) = tokens.first() else {
        return Err(Error::new(
            tokens
                .first()
                .map(|t| t.span())
                .unwrap_or_else(Span::call_site),
            format!("expected a dtype after `;` ({})", DType::RUST_NAMES),
        ));
    };
    let dt = DType::from_rust_name(&id.to_string()).ok_or_else(|| {
        Error::new(
            id.span(),
            format!("unknown dtype `{id}`; tg dtypes are {}", DType::RUST_NAMES),
        )
    })?;
    match &tokens[1..] {
        [] => Ok((dt, None)),
        [TokenTree::Punct(p), TokenTree::Group(g)]
            if p.as_char() == ',' && g.delimiter() == Delimiter::Bracket =>
        {
            let dims = syn::parse::Parser::parse2(
                syn::punctuated::Punctuated::<syn::LitInt, syn::Token![,]>::parse_terminated,
                g.stream(),
            )?;
            let dims = dims
                .iter()
                .map(|d| d.base10_parse::<usize>())
                .collect::<Result<Vec<_>>>()?;
            Ok((dt, Some(dims)))
        }
        other => Err(Error::new(
            other[0].span(),
            "expected `, [d0, d1, ...]` (the shape) after the dtype",
        )),
    }
}

/// Decides the dtype of an unstated literal from its elements.
fn infer_dtype(elems: &[Elem]) -> Result<DType> {
    let first = &elems[0];
    for e in elems {
        if std::mem::discriminant(&e.value) != std::mem::discriminant(&first.value) {
            let hint = match (&first.value, &e.value) {
                (Value::Float(_), Value::Int(_)) => " (write it with a decimal point, e.g. `1.0`)",
                _ => "",
            };
            return Err(Error::new(
                e.span,
                format!(
                    "mixed dtypes in tensor literal: this is {}, but the first element is {}{hint}; or state the dtype: `tensor!([...]; f32)`",
                    e.value.kind(),
                    first.value.kind()
                ),
            ));
        }
    }
    let suffixed: Vec<&Elem> = elems.iter().filter(|e| e.suffix.is_some()).collect();
    if let Some(s) = suffixed.first() {
        for e in &suffixed {
            if e.suffix != s.suffix {
                return Err(Error::new(
                    e.span,
                    format!(
                        "mixed dtypes in tensor literal: suffix `{}` here, `{}` earlier",
                        e.suffix.map_or("", |d| d.rust_name()),
                        s.suffix.map_or("", |d| d.rust_name())
                    ),
                ));
            }
        }
        return Ok(s.suffix.unwrap_or(DType::F32));
    }
    match first.value {
        Value::Float(_) => Ok(DType::F32),
        Value::Int(_) => Ok(DType::I32),
        Value::Bool(_) => Ok(DType::Bool),
        Value::Expr(_) => Err(Error::new(
            first.span,
            "the dtype of an expression element is not known here; state it: `tensor!([...]; f32)`",
        )),
    }
}

/// One element as a Rust expression of `dt`, or an error if it does not fit.
fn element(e: &Elem, dt: DType) -> Result<TokenStream> {
    let ty = crate::dtype::rust_type(dt);
    let span = e.span;
    match (&e.value, dt) {
        (Value::Expr(t), DType::F16) => Ok(quote_spanned!(span=> <#ty>::from_f64(((#t) as f64)))),
        (Value::Expr(t), _) => Ok(quote_spanned!(span=> ((#t) as #ty))),
        (Value::Bool(b), DType::Bool) => Ok(quote!(#b)),
        (Value::Bool(_), _) | (_, DType::Bool) => Err(Error::new(
            span,
            format!(
                "{} literal in a tensor of dtype {}",
                e.value.kind(),
                dt.rust_name()
            ),
        )),
        (Value::Float(_), d) if d.is_int() => Err(Error::new(
            span,
            format!(
                "a float literal in a tensor of integer dtype {}; write an integer",
                d.rust_name()
            ),
        )),
        (Value::Int(v), d) if d.is_int() => {
            let (lo, hi) = (d.int_min(), d.int_max());
            if *v < lo || *v > hi {
                return Err(Error::new(
                    span,
                    format!("{v} does not fit in {} (range {lo}..={hi})", d.rust_name()),
                ));
            }
            let lit = proc_macro2::Literal::i128_unsuffixed(*v);
            Ok(quote!((#lit as #ty)))
        }
        (Value::Int(v), d) => float_elem(*v as f64, d),
        (Value::Float(v), d) => float_elem(*v, d),
    }
}

fn float_elem(v: f64, d: DType) -> Result<TokenStream> {
    let lit = proc_macro2::Literal::f64_unsuffixed(v.abs());
    let sign = if v.is_sign_negative() {
        quote!(-)
    } else {
        quote!()
    };
    Ok(match d {
        DType::F16 => quote!(::tg::prelude::f16::from_f64_const(#sign #lit)),
        DType::F32 => quote!((#sign #lit as f32)),
        _ => quote!((#sign #lit as f64)),
    })
}

/// Expands a `tensor!` literal.
pub fn expand(input: TokenStream) -> Result<TokenStream> {
    expand_parts(input).map(|(_, _, code)| code)
}

/// A `tensor!` literal's static shape, dtype and constructor code.
pub fn expand_parts(input: TokenStream) -> Result<(Vec<usize>, DType, TokenStream)> {
    let (body, spec) = split_semicolon(&input);
    let stated = spec.as_ref().map(parse_spec).transpose()?;
    let tokens: Vec<TokenTree> = body.into_iter().collect();
    let span = tokens
        .first()
        .map(|t| t.span())
        .unwrap_or_else(Span::call_site);
    let node = parse_node(&tokens, span)?;
    let (mut shape, elems) = flatten(&node)?;
    let dt = match (&stated, elems.is_empty()) {
        (Some((dt, _)), _) => *dt,
        (None, true) => {
            return Err(Error::new(
                span,
                "an empty tensor literal needs its dtype and shape: `tensor!([]; f32, [0, 3])`",
            ));
        }
        (None, false) => infer_dtype(&elems)?,
    };
    if let Some((_, Some(stated_shape))) = &stated {
        let n: usize = stated_shape.iter().product();
        if n != elems.len() {
            return Err(Error::new(
                span,
                format!(
                    "the stated shape {stated_shape:?} has {n} elements, the literal has {}",
                    elems.len()
                ),
            ));
        }
        shape = stated_shape.clone();
    }
    let values = elems
        .iter()
        .map(|e| element(e, dt))
        .collect::<Result<Vec<_>>>()?;
    let ty = crate::dtype::rust_type(dt);
    let dims = shape.iter().map(|d| {
        let d = proc_macro2::Literal::usize_unsuffixed(*d);
        quote!(::tg::Const<#d>,)
    });
    let code = quote! {
        ::tg::Tensor::<(#(#dims)*), #ty>::from_literal(&[#(#values),*])
    };
    Ok((shape, dt, code))
}
