//! Walks a kernel body: infers the symbolic shape and dtype of every sub-expression, reports
//! shape errors at the operator or argument at fault, and emits the untyped `DynTensor` code
//! that computes the body (the shapes having been proved, only the boundary is typed).

use std::collections::HashMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::{Error, Result};

use super::value::{Arg, Val};
use crate::dsl::ast::{Ast, BinOp};
use crate::sym::{Equal, Poly};
use tg_core::DType;
use tg_core::ScalarKind;
use tg_core::shape::broadcast;
use tg_core::{Checker, Fact, RuleError};

pub struct Ctx {
    pub env: HashMap<String, Val>,
    pub consts: Vec<Ident>,
    pub stmts: Vec<TokenStream>,
    /// Checks that depend on const parameters, asserted after monomorphization.
    pub asserts: Vec<TokenStream>,
    /// Tensor parameters taken by reference and not rebound since: Rust code in the body
    /// sees them as references (`&Tensor<..>`), as the signature declares them.
    pub by_ref: std::collections::HashSet<String>,
    tmp: usize,
}

impl Ctx {
    pub fn new(consts: Vec<Ident>) -> Ctx {
        Ctx {
            env: HashMap::new(),
            consts,
            stmts: Vec::new(),
            asserts: Vec::new(),
            by_ref: std::collections::HashSet::new(),
            tmp: 0,
        }
    }

    /// A fresh local name.
    pub fn fresh(&mut self) -> Ident {
        let name = format_ident!("__t{}", self.tmp);
        self.tmp += 1;
        name
    }

    /// Binds `code` (a `Result<DynTensor>` expression) to a fresh local; returns the tensor.
    pub fn bind(&mut self, shape: Vec<Poly>, dtype: DType, code: TokenStream) -> Val {
        let name = self.fresh();
        self.stmts
            .push(quote!(let #name: ::tg::DynTensor = #code?;));
        Val::Tensor {
            shape,
            dtype,
            code: quote!(#name),
        }
    }

    /// Applies one of tg-core's rules to symbolic dimensions: the rule's error is a compile
    /// error at `span`; a requirement it could not decide is asserted after monomorphization
    /// when it depends on const parameters only, and left to the op's own check at run time
    /// when it depends on a dynamic dimension.
    pub fn rule<T>(
        &mut self,
        span: Span,
        rule: impl FnOnce(&mut Checker<Poly>) -> std::result::Result<T, RuleError<Poly>>,
    ) -> Result<T> {
        let mut ck = Checker::new();
        let out = rule(&mut ck).map_err(|e| Error::new(span, e.to_string()))?;
        for d in ck.take_deferred() {
            self.assert_later(&d.fact, d.error.to_string(), span);
        }
        Ok(out)
    }

    /// A post-monomorphization assert of `fact` (unless a dynamic dim is involved: the run
    /// checks those), spanned at `span` (the op or argument it is about), so rustc reports a
    /// failure there.
    pub fn assert_later(&mut self, fact: &Fact<Poly>, message: String, span: Span) {
        let (a, b) = match fact {
            Fact::Equal(a, b) | Fact::AtMost(a, b) => (a, b),
        };
        if a.is_dynamic() || b.is_dynamic() {
            return;
        }
        let (ta, tb) = (
            a.to_tokens(&|_| quote!(0usize)),
            b.to_tokens(&|_| quote!(0usize)),
        );
        self.asserts.push(match fact {
            Fact::Equal(..) => quote_spanned!(span=> const { assert!(#ta == #tb, #message) }),
            Fact::AtMost(..) => {
                quote_spanned!(span=> const { assert!((#ta as i64) <= (#tb as i64), #message) })
            }
        });
    }

    /// Records that two dimensions must be equal: an error if they never are, a
    /// post-monomorphization assert if that depends on const parameters. (For requirements
    /// of the DSL itself, such as a declared output shape; ops state theirs in tg-core.)
    pub fn require_equal(
        &mut self,
        a: &Poly,
        b: &Poly,
        span: Span,
        message: impl FnOnce() -> String,
    ) -> Result<()> {
        match a.equal(b) {
            Equal::Yes => Ok(()),
            Equal::No => Err(Error::new(span, message())),
            Equal::Unknown => {
                self.assert_later(&Fact::Equal(a.clone(), b.clone()), message(), span);
                Ok(())
            }
        }
    }

    pub fn eval(&mut self, ast: &Ast) -> Result<Val> {
        match ast {
            Ast::Var(id) => self.var(id),
            Ast::Lit(l) => literal(l),
            Ast::Literal(tokens, span) => self.tensor_literal(tokens.clone(), *span),
            Ast::Neg(a, span) => {
                let v = self.eval(a)?;
                match v {
                    Val::Int(p) => {
                        p.checked_mul(&Poly::constant(-1))
                            .map(Val::Int)
                            .ok_or_else(|| {
                                Error::new(*span, format!("`-({p})` overflows 64-bit integers"))
                            })
                    }
                    Val::Scalar { kind, code, .. } => Ok(Val::Scalar {
                        kind,
                        code: quote!((-(#code))),
                        param: None,
                    }),
                    Val::Tensor { shape, dtype, code } => {
                        if dtype == DType::Bool {
                            return Err(Error::new(
                                *span,
                                "unary `-` on a bool tensor; use `!` (logical not)",
                            ));
                        }
                        Ok(self.bind(shape, dtype, quote!(#code.neg())))
                    }
                    other => Err(Error::new(
                        *span,
                        format!("cannot negate {}", other.describe()),
                    )),
                }
            }
            Ast::Not(a, span) => {
                let v = self.eval(a)?;
                match v {
                    Val::Tensor { shape, dtype, code } if dtype == DType::Bool => {
                        Ok(self.bind(shape, dtype, quote!(#code.logical_not())))
                    }
                    Val::Tensor { shape, dtype, code } if dtype.is_int() => {
                        Ok(self.bind(shape, dtype, quote!(#code.bitwise_not())))
                    }
                    Val::Tensor { dtype, .. } => Err(Error::new(
                        *span,
                        format!(
                            "`!` needs a bool or integer tensor, this one is {}",
                            dtype.rust_name()
                        ),
                    )),
                    other => Err(Error::new(
                        *span,
                        format!("cannot apply `!` to {}", other.describe()),
                    )),
                }
            }
            Ast::Bin(op, a, b, span) => {
                let (va, vb) = (self.eval(a)?, self.eval(b)?);
                self.binary(*op, Arg::new(va, a.span()), Arg::new(vb, b.span()), *span)
            }
            Ast::Method {
                recv,
                name,
                args,
                span,
            } => {
                let r = Arg::new(self.eval(recv)?, recv.span());
                let args = args
                    .iter()
                    .map(|a| match a {
                        Ast::Named(n, v) => Ok(Arg {
                            val: self.eval(v)?,
                            span: v.span(),
                            name: Some(n.to_string()),
                        }),
                        _ => Ok(Arg::new(self.eval(a)?, a.span())),
                    })
                    .collect::<Result<Vec<_>>>()?;
                crate::rules::method(self, name, r, args, *span)
            }
            Ast::Call { path, args, span } => {
                let args = args
                    .iter()
                    .map(|a| match a {
                        Ast::Named(n, v) => Ok(Arg {
                            val: self.eval(v)?,
                            span: v.span(),
                            name: Some(n.to_string()),
                        }),
                        _ => Ok(Arg::new(self.eval(a)?, a.span())),
                    })
                    .collect::<Result<Vec<_>>>()?;
                crate::rules::call(self, path, args, *span)
            }
            Ast::Index { recv, items, span } => {
                let r = Arg::new(self.eval(recv)?, recv.span());
                crate::rules::indexing::index(self, r, items, *span)
            }
            Ast::Field(base, i, span) => match self.eval(base)? {
                Val::List(mut items) if *i < items.len() => Ok(items.swap_remove(*i)),
                other => Err(Error::new(
                    *span,
                    format!("no field {i} in {}", other.describe()),
                )),
            },
            Ast::List(items, _) => Ok(Val::List(
                items.iter().map(|i| self.eval(i)).collect::<Result<_>>()?,
            )),
            Ast::Named(n, _) => Err(Error::new(
                n.span(),
                "a keyword argument (`name = value`) belongs in an op's argument list",
            )),
            Ast::Host(e) => Err(super::host::untyped(e)),
        }
    }

    fn var(&mut self, id: &Ident) -> Result<Val> {
        if let Some(v) = self.env.get(&id.to_string()) {
            return Ok(v.clone());
        }
        if self.consts.contains(id) {
            return Ok(Val::Int(Poly::param(&id.to_string())));
        }
        if let Some(d) = DType::from_rust_name(&id.to_string()) {
            return Ok(Val::Dtype(d));
        }
        Err(Error::new(
            id.span(),
            format!("unknown name `{id}` in kernel body"),
        ))
    }

    fn tensor_literal(&mut self, tokens: TokenStream, span: Span) -> Result<Val> {
        let (shape, dtype, code) = crate::literal::expand_parts(tokens)?;
        let _ = span;
        let shape = shape.iter().map(|&d| Poly::constant(d as i64)).collect();
        Ok(self.bind(
            shape,
            dtype,
            quote!(Ok::<_, ::tg::Error>((#code).into_dyn())),
        ))
    }

    /// numpy broadcasting of two shapes (tg-core's rule), with errors naming the op, both
    /// shapes and the axis.
    pub fn broadcast(
        &mut self,
        op: &'static str,
        a: &[Poly],
        b: &[Poly],
        span: Span,
    ) -> Result<Vec<Poly>> {
        self.rule(span, |ck| broadcast::broadcast(ck, op, a, b))
    }

    pub fn binary(&mut self, op: BinOp, a: Arg, b: Arg, span: Span) -> Result<Val> {
        // arithmetic on compile-time integers stays compile-time (shapes like `B * 28`)
        if let (Val::Int(x), Val::Int(y)) = (&a.val, &b.val) {
            let overflow = || {
                Error::new(
                    span,
                    format!("`{x} {} {y}` overflows 64-bit integers", op.symbol()),
                )
            };
            return match op {
                BinOp::Add => x.checked_add(y).map(Val::Int).ok_or_else(overflow),
                BinOp::Sub => x.checked_sub(y).map(Val::Int).ok_or_else(overflow),
                BinOp::Mul => x.checked_mul(y).map(Val::Int).ok_or_else(overflow),
                BinOp::Div if y.as_const().is_some_and(|d| d > 0) => {
                    Ok(Val::Int(x.div(y.as_const().unwrap_or(1))))
                }
                _ => Err(Error::new(
                    span,
                    format!("`{}` of two integers is not supported here", op.symbol()),
                )),
            };
        }
        if op == BinOp::MatMul {
            return crate::rules::matmul(self, a, b, span);
        }
        let (sa, _) = operand_type(&a)?;
        let (sb, _) = operand_type(&b)?;
        let shape = match (&sa, &sb) {
            (Some(x), Some(y)) => self.broadcast(op.symbol(), x, y, span)?,
            (Some(x), None) | (None, Some(x)) => x.clone(),
            (None, None) => {
                return Err(Error::new(
                    span,
                    "a kernel computes with tensors; both operands are scalars",
                ));
            }
        };
        // the dtype is the op table's rule for the op the operator is
        let (name, variant) = op.table_name();
        let sig = tg_core::ops::lookup(name)
            .ok_or_else(|| Error::new(span, format!("internal: no `{name}` in the op table")))?;
        let args = tg_core::ops::Args {
            op: op.symbol(),
            sig,
            recv: crate::rules::value_of(&a.val),
            vals: vec![crate::rules::value_of(&b.val)],
        };
        let out = sig.dtypes[0]
            .apply(&args)
            .map_err(|f| Error::new(span, f.error.to_string()))?;
        let variant = Ident::new(variant, span);
        let (ca, cb) = (
            a.val.operand().expect("operand"),
            b.val.operand().expect("operand"),
        );
        Ok(self.bind(
            shape,
            out,
            quote!(::tg::DynTensor::binary_op(::tg::untyped::elementwise::Binary::#variant, #ca, #cb)),
        ))
    }
}

/// Shape (None for scalars) and dtype (or scalar kind) of a binary operand.
type OperandType = (Option<Vec<Poly>>, std::result::Result<DType, ScalarKind>);

fn operand_type(a: &Arg) -> Result<OperandType> {
    match &a.val {
        Val::Tensor { shape, dtype, .. } => Ok((Some(shape.clone()), Ok(*dtype))),
        Val::Scalar { kind, .. } => Ok((None, Err(*kind))),
        Val::Int(_) => Ok((None, Err(ScalarKind::Int))),
        Val::Str(s) => Err(Error::new(
            a.span,
            format!(
                "a string is not a tensor or a number: {s:?} can only be an op's argument (einsum's formula, keccak's name)"
            ),
        )),
        other => Err(Error::new(
            a.span,
            format!("expected a tensor or a scalar, found {}", other.describe()),
        )),
    }
}

fn literal(l: &syn::Lit) -> Result<Val> {
    match l {
        syn::Lit::Int(i) => {
            if !i.suffix().is_empty()
                && DType::from_rust_name(i.suffix()).is_some_and(|d| d.is_float())
            {
                let v: f64 = i.base10_parse()?;
                return Ok(Val::Scalar {
                    kind: ScalarKind::Float,
                    code: quote!((#v)),
                    param: None,
                });
            }
            let v: i64 = i.base10_parse()?;
            Ok(Val::Int(Poly::constant(v)))
        }
        syn::Lit::Float(f) => {
            let v: f64 = f.base10_parse()?;
            Ok(Val::Scalar {
                kind: ScalarKind::Float,
                code: quote!((#v)),
                param: None,
            })
        }
        syn::Lit::Bool(b) => Ok(Val::Scalar {
            kind: ScalarKind::Bool,
            code: quote!(#b),
            param: None,
        }),
        syn::Lit::Str(s) if s.suffix().is_empty() => Ok(Val::Str(s.value())),
        other => Err(Error::new(
            other.span(),
            "expected a number, a bool or a string literal",
        )),
    }
}

impl Ctx {
    /// Binds a `Result<(DynTensor, ...)>` expression (a tuple of `outs.len()` >= 2 tensors) to
    /// fresh locals; returns them as a list (`let (u, s, vh) = x.svd();`).
    pub fn bind_tuple(&mut self, outs: Vec<(Vec<Poly>, DType)>, code: TokenStream) -> Val {
        let names: Vec<Ident> = (0..outs.len())
            .map(|i| format_ident!("__t{}", self.tmp + i))
            .collect();
        self.tmp += outs.len();
        let types = names.iter().map(|_| quote!(::tg::DynTensor));
        self.stmts
            .push(quote!(let (#(#names),*): (#(#types),*) = #code?;));
        Val::List(
            outs.into_iter()
                .zip(names)
                .map(|((shape, dtype), n)| Val::Tensor {
                    shape,
                    dtype,
                    code: quote!(#n),
                })
                .collect(),
        )
    }
}
