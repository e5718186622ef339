//! Reading one argument of a kernel body's call by its parameter's kind (tg-core's op table):
//! what the rules see of it (a [`Value`] over symbolic dims) and the Rust code that passes it
//! to the `DynTensor` op. A value of the wrong sort is an error at the argument.

use proc_macro2::{Literal, Span, TokenStream};
use quote::quote;
use syn::{Error, Result};
use tg_core::ScalarKind;
use tg_core::ops::{ArgDefault, Choices, KECCAK_NAMES, Kind, OpError, Param, Value, WindowField};
use tg_core::shape::window::Padding;

use super::args;
use crate::dtype::dtype_tokens;
use crate::kernel::value::{Arg, Val};
use crate::sym::Poly;

/// An argument as read: what the rules see, and its code (`None`: not given, so the op's or
/// the option builder's own default applies).
pub struct Read {
    pub value: Value<Poly>,
    pub code: Option<TokenStream>,
}

impl Read {
    fn new(value: Value<Poly>, code: TokenStream) -> Read {
        Read {
            value,
            code: Some(code),
        }
    }
}

/// The value of a number written in the kernel (a literal, possibly negated), for checks the
/// rules can make at once; `None` for run-time values.
pub fn known_f64(v: &Val) -> Option<f64> {
    fn eval(e: &syn::Expr) -> Option<f64> {
        match e {
            syn::Expr::Lit(l) => match &l.lit {
                syn::Lit::Float(f) => f.base10_parse().ok(),
                syn::Lit::Int(i) => i.base10_parse().ok(),
                _ => None,
            },
            syn::Expr::Paren(p) => eval(&p.expr),
            syn::Expr::Group(g) => eval(&g.expr),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => eval(&u.expr).map(|x| -x),
            _ => None,
        }
    }
    match v {
        Val::Int(p) => p.as_const().map(|c| c as f64),
        Val::Scalar {
            kind: ScalarKind::Float | ScalarKind::Int,
            code,
            ..
        } => syn::parse2::<syn::Expr>(code.clone())
            .ok()
            .and_then(|e| eval(&e)),
        _ => None,
    }
}

/// The kind of a scalar value.
fn scalar_kind(v: &Val) -> Option<ScalarKind> {
    match v {
        Val::Scalar { kind, .. } => Some(*kind),
        Val::Int(_) => Some(ScalarKind::Int),
        _ => None,
    }
}

/// `usize` code for a dim: a plain literal when it is one, else the polynomial.
pub fn usize_code(p: &Poly) -> TokenStream {
    match p.as_const() {
        Some(n) => {
            let l = Literal::usize_suffixed(n.max(0) as usize);
            quote!(#l)
        }
        None => p.to_tokens(&|_| quote!(0usize)),
    }
}

/// `&[isize]` code.
fn isizes(v: &[i64]) -> TokenStream {
    let items = v.iter().map(|&x| {
        let l = Literal::i64_unsuffixed(x);
        quote!((#l as isize))
    });
    quote!(&[#(#items),*])
}

/// `vec![..]` of `usize` code.
fn usize_vec(v: &[i64]) -> TokenStream {
    let items = v.iter().map(|&x| {
        let l = Literal::i64_unsuffixed(x);
        quote!((#l as usize))
    });
    quote!(::std::vec![#(#items),*])
}

/// A literal bool, with an error naming the parameter.
fn boolean(op: &str, name: &str, a: &Arg) -> Result<bool> {
    args::boolean(op, a).map_err(|_| {
        Error::new(
            a.span,
            format!(
                "`{op}`: {name} is `true` or `false`, found {}",
                a.val.describe()
            ),
        )
    })
}

/// A compile-time size, not negative.
fn size(op: &str, name: &str, a: &Arg) -> Result<Poly> {
    let n = args::poly(op, a)?;
    if let Some(k) = n.as_const()
        && k < 0
    {
        return Err(Error::new(
            a.span,
            format!("`{op}`: {name} must not be negative, found {k}"),
        ));
    }
    args::bounded(op, std::slice::from_ref(&n), a.span)?;
    Ok(n)
}

/// Sizes, none negative.
fn sizes(op: &'static str, name: &str, a: &Arg) -> Result<Vec<Poly>> {
    let v = args::polys(op, a)?;
    if let Some(x) = v
        .iter()
        .filter_map(Poly::as_const)
        .find(|&x| !(0..=(i32::MAX as i64)).contains(&x))
    {
        return Err(Error::new(
            a.span,
            format!(
                "`{op}`: {name} {} has {x}; sizes must be in 0..={}",
                crate::kernel::value::show_shape(&v),
                i32::MAX
            ),
        ));
    }
    Ok(v)
}

/// `&[usize]` code for sizes.
fn sizes_code(v: &[Poly]) -> TokenStream {
    let items = v.iter().map(usize_code);
    quote!(&[#(#items),*])
}

/// The index of a choice's name.
fn choice(op: &'static str, c: Choices, a: &Arg) -> Result<usize> {
    let list = || {
        c.names()
            .iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &a.val {
        Val::Str(s) => c.find(s).ok_or_else(|| {
            let e: OpError<Poly> = OpError::Choice {
                op,
                what: c.what(),
                given: s.clone(),
                names: c.names(),
            };
            Error::new(a.span, e.to_string())
        }),
        other => Err(Error::new(
            a.span,
            format!(
                "`{op}` expects the {} as a string ({}), found {}",
                c.what(),
                list(),
                other.describe()
            ),
        )),
    }
}

/// `::tg::path::Variant` for choice `i`.
pub fn choice_code(c: Choices, i: usize) -> TokenStream {
    let (path, variants) = c.rust();
    let path: TokenStream = path.parse().unwrap_or_default();
    let v = proc_macro2::Ident::new(variants[i.min(variants.len() - 1)], Span::call_site());
    quote!(::tg::#path::#v)
}

/// A window size argument: one literal integer or a list of them.
fn window_sizes(op: &str, a: &Arg) -> Result<(Value<Poly>, TokenStream)> {
    match &a.val {
        Val::List(_) => {
            let v = args::ints(op, a)?;
            let code = usize_vec(&v);
            Ok((Value::Ints(v), code))
        }
        _ => {
            let k = args::int(op, a)?;
            let l = Literal::i64_unsuffixed(k);
            Ok((Value::Int(k), quote!((#l as usize))))
        }
    }
}

/// A window's padding: one amount, one per axis, or `(before, after)` pairs.
fn window_padding(op: &str, a: &Arg) -> Result<(Value<Poly>, TokenStream)> {
    let isize = |v: i64| {
        isize::try_from(v).map_err(|_| Error::new(a.span, format!("`{op}`: {v} is out of range")))
    };
    if let Val::List(items) = &a.val
        && !items.is_empty()
        && items.iter().all(|i| matches!(i, Val::List(_)))
    {
        let pairs = args::pairs(op, a)?
            .into_iter()
            .map(|(x, y)| Ok((isize(x)?, isize(y)?)))
            .collect::<Result<Vec<_>>>()?;
        let items = pairs.iter().map(|&(x, y)| {
            let (x, y) = (x as i64, y as i64);
            quote!((#x as isize, #y as isize))
        });
        let code = quote!(::tg::Padding::Pairs(::std::vec![#(#items),*]));
        return Ok((Value::Padding(Padding::Pairs(pairs)), code));
    }
    if let Val::List(_) = &a.val {
        let v = args::ints(op, a)?
            .into_iter()
            .map(isize)
            .collect::<Result<Vec<_>>>()?;
        let items = v.iter().map(|&x| {
            let x = x as i64;
            quote!((#x as isize))
        });
        let code = quote!(::tg::Padding::PerAxis(::std::vec![#(#items),*]));
        return Ok((Value::Padding(Padding::PerAxis(v)), code));
    }
    let p = isize(args::int(op, a)?)?;
    let l = p as i64;
    Ok((
        Value::Padding(Padding::Uniform(p)),
        quote!(::tg::Padding::Uniform(#l as isize)),
    ))
}

/// Reads argument `a` for parameter `p` of `op`.
pub fn read(op: &'static str, p: &Param, a: &Arg) -> Result<Read> {
    let name = p.name;
    Ok(match p.kind {
        Kind::Axis => {
            let v = args::isize_arg(op, a)? as i64;
            let l = Literal::i64_unsuffixed(v);
            Read::new(Value::Int(v), quote!((#l as isize)))
        }
        Kind::OptAxis => {
            let v = args::isize_arg(op, a)? as i64;
            let l = Literal::i64_unsuffixed(v);
            Read::new(Value::Int(v), quote!(Some(#l as isize)))
        }
        Kind::Axes => {
            let v: Vec<i64> = args::axes(op, a)?.into_iter().map(|x| x as i64).collect();
            let s = isizes(&v);
            Read::new(Value::Ints(v), quote!(Some(#s)))
        }
        Kind::AxisList | Kind::Ints => {
            let v: Vec<i64> = args::axes(op, a)?.into_iter().map(|x| x as i64).collect();
            let s = isizes(&v);
            Read::new(Value::Ints(v), s)
        }
        Kind::Bool => {
            let b = boolean(op, name, a)?;
            Read::new(Value::Bool(b), quote!(#b))
        }
        Kind::F64 => {
            let code = args::scalar_f64(op, a)?;
            let kind = scalar_kind(&a.val).unwrap_or(ScalarKind::Float);
            Read::new(Value::Scalar(kind, known_f64(&a.val)), code)
        }
        Kind::Size => {
            let n = size(op, name, a)?;
            let code = usize_code(&n);
            Read::new(Value::Dim(n), code)
        }
        Kind::OptSize => {
            let n = size(op, name, a)?;
            let code = usize_code(&n);
            Read::new(Value::Dim(n), quote!(Some(#code)))
        }
        Kind::Counts => {
            let v = args::ints(op, a)?;
            if let Some(r) = v.iter().find(|&&r| r < 0) {
                return Err(Error::new(
                    a.span,
                    format!("`{op}`: the count {r} is negative"),
                ));
            }
            let items = v.iter().map(|&r| {
                let l = Literal::i64_unsuffixed(r);
                quote!((#l as usize))
            });
            let code = quote!(&[#(#items),*]);
            Read::new(Value::Ints(v), code)
        }
        Kind::Offset => {
            let p = args::poly(op, a)?;
            match p.as_const() {
                Some(k) => {
                    let l = Literal::i64_unsuffixed(k);
                    Read::new(Value::Int(k), quote!((#l as isize)))
                }
                None => {
                    let t = p.to_tokens(&|_| quote!(0usize));
                    Read::new(Value::Opaque, quote!(((#t as i64) as isize)))
                }
            }
        }
        Kind::I64 => {
            let v = args::int(op, a)?;
            let l = Literal::i64_suffixed(v);
            Read::new(Value::Int(v), quote!(#l))
        }
        Kind::OptI64 => {
            let p = args::poly(op, a)?;
            let c = match p.as_const() {
                Some(k) => {
                    let l = Literal::i64_unsuffixed(k);
                    quote!(#l)
                }
                None => p.to_tokens(&|_| quote!(0usize)),
            };
            Read::new(Value::Opaque, quote!(Some(#c as i64)))
        }
        Kind::I32 => Read::new(Value::Opaque, fill_i32(op, name, a)?),
        Kind::DType => {
            let d = args::dtype(op, a)?;
            Read::new(Value::DType(d), dtype_tokens(d))
        }
        Kind::OptDType => {
            let d = args::dtype(op, a)?;
            let t = dtype_tokens(d);
            Read::new(Value::DType(d), quote!(Some(#t)))
        }
        Kind::Tensor => {
            let (s, d, c) = tensor(op, name, a)?;
            Read::new(Value::Tensor(s.to_vec(), d), quote!(&#c))
        }
        Kind::OptTensor => {
            let (s, d, c) = tensor(op, name, a)?;
            Read::new(Value::Tensor(s.to_vec(), d), quote!(Some(&#c)))
        }
        Kind::Tensors => {
            let items: Vec<Val> = match &a.val {
                Val::List(items) => items.clone(),
                v => vec![v.clone()],
            };
            let mut ts = Vec::new();
            let mut codes = Vec::new();
            for v in items {
                let item = Arg::new(v, a.span);
                let (s, d, c) = args::tensor(op, &item)?;
                ts.push((s.to_vec(), d));
                codes.push(quote!(#c.clone()));
            }
            Read::new(Value::Tensors(ts), quote!(#(#codes),*))
        }
        Kind::Operand => match &a.val {
            Val::Tensor { shape, dtype, code } => {
                Read::new(Value::Tensor(shape.clone(), *dtype), quote!(&#code))
            }
            v => {
                let code = operand(a)?;
                let kind = scalar_kind(v).unwrap_or(ScalarKind::Float);
                Read::new(Value::Scalar(kind, known_f64(v)), code)
            }
        },
        Kind::OptOperand => match &a.val {
            Val::Tensor { shape, dtype, code } => Read::new(
                Value::Tensor(shape.clone(), *dtype),
                quote!(Some((&#code).into())),
            ),
            v => {
                let s = args::scalar_f64(op, a)?;
                let kind = scalar_kind(v).unwrap_or(ScalarKind::Float);
                Read::new(
                    Value::Scalar(kind, known_f64(v)),
                    quote!(Some(::tg::untyped::elementwise::Operand::from(#s))),
                )
            }
        },
        Kind::Fill | Kind::PadValue => {
            let code = args::scalar_any(op, a)?;
            let kind = scalar_kind(&a.val).unwrap_or(ScalarKind::Bool);
            Read::new(Value::Scalar(kind, known_f64(&a.val)), code)
        }
        Kind::Shape => {
            let dims = args::polys(op, a)?;
            let t = args::targets(op, &dims, a.span)?;
            Read::new(Value::Target(t), args::dims_isize(&dims))
        }
        Kind::OptShape => {
            let dims = args::polys(op, a)?;
            let t = args::targets(op, &dims, a.span)?;
            let items = t.iter().map(|d| match d {
                None => quote!(None),
                Some(p) => {
                    let u = usize_code(p);
                    quote!(Some(#u))
                }
            });
            Read::new(Value::Target(t.clone()), quote!(&[#(#items),*]))
        }
        Kind::Sizes => {
            let v = sizes(op, name, a)?;
            args::bounded(op, &v, a.span)?;
            let code = sizes_code(&v);
            Read::new(Value::Dims(v), code)
        }
        Kind::OptSizes => {
            let v = sizes(op, name, a)?;
            args::bounded(op, &v, a.span)?;
            let code = sizes_code(&v);
            Read::new(Value::Dims(v), quote!(Some(#code)))
        }
        Kind::SplitSizes => match &a.val {
            Val::List(_) => {
                let v = args::polys(op, a)?;
                args::bounded(op, &v, a.span)?;
                if let Some(s) = v.iter().find(|s| s.as_const().is_some_and(|k| k < 0)) {
                    return Err(Error::new(
                        a.span,
                        format!(
                            "`{op}`: size {s} in {} is negative",
                            crate::kernel::value::show_shape(&v)
                        ),
                    ));
                }
                let code = sizes_code(&v);
                Read::new(Value::Dims(v), code)
            }
            _ => {
                let n = args::poly(op, a)?;
                if let Some(k) = n.as_const()
                    && k <= 0
                {
                    return Err(Error::new(
                        a.span,
                        format!("`{op}`: the piece size must be positive, found {k}"),
                    ));
                }
                let code = usize_code(&n);
                Read::new(Value::Dim(n), code)
            }
        },
        Kind::Pairs => {
            let v = args::pairs(op, a)?;
            for &(x, y) in &v {
                for z in [x, y] {
                    isize::try_from(z)
                        .map_err(|_| Error::new(a.span, format!("`{op}`: {z} is out of range")))?;
                }
            }
            let items = v.iter().map(|&(x, y)| quote!((#x as isize, #y as isize)));
            let code = quote!(&[#(#items),*]);
            Read::new(Value::Pairs(v), code)
        }
        Kind::Ranges => {
            let v = args::pairs(op, a)?;
            let items = v.iter().map(|&(x, y)| quote!((#x as usize, #y as usize)));
            let code = quote!(&[#(#items),*]);
            Read::new(Value::Pairs(v), code)
        }
        Kind::Choice(c) => {
            let i = choice(op, c, a)?;
            Read::new(Value::Choice(i), choice_code(c, i))
        }
        Kind::OptChoice(c) => {
            let i = choice(op, c, a)?;
            let code = choice_code(c, i);
            Read::new(Value::Choice(i), quote!(Some(#code)))
        }
        Kind::PadMode => {
            let i = choice(op, Choices::PadMode, a)?;
            Read::new(Value::Choice(i), quote!())
        }
        Kind::Keccak => keccak(op, a)?,
        Kind::Floats => {
            let items = match &a.val {
                Val::List(items) => items.clone(),
                v => vec![v.clone()],
            };
            let ps = items
                .into_iter()
                .map(|v| args::scalar_f64(op, &Arg::new(v, a.span)))
                .collect::<Result<Vec<_>>>()?;
            Read::new(Value::Count(ps.len()), quote!(&[#(#ps),*]))
        }
        Kind::Formula => match &a.val {
            Val::Str(s) => {
                let l = Literal::string(s);
                Read::new(Value::Text(s.clone()), quote!(#l))
            }
            other => {
                return Err(Error::new(
                    a.span,
                    format!(
                        "`{op}` takes its formula as a string literal, found {}",
                        other.describe()
                    ),
                ));
            }
        },
        Kind::Window(f) => {
            let (value, code) = match f {
                WindowField::Padding => window_padding(op, a)?,
                WindowField::CeilMode | WindowField::CountIncludePad => {
                    let b = boolean(op, name, a)?;
                    (Value::Bool(b), quote!(#b))
                }
                WindowField::Kernel => match &a.val {
                    Val::List(_) => window_sizes(op, a)?,
                    // one size is both axes of a 2-D window (tinygrad's `make_tuple(k, 2)`)
                    _ => {
                        let k = args::int(op, a)?;
                        let l = Literal::i64_unsuffixed(k);
                        (Value::Int(k), quote!(::std::vec![#l as usize, #l as usize]))
                    }
                },
                WindowField::Stride
                | WindowField::Dilation
                | WindowField::Groups
                | WindowField::OutputPadding => window_sizes(op, a)?,
            };
            Read::new(value, code)
        }
    })
}

/// A parameter not given: its default (the kinds of it the table uses).
pub fn default(op: &str, p: &Param, span: Span) -> Result<Read> {
    let absent = |code: TokenStream| Read {
        value: Value::Absent,
        code: Some(code),
    };
    let internal = || {
        Error::new(
            span,
            format!(
                "internal: `{op}`: no default for `{}` ({:?})",
                p.name, p.kind
            ),
        )
    };
    Ok(match (p.default, p.kind) {
        (ArgDefault::Required, _) => return Err(internal()),
        // an option builder's own default, or a pad mode's
        (_, Kind::Window(WindowField::Kernel)) => {
            let ArgDefault::Ints(v) = p.default else {
                return Err(internal());
            };
            Read::new(Value::Ints(v.to_vec()), usize_vec(v))
        }
        (ArgDefault::Absent, Kind::Window(_)) => Read {
            value: Value::Absent,
            code: None,
        },
        (ArgDefault::Int(k), Kind::Window(WindowField::Padding)) => Read {
            value: Value::Padding(Padding::Uniform(k as isize)),
            code: None,
        },
        (ArgDefault::Int(k), Kind::Window(_)) => Read {
            value: Value::Int(k),
            code: None,
        },
        (ArgDefault::Bool(b), Kind::Window(_)) => Read {
            value: Value::Bool(b),
            code: None,
        },
        (ArgDefault::Absent, _) => absent(quote!(None)),
        (ArgDefault::Bool(b), Kind::Bool) => Read::new(Value::Bool(b), quote!(#b)),
        (ArgDefault::Int(k), Kind::Axis) => {
            let l = Literal::i64_unsuffixed(k);
            Read::new(Value::Int(k), quote!((#l as isize)))
        }
        (ArgDefault::Int(k), Kind::Offset) => {
            let l = Literal::i64_unsuffixed(k);
            Read::new(Value::Int(k), quote!((#l as isize)))
        }
        (ArgDefault::Int(k), Kind::I32) => {
            let l = Literal::i32_suffixed(k as i32);
            Read::new(Value::Opaque, quote!(#l))
        }
        (ArgDefault::Int(k), Kind::Fill | Kind::PadValue) => {
            let l = Literal::i64_suffixed(k);
            Read::new(Value::Scalar(ScalarKind::Int, Some(k as f64)), quote!(#l))
        }
        (ArgDefault::F64(f), Kind::F64 | Kind::Fill) => {
            Read::new(Value::Scalar(ScalarKind::Float, Some(f)), quote!(#f))
        }
        (ArgDefault::Ints(v), Kind::AxisList) => Read::new(Value::Ints(v.to_vec()), isizes(v)),
        (ArgDefault::Str(s), Kind::Choice(c)) => {
            let i = c.find(s).ok_or_else(internal)?;
            Read::new(Value::Choice(i), choice_code(c, i))
        }
        (ArgDefault::Str(s), Kind::PadMode) => {
            let i = Choices::PadMode.find(s).ok_or_else(internal)?;
            Read::new(Value::Choice(i), quote!())
        }
        (ArgDefault::Str(s), Kind::DType) => {
            let d = tg_core::DType::from_rust_name(s).ok_or_else(internal)?;
            Read::new(Value::DType(d), dtype_tokens(d))
        }
        (ArgDefault::Str(s), Kind::Keccak) => {
            keccak(op_static(op), &Arg::new(Val::Str(s.to_string()), span))?
        }
        _ => return Err(internal()),
    })
}

/// The op's name with a static lifetime (every op name is one of the table's).
fn op_static(op: &str) -> &'static str {
    tg_core::ops::lookup(op).map_or("op", |s| s.name)
}

/// A tensor argument: its shape, dtype and code, with an error naming the parameter.
fn tensor<'a>(
    op: &str,
    name: &str,
    a: &'a Arg,
) -> Result<(&'a [Poly], tg_core::DType, &'a TokenStream)> {
    match &a.val {
        Val::Tensor { shape, dtype, code } => Ok((shape, *dtype, code)),
        other => Err(Error::new(
            a.span,
            format!("`{op}` takes a tensor {name}, found {}", other.describe()),
        )),
    }
}

/// A value as an operand (a tensor, or a scalar: a kernel's scalar argument is a var).
fn operand(a: &Arg) -> Result<TokenStream> {
    a.val.operand().ok_or_else(|| {
        Error::new(
            a.span,
            format!("expected a tensor or a scalar, found {}", a.val.describe()),
        )
    })
}

/// An `i32` value: a fill of positions.
fn fill_i32(op: &str, name: &str, a: &Arg) -> Result<TokenStream> {
    match &a.val {
        Val::Int(p) => match p.as_const() {
            Some(k) if i32::try_from(k).is_ok() => {
                let l = Literal::i32_suffixed(k as i32);
                Ok(quote!(#l))
            }
            Some(k) => Err(Error::new(
                a.span,
                format!("`{op}`: {name} {k} does not fit an i32 position"),
            )),
            None => {
                let c = p.to_tokens(&|_| quote!(0usize));
                Ok(quote!((#c as i32)))
            }
        },
        Val::Scalar {
            kind: ScalarKind::Int,
            code,
            ..
        } => Ok(quote!((#code as i32))),
        other => Err(Error::new(
            a.span,
            format!(
                "`{op}`: {name} is an i32 position, found {}",
                other.describe()
            ),
        )),
    }
}

/// Keccak's configuration: a standard name or a `(rate, dsbyte)` pair of literals.
fn keccak(op: &'static str, a: &Arg) -> Result<Read> {
    let names = || {
        KECCAK_NAMES
            .iter()
            .map(|(n, ..)| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &a.val {
        Val::Str(s) => {
            let Some((_, variant, rate, ds)) = KECCAK_NAMES.iter().find(|(n, ..)| n == s) else {
                let e: OpError<Poly> = OpError::KeccakName {
                    op,
                    given: s.clone(),
                };
                return Err(Error::new(a.span, e.to_string()));
            };
            let v = proc_macro2::Ident::new(variant, Span::call_site());
            Ok(Read::new(
                Value::Keccak {
                    rate: *rate as i64,
                    dsbyte: *ds as i64,
                },
                quote!(::tg::untyped::hash::Keccak::#v),
            ))
        }
        Val::List(items) if items.len() == 2 => {
            let rate = args::int(op, &Arg::new(items[0].clone(), a.span))?;
            let ds = args::int(op, &Arg::new(items[1].clone(), a.span))?;
            let (r, d) = (rate.clamp(0, 199) as usize, ds.clamp(0, 255) as u8);
            Ok(Read::new(
                Value::Keccak { rate, dsbyte: ds },
                quote!(::tg::untyped::hash::Keccak::Custom { rate: #r, dsbyte: #d }),
            ))
        }
        other => Err(Error::new(
            a.span,
            format!(
                "`{op}` takes {} or a (rate, dsbyte) pair, found {}",
                names(),
                other.describe()
            ),
        )),
    }
}
