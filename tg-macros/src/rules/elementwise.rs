//! Elementwise ops: the output has the operands' broadcast shape; the dtype follows tg-ops
//! (float math on integers gives f32, tests give bool).

use proc_macro2::{Ident, Span};
use quote::quote;
use syn::{Error, Result};

use super::args;
use crate::dsl::ast::BinOp;
use tg_core::DType;

use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};

/// Unary ops whose result is a float (integers give f32).
const FLOAT_UNARY: &[&str] = &[
    "exp",
    "exp2",
    "log",
    "log2",
    "sqrt",
    "rsqrt",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "erf",
    "reciprocal",
    "gelu",
    "gelu_erf",
    "quick_gelu",
    "silu",
    "mish",
    "softsign",
    "sigmoid",
    "logsigmoid",
    "hardsigmoid",
    "hardswish",
    "selu",
];
/// Unary ops that keep the dtype.
const SAME_UNARY: &[&str] = &[
    "abs",
    "sign",
    "trunc",
    "floor",
    "ceil",
    "round",
    "relu",
    "relu6",
    "square",
    "contiguous",
    "detach",
];
/// Unary tests giving bool.
const BOOL_UNARY: &[&str] = &["isnan", "isinf", "isfinite", "logical_not"];
/// Binary methods and the operator they mean.
const BINARY: &[(&str, &str)] = &[
    ("add", "Add"),
    ("sub", "Sub"),
    ("mul", "Mul"),
    ("div", "Div"),
    ("idiv", "Idiv"),
    ("floor_div", "FloorDiv"),
    ("modulo", "Mod"),
    ("pow", "Pow"),
    ("maximum", "Maximum"),
    ("minimum", "Minimum"),
    ("eq", "Eq"),
    ("ne", "Ne"),
    ("lt", "Lt"),
    ("le", "Le"),
    ("gt", "Gt"),
    ("ge", "Ge"),
    ("logical_and", "LogicalAnd"),
    ("logical_or", "LogicalOr"),
    ("logical_xor", "LogicalXor"),
    ("bitwise_and", "BitAnd"),
    ("bitwise_or", "BitOr"),
    ("bitwise_xor", "BitXor"),
    ("shl", "Shl"),
    ("shr", "Shr"),
];

/// The other methods of the family, each with its own rule below.
const OTHER: &[&str] = &[
    "bitwise_not",
    "neg",
    "leaky_relu",
    "elu",
    "celu",
    "softplus",
    "hardtanh",
    "clamp",
    "clip",
    "where_",
    "lerp",
    "cast",
    "bitcast",
    "isclose",
];

/// Every method name of the family.
pub fn names() -> Vec<&'static str> {
    [FLOAT_UNARY, SAME_UNARY, BOOL_UNARY, OTHER]
        .concat()
        .into_iter()
        .chain(BINARY.iter().map(|&(n, _)| n))
        .collect()
}

/// Methods that return the tensor itself rather than a `Result`.
const INFALLIBLE: &[&str] = &["contiguous", "detach"];

pub fn apply(ctx: &mut Ctx, name: &str, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let m = Ident::new(name, span);
    if let Some(&(_, variant)) = BINARY.iter().find(|(n, _)| *n == name) {
        args::count(name, &args, 1, 1, span)?;
        let op = match variant {
            "Add" => Some(BinOp::Add),
            "Sub" => Some(BinOp::Sub),
            "Mul" => Some(BinOp::Mul),
            "Div" => Some(BinOp::Div),
            "Mod" => Some(BinOp::Rem),
            "Pow" => Some(BinOp::Pow),
            "Eq" => Some(BinOp::Eq),
            "Ne" => Some(BinOp::Ne),
            "Lt" => Some(BinOp::Lt),
            "Le" => Some(BinOp::Le),
            "Gt" => Some(BinOp::Gt),
            "Ge" => Some(BinOp::Ge),
            "LogicalAnd" => Some(BinOp::And),
            "LogicalOr" => Some(BinOp::Or),
            "BitAnd" => Some(BinOp::BitAnd),
            "BitOr" => Some(BinOp::BitOr),
            "BitXor" => Some(BinOp::BitXor),
            "Shl" => Some(BinOp::Shl),
            "Shr" => Some(BinOp::Shr),
            _ => None,
        };
        let b = args.into_iter().next().expect("one argument");
        if let Some(op) = op {
            return ctx.binary(op, recv, b, span);
        }
        // maximum, minimum, idiv, floor_div, logical_xor: same shapes and dtypes as `+`
        let v = ctx.binary(BinOp::Add, recv.clone(), b.clone(), span)?;
        let Val::Tensor { shape, dtype, .. } = v else {
            unreachable!("binary gives a tensor")
        };
        let dtype = if variant == "LogicalXor" {
            DType::Bool
        } else {
            dtype
        };
        let variant = Ident::new(variant, span);
        let (ca, cb) = (
            recv.val.operand().expect("operand"),
            b.val.operand().expect("operand"),
        );
        return Ok(ctx.bind(
            shape,
            dtype,
            quote!(::tg::DynTensor::binary_op(::tg::untyped::elementwise::Binary::#variant, #ca, #cb)),
        ));
    }
    let (shape, dtype, code) = {
        let (s, d, c) = args::tensor(name, &recv)?;
        (s.to_vec(), d, c.clone())
    };
    let float_only = |ctx: &mut Ctx, out: DType, call: proc_macro2::TokenStream| -> Result<Val> {
        if dtype == DType::Bool {
            return Err(Error::new(
                span,
                format!("`{name}` is not defined on bool tensors; cast first"),
            ));
        }
        Ok(ctx.bind(shape.clone(), out, call))
    };
    if FLOAT_UNARY.contains(&name) {
        args::count(name, &args, 0, 0, span)?;
        return float_only(ctx, dtype.float_of(), quote!(#code.#m()));
    }
    if SAME_UNARY.contains(&name) {
        args::count(name, &args, 0, 0, span)?;
        let call = if INFALLIBLE.contains(&name) {
            quote!(Ok::<_, ::tg::Error>(#code.#m()))
        } else {
            quote!(#code.#m())
        };
        return Ok(ctx.bind(shape, dtype, call));
    }
    if BOOL_UNARY.contains(&name) {
        if name == "isinf" {
            args::count(name, &args, 0, 2, span)?;
            let pos = args
                .first()
                .map(|a| args::boolean(name, a))
                .transpose()?
                .unwrap_or(true);
            let neg = args
                .get(1)
                .map(|a| args::boolean(name, a))
                .transpose()?
                .unwrap_or(true);
            return Ok(ctx.bind(shape, DType::Bool, quote!(#code.isinf(#pos, #neg))));
        }
        args::count(name, &args, 0, 0, span)?;
        return Ok(ctx.bind(shape, DType::Bool, quote!(#code.#m())));
    }
    match name {
        "neg" => {
            args::count(name, &args, 0, 0, span)?;
            Ok(ctx.bind(shape, dtype, quote!(#code.neg())))
        }
        "bitwise_not" => {
            args::count(name, &args, 0, 0, span)?;
            if dtype.is_float() {
                return Err(Error::new(
                    span,
                    format!(
                        "`bitwise_not` needs an integer or bool tensor, this one is {}",
                        dtype.rust_name()
                    ),
                ));
            }
            Ok(ctx.bind(shape, dtype, quote!(#code.bitwise_not())))
        }
        "leaky_relu" | "elu" | "celu" | "softplus" => {
            args::count(name, &args, 0, 1, span)?;
            let default = if name == "leaky_relu" {
                quote!(0.01f64)
            } else {
                quote!(1.0f64)
            };
            let a = args
                .first()
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(default);
            float_only(
                ctx,
                if name == "leaky_relu" {
                    dtype
                } else {
                    dtype.float_of()
                },
                quote!(#code.#m(#a)),
            )
        }
        "hardtanh" => {
            args::count(name, &args, 0, 2, span)?;
            let lo = args
                .first()
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(quote!(-1.0f64));
            let hi = args
                .get(1)
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(quote!(1.0f64));
            float_only(ctx, dtype, quote!(#code.hardtanh(#lo, #hi)))
        }
        "clamp" | "clip" => {
            args::count(name, &args, 1, 2, span)?;
            let bound = |a: &Arg| -> Result<proc_macro2::TokenStream> {
                match &a.val {
                    Val::Tensor { code, .. } => Ok(quote!(Some((&#code).into()))),
                    _ => {
                        let v = args::scalar_f64(name, a)?;
                        Ok(quote!(Some(::tg::untyped::elementwise::Operand::from(#v))))
                    }
                }
            };
            let lo = bound(&args[0])?;
            let hi = args.get(1).map(bound).transpose()?.unwrap_or(quote!(None));
            Ok(ctx.bind(shape, dtype, quote!(#code.clamp(#lo, #hi))))
        }
        "where_" => {
            args::count(name, &args, 2, 2, span)?;
            if dtype != DType::Bool {
                return Err(Error::new(
                    recv.span,
                    format!(
                        "`where_` is called on a bool condition, this one is {}",
                        dtype.rust_name()
                    ),
                ));
            }
            // shape: broadcast of all three; dtype: the branches' meeting dtype
            let branches = ctx.binary(BinOp::Add, args[0].clone(), args[1].clone(), span)?;
            let Val::Tensor {
                shape: bshape,
                dtype: bdt,
                ..
            } = branches
            else {
                unreachable!("tensor")
            };
            let out = ctx.broadcast("where_", &shape, &bshape, span)?;
            let (x, y) = (
                args[0].val.operand().expect("operand"),
                args[1].val.operand().expect("operand"),
            );
            Ok(ctx.bind(out, bdt, quote!(#code.where_(#x, #y))))
        }
        "lerp" => {
            args::count(name, &args, 2, 2, span)?;
            let t = ctx.binary(BinOp::Add, recv.clone(), args[0].clone(), span)?;
            let Val::Tensor {
                shape: s1,
                dtype: d1,
                ..
            } = t
            else {
                unreachable!("tensor")
            };
            let w = ctx.binary(
                BinOp::Add,
                Arg::new(
                    Val::Tensor {
                        shape: s1.clone(),
                        dtype: d1,
                        code: code.clone(),
                    },
                    span,
                ),
                args[1].clone(),
                span,
            )?;
            let Val::Tensor {
                shape: s2,
                dtype: d2,
                ..
            } = w
            else {
                unreachable!("tensor")
            };
            let (e, wt) = (
                args[0].val.operand().expect("operand"),
                args[1].val.operand().expect("operand"),
            );
            Ok(ctx.bind(s2, d2, quote!(#code.lerp(#e, #wt))))
        }
        "isclose" => {
            args::count(name, &args, 1, 4, span)?;
            let t = ctx.binary(BinOp::Add, recv.clone(), args[0].clone(), span)?;
            let Val::Tensor { shape: s, .. } = t else {
                unreachable!("tensor")
            };
            let o = args[0].val.operand().expect("operand");
            let rtol = args
                .get(1)
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(quote!(1e-5f64));
            let atol = args
                .get(2)
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(quote!(1e-8f64));
            let nan = args
                .get(3)
                .map(|a| args::boolean(name, a))
                .transpose()?
                .unwrap_or(false);
            Ok(ctx.bind(
                s,
                DType::Bool,
                quote!(#code.isclose(#o, #rtol, #atol, #nan)),
            ))
        }
        "cast" => {
            args::count(name, &args, 1, 1, span)?;
            let d = args::dtype(name, &args[0])?;
            let dt = dtype_tokens(d);
            Ok(ctx.bind(shape, d, quote!(Ok::<_, ::tg::Error>(#code.cast(#dt)))))
        }
        "bitcast" => {
            args::count(name, &args, 1, 1, span)?;
            let d = args::dtype(name, &args[0])?;
            if size(d) != size(dtype) || d == DType::Bool || dtype == DType::Bool {
                return Err(Error::new(
                    args[0].span,
                    format!(
                        "`bitcast` needs two non-bool dtypes of one size: {} -> {}",
                        dtype.rust_name(),
                        d.rust_name()
                    ),
                ));
            }
            let dt = dtype_tokens(d);
            Ok(ctx.bind(shape, d, quote!(#code.bitcast(#dt))))
        }
        _ => Err(Error::new(span, format!("internal: no rule for `{name}`"))),
    }
}

/// `::tg::DType::F32` for a macro dtype.
pub fn dtype_tokens(d: DType) -> proc_macro2::TokenStream {
    let v = Ident::new(
        match d {
            DType::Bool => "Bool",
            DType::I8 => "I8",
            DType::U8 => "U8",
            DType::I16 => "I16",
            DType::U16 => "U16",
            DType::I32 => "I32",
            DType::U32 => "U32",
            DType::I64 => "I64",
            DType::U64 => "U64",
            DType::F16 => "F16",
            DType::F32 => "F32",
            DType::F64 => "F64",
        },
        proc_macro2::Span::call_site(),
    );
    quote!(::tg::DType::#v)
}

fn size(d: DType) -> usize {
    match d {
        DType::Bool | DType::I8 | DType::U8 => 1,
        DType::I16 | DType::U16 | DType::F16 => 2,
        DType::I32 | DType::U32 | DType::F32 => 4,
        _ => 8,
    }
}
