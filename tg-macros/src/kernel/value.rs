//! What an expression of a kernel body is while the macro checks it: a tensor with a symbolic
//! shape and a dtype, a scalar, a compile-time integer, a list or a string — with the Rust code
//! that computes it.

use proc_macro2::{Span, TokenStream};
use quote::quote;

use crate::sym::Poly;
use tg_core::DType;
use tg_core::ScalarKind;

#[derive(Clone)]
pub enum Val {
    /// `code` is an expression of type `::tg::DynTensor` (usually a local).
    Tensor {
        shape: Vec<Poly>,
        dtype: DType,
        code: TokenStream,
    },
    /// A Rust scalar computed at run time (a parameter, a float literal). `param` is the
    /// slot of the kernel's scalar argument it is, if it is one.
    Scalar {
        kind: ScalarKind,
        code: TokenStream,
        param: Option<usize>,
    },
    /// An integer known while expanding (a literal, a const parameter, arithmetic of those).
    Int(Poly),
    /// `[a, b]` or `(a, b)`.
    List(Vec<Val>),
    /// A dtype named as an argument (`x.cast(f16)`).
    Dtype(DType),
    /// A string literal: an op's compile-time text argument (einsum's formula, a hash's name).
    /// It is never a tensor operand: ops that want one reject it with `describe`.
    Str(String),
    /// A Rust value of the body's host code, by the name it is bound to (a model, an
    /// optimizer, what a function returned without a tensor type written): usable in Rust
    /// code, not as a DSL operand, whose shape the macro would need.
    Host(String),
}

impl Val {
    pub fn describe(&self) -> String {
        match self {
            Val::Tensor { shape, dtype, .. } => {
                format!(
                    "a {} tensor of shape {}",
                    dtype.rust_name(),
                    show_shape(shape)
                )
            }
            Val::Scalar { .. } => "a scalar".into(),
            Val::Int(p) => format!("the integer {p}"),
            Val::List(_) => "a list".into(),
            Val::Dtype(d) => format!("the dtype {}", d.rust_name()),
            Val::Str(s) => format!("the string {s:?}"),
            Val::Host(name) => format!(
                "`{name}`, a Rust value whose shape the kernel does not know (write its type where it is bound: `let {name}: Tensor<shape![..]> = ..`)"
            ),
        }
    }

    /// Rust code for this value as an operand of a binary op (`&tensor` or a scalar).
    pub fn operand(&self) -> Option<TokenStream> {
        match self {
            Val::Tensor { code, .. } => Some(quote!(&#code)),
            // a scalar argument used as an operand is a var a replay rebinds
            Val::Scalar {
                code,
                param: Some(slot),
                ..
            } => {
                note_operand_use(*slot);
                Some(quote!(::tg::__private::scalar_arg(#slot, #code)))
            }
            Val::Scalar { code, .. } => Some(code.clone()),
            Val::Int(p) => {
                let c = p.to_tokens(&|_| quote!(0usize));
                Some(quote!((#c as i64)))
            }
            _ => None,
        }
    }
}

thread_local! {
    /// Per scalar argument of the kernel being expanded, how often it was used as an operand.
    static OPERAND_USES: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn note_operand_use(slot: usize) {
    OPERAND_USES.with(|u| {
        let mut u = u.borrow_mut();
        if u.len() <= slot {
            u.resize(slot + 1, 0);
        }
        u[slot] += 1;
    });
}

/// Starts counting operand uses for a new kernel.
pub fn reset_operand_uses() {
    OPERAND_USES.with(|u| u.borrow_mut().clear());
}

/// How often scalar argument `slot` was used as an operand since the last reset.
pub fn operand_uses(slot: usize) -> usize {
    OPERAND_USES.with(|u| u.borrow().get(slot).copied().unwrap_or(0))
}

/// `[B, 784]`.
pub fn show_shape(shape: &[Poly]) -> String {
    format!(
        "[{}]",
        shape
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// A value with the span errors about it point at (and its keyword, for `name = value`).
#[derive(Clone)]
pub struct Arg {
    pub val: Val,
    pub span: Span,
    pub name: Option<String>,
}

impl Arg {
    pub fn new(val: Val, span: Span) -> Arg {
        Arg {
            val,
            span,
            name: None,
        }
    }
}
