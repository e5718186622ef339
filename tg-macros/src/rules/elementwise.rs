//! Elementwise ops: the output has the operands' broadcast shape (tg-core's broadcast rule);
//! the dtype follows tg-core's dtype rules (float math on integers gives f32, tests give bool).

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use syn::{Error, Result};
use tg_core::DType;

use super::{args, ops};
use crate::dsl::ast::BinOp;
use crate::dtype::dtype_tokens;
use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};

ops! {
    /// The elementwise ops a kernel body calls as methods.
    pub enum ElementwiseOp {
        Exp = "exp",
        Exp2 = "exp2",
        Log = "log",
        Log2 = "log2",
        Sqrt = "sqrt",
        Rsqrt = "rsqrt",
        Sin = "sin",
        Cos = "cos",
        Tan = "tan",
        Asin = "asin",
        Acos = "acos",
        Atan = "atan",
        Sinh = "sinh",
        Cosh = "cosh",
        Tanh = "tanh",
        Asinh = "asinh",
        Acosh = "acosh",
        Atanh = "atanh",
        Erf = "erf",
        Reciprocal = "reciprocal",
        Gelu = "gelu",
        GeluErf = "gelu_erf",
        QuickGelu = "quick_gelu",
        Silu = "silu",
        Mish = "mish",
        Softsign = "softsign",
        Sigmoid = "sigmoid",
        Logsigmoid = "logsigmoid",
        Hardsigmoid = "hardsigmoid",
        Hardswish = "hardswish",
        Selu = "selu",
        Abs = "abs",
        Sign = "sign",
        Trunc = "trunc",
        Floor = "floor",
        Ceil = "ceil",
        Round = "round",
        Relu = "relu",
        Relu6 = "relu6",
        Square = "square",
        Contiguous = "contiguous",
        Detach = "detach",
        Isnan = "isnan",
        Isinf = "isinf",
        Isfinite = "isfinite",
        LogicalNot = "logical_not",
        Add = "add",
        Sub = "sub",
        Mul = "mul",
        Div = "div",
        Idiv = "idiv",
        FloorDiv = "floor_div",
        Modulo = "modulo",
        Pow = "pow",
        Maximum = "maximum",
        Minimum = "minimum",
        Eq = "eq",
        Ne = "ne",
        Lt = "lt",
        Le = "le",
        Gt = "gt",
        Ge = "ge",
        LogicalAnd = "logical_and",
        LogicalOr = "logical_or",
        LogicalXor = "logical_xor",
        BitwiseAnd = "bitwise_and",
        BitwiseOr = "bitwise_or",
        BitwiseXor = "bitwise_xor",
        Shl = "shl",
        Shr = "shr",
        BitwiseNot = "bitwise_not",
        Neg = "neg",
        LeakyRelu = "leaky_relu",
        Elu = "elu",
        Celu = "celu",
        Softplus = "softplus",
        Hardtanh = "hardtanh",
        Clamp = "clamp",
        Clip = "clip",
        Where = "where_",
        Lerp = "lerp",
        Cast = "cast",
        Bitcast = "bitcast",
        Isclose = "isclose",
    }
}

/// The rule an op follows; ops that share one differ in the method they emit.
enum Rule {
    /// Unary float math: integers give f32, bool is an error.
    FloatUnary,
    /// Unary, the dtype kept; `Result`-returning in tg-ops unless `infallible`.
    SameUnary { infallible: bool },
    /// A unary test giving bool.
    BoolUnary,
    /// `isinf(detect_positive, detect_negative)`.
    Isinf,
    /// A binary op written as an operator in a body (`a + b`): the operator's rule.
    Operator(BinOp),
    /// A binary op with `+`'s shapes and dtype but no operator, as tg-ops' `Binary` variant;
    /// `logical` ones give bool.
    Method {
        variant: &'static str,
        logical: bool,
    },
    /// `neg`.
    Neg,
    /// `bitwise_not`: integers and bool.
    BitwiseNot,
    /// One slope or scale argument with a default: float math, or the dtype kept.
    Scaled { default: f64, keeps_dtype: bool },
    /// `hardtanh(lo, hi)`.
    Hardtanh,
    /// `clamp(lo, hi)`: a bound is a tensor or a scalar.
    Clamp,
    /// `cond.where_(a, b)`.
    Where,
    /// `a.lerp(end, weight)`.
    Lerp,
    /// `a.isclose(b, rtol, atol, equal_nan)`.
    Isclose,
    /// `x.cast(dtype)`.
    Cast,
    /// `x.bitcast(dtype)`.
    Bitcast,
}

impl ElementwiseOp {
    fn rule(self) -> Rule {
        use ElementwiseOp as E;
        match self {
            E::Exp
            | E::Exp2
            | E::Log
            | E::Log2
            | E::Sqrt
            | E::Rsqrt
            | E::Sin
            | E::Cos
            | E::Tan
            | E::Asin
            | E::Acos
            | E::Atan
            | E::Sinh
            | E::Cosh
            | E::Tanh
            | E::Asinh
            | E::Acosh
            | E::Atanh
            | E::Erf
            | E::Reciprocal
            | E::Gelu
            | E::GeluErf
            | E::QuickGelu
            | E::Silu
            | E::Mish
            | E::Softsign
            | E::Sigmoid
            | E::Logsigmoid
            | E::Hardsigmoid
            | E::Hardswish
            | E::Selu => Rule::FloatUnary,
            E::Abs
            | E::Sign
            | E::Trunc
            | E::Floor
            | E::Ceil
            | E::Round
            | E::Relu
            | E::Relu6
            | E::Square => Rule::SameUnary { infallible: false },
            E::Contiguous | E::Detach => Rule::SameUnary { infallible: true },
            E::Isnan | E::Isfinite | E::LogicalNot => Rule::BoolUnary,
            E::Isinf => Rule::Isinf,
            E::Add => Rule::Operator(BinOp::Add),
            E::Sub => Rule::Operator(BinOp::Sub),
            E::Mul => Rule::Operator(BinOp::Mul),
            E::Div => Rule::Operator(BinOp::Div),
            E::Modulo => Rule::Operator(BinOp::Rem),
            E::Pow => Rule::Operator(BinOp::Pow),
            E::Eq => Rule::Operator(BinOp::Eq),
            E::Ne => Rule::Operator(BinOp::Ne),
            E::Lt => Rule::Operator(BinOp::Lt),
            E::Le => Rule::Operator(BinOp::Le),
            E::Gt => Rule::Operator(BinOp::Gt),
            E::Ge => Rule::Operator(BinOp::Ge),
            E::LogicalAnd => Rule::Operator(BinOp::And),
            E::LogicalOr => Rule::Operator(BinOp::Or),
            E::BitwiseAnd => Rule::Operator(BinOp::BitAnd),
            E::BitwiseOr => Rule::Operator(BinOp::BitOr),
            E::BitwiseXor => Rule::Operator(BinOp::BitXor),
            E::Shl => Rule::Operator(BinOp::Shl),
            E::Shr => Rule::Operator(BinOp::Shr),
            E::Idiv => Rule::Method {
                variant: "Idiv",
                logical: false,
            },
            E::FloorDiv => Rule::Method {
                variant: "FloorDiv",
                logical: false,
            },
            E::Maximum => Rule::Method {
                variant: "Maximum",
                logical: false,
            },
            E::Minimum => Rule::Method {
                variant: "Minimum",
                logical: false,
            },
            E::LogicalXor => Rule::Method {
                variant: "LogicalXor",
                logical: true,
            },
            E::Neg => Rule::Neg,
            E::BitwiseNot => Rule::BitwiseNot,
            E::LeakyRelu => Rule::Scaled {
                default: 0.01,
                keeps_dtype: true,
            },
            E::Elu | E::Celu | E::Softplus => Rule::Scaled {
                default: 1.0,
                keeps_dtype: false,
            },
            E::Hardtanh => Rule::Hardtanh,
            E::Clamp | E::Clip => Rule::Clamp,
            E::Where => Rule::Where,
            E::Lerp => Rule::Lerp,
            E::Isclose => Rule::Isclose,
            E::Cast => Rule::Cast,
            E::Bitcast => Rule::Bitcast,
        }
    }
}

/// The shape and dtype of a binary result.
fn tensor_of(v: Val, span: Span) -> Result<(Vec<crate::sym::Poly>, DType)> {
    match v {
        Val::Tensor { shape, dtype, .. } => Ok((shape, dtype)),
        other => Err(Error::new(
            span,
            format!("internal: an elementwise op gave {}", other.describe()),
        )),
    }
}

/// Rust code for an operand of a binary op.
fn operand(a: &Arg) -> Result<TokenStream> {
    a.val.operand().ok_or_else(|| {
        Error::new(
            a.span,
            format!("expected a tensor or a scalar, found {}", a.val.describe()),
        )
    })
}

pub fn apply(
    ctx: &mut Ctx,
    op: ElementwiseOp,
    recv: Arg,
    args: Vec<Arg>,
    span: Span,
) -> Result<Val> {
    let name = op.name();
    let m = Ident::new(name, span);
    let rule = op.rule();
    match rule {
        Rule::Operator(bin) => {
            args::count(name, &args, 1, 1, span)?;
            return ctx.binary(bin, recv, args[0].clone(), span);
        }
        Rule::Method { variant, logical } => {
            args::count(name, &args, 1, 1, span)?;
            let b = args[0].clone();
            // same shapes and dtypes as `+`
            let v = ctx.binary(BinOp::Add, recv.clone(), b.clone(), span)?;
            let (shape, dtype) = tensor_of(v, span)?;
            let dtype = if logical { DType::Bool } else { dtype };
            let variant = Ident::new(variant, span);
            let (ca, cb) = (operand(&recv)?, operand(&b)?);
            return Ok(ctx.bind(
                shape,
                dtype,
                quote!(::tg::DynTensor::binary_op(::tg::untyped::elementwise::Binary::#variant, #ca, #cb)),
            ));
        }
        _ => {}
    }
    let (shape, dtype, code) = {
        let (s, d, c) = args::tensor(name, &recv)?;
        (s.to_vec(), d, c.clone())
    };
    let float_only = |ctx: &mut Ctx, out: DType, call: TokenStream| -> Result<Val> {
        if dtype == DType::Bool {
            return Err(Error::new(
                span,
                format!("`{name}` is not defined on bool tensors; cast first"),
            ));
        }
        Ok(ctx.bind(shape.clone(), out, call))
    };
    match rule {
        Rule::Operator(_) | Rule::Method { .. } => Err(Error::new(
            span,
            "internal: binary ops are dispatched above",
        )),
        Rule::FloatUnary => {
            args::count(name, &args, 0, 0, span)?;
            float_only(ctx, dtype.float_of(), quote!(#code.#m()))
        }
        Rule::SameUnary { infallible } => {
            args::count(name, &args, 0, 0, span)?;
            let call = if infallible {
                quote!(Ok::<_, ::tg::Error>(#code.#m()))
            } else {
                quote!(#code.#m())
            };
            Ok(ctx.bind(shape, dtype, call))
        }
        Rule::BoolUnary => {
            args::count(name, &args, 0, 0, span)?;
            Ok(ctx.bind(shape, DType::Bool, quote!(#code.#m())))
        }
        Rule::Isinf => {
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
            Ok(ctx.bind(shape, DType::Bool, quote!(#code.isinf(#pos, #neg))))
        }
        Rule::Neg => {
            args::count(name, &args, 0, 0, span)?;
            Ok(ctx.bind(shape, dtype, quote!(#code.neg())))
        }
        Rule::BitwiseNot => {
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
        Rule::Scaled {
            default,
            keeps_dtype,
        } => {
            args::count(name, &args, 0, 1, span)?;
            let a = args
                .first()
                .map(|a| args::scalar_f64(name, a))
                .transpose()?
                .unwrap_or(quote!(#default));
            let out = if keeps_dtype { dtype } else { dtype.float_of() };
            float_only(ctx, out, quote!(#code.#m(#a)))
        }
        Rule::Hardtanh => {
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
        Rule::Clamp => {
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
        Rule::Where => {
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
                return Err(Error::new(
                    span,
                    "internal: an elementwise op gives a tensor",
                ));
            };
            let out = ctx.broadcast("where_", &shape, &bshape, span)?;
            let (x, y) = (operand(&args[0])?, operand(&args[1])?);
            Ok(ctx.bind(out, bdt, quote!(#code.where_(#x, #y))))
        }
        Rule::Lerp => {
            args::count(name, &args, 2, 2, span)?;
            let t = ctx.binary(BinOp::Add, recv.clone(), args[0].clone(), span)?;
            let Val::Tensor {
                shape: s1,
                dtype: d1,
                ..
            } = t
            else {
                return Err(Error::new(
                    span,
                    "internal: an elementwise op gives a tensor",
                ));
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
                return Err(Error::new(
                    span,
                    "internal: an elementwise op gives a tensor",
                ));
            };
            let (e, wt) = (operand(&args[0])?, operand(&args[1])?);
            Ok(ctx.bind(s2, d2, quote!(#code.lerp(#e, #wt))))
        }
        Rule::Isclose => {
            args::count(name, &args, 1, 4, span)?;
            let t = ctx.binary(BinOp::Add, recv.clone(), args[0].clone(), span)?;
            let (s, _) = tensor_of(t, span)?;
            let o = operand(&args[0])?;
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
        Rule::Cast => {
            args::count(name, &args, 1, 1, span)?;
            let d = args::dtype(name, &args[0])?;
            let dt = dtype_tokens(d);
            Ok(ctx.bind(shape, d, quote!(Ok::<_, ::tg::Error>(#code.cast(#dt)))))
        }
        Rule::Bitcast => {
            args::count(name, &args, 1, 1, span)?;
            let d = args::dtype(name, &args[0])?;
            if !dtype.can_bitcast(d) {
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
    }
}
