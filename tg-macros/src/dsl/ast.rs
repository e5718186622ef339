//! The DSL's expression tree, shared by `#[kernel]` bodies (Rust syntax, via syn) and
//! `tensor!` expressions (numpy-like tokens). Every node keeps the span that an error about it
//! should point at: the operator for binary ops, the method name for calls.

use proc_macro2::{Ident, Span, TokenStream};

/// The binary operators of the DSL (Python's, with `@` and `**`), loosest-binding first.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `||`, logical or
    Or,
    /// `&&`, logical and
    And,
    /// `==`, equal
    Eq,
    /// `!=`, not equal
    Ne,
    /// `<`, less than
    Lt,
    /// `<=`, at most
    Le,
    /// `>`, greater than
    Gt,
    /// `>=`, at least
    Ge,
    /// `|`, bitwise or
    BitOr,
    /// `^`, bitwise xor
    BitXor,
    /// `&`, bitwise and
    BitAnd,
    /// `<<`, shift left
    Shl,
    /// `>>`, shift right
    Shr,
    /// `+`, addition
    Add,
    /// `-`, subtraction
    Sub,
    /// `*`, multiplication
    Mul,
    /// `@`, matrix product
    MatMul,
    /// `/`, true division
    Div,
    /// `%`, remainder
    Rem,
    /// `**`, power
    Pow,
}

impl BinOp {
    /// The op table's row the operator is, and tg-ops' `Binary` variant that computes it.
    pub fn table_name(self) -> (&'static str, &'static str) {
        match self {
            BinOp::Add => ("add", "Add"),
            BinOp::Sub => ("sub", "Sub"),
            BinOp::Mul => ("mul", "Mul"),
            BinOp::Div => ("div", "Div"),
            BinOp::Rem => ("modulo", "Mod"),
            BinOp::Pow => ("pow", "Pow"),
            BinOp::MatMul => ("matmul", "MatMul"),
            BinOp::BitAnd => ("bitwise_and", "BitAnd"),
            BinOp::BitOr => ("bitwise_or", "BitOr"),
            BinOp::BitXor => ("bitwise_xor", "BitXor"),
            BinOp::Shl => ("shl", "Shl"),
            BinOp::Shr => ("shr", "Shr"),
            BinOp::Lt => ("lt", "Lt"),
            BinOp::Le => ("le", "Le"),
            BinOp::Gt => ("gt", "Gt"),
            BinOp::Ge => ("ge", "Ge"),
            BinOp::Eq => ("eq", "Eq"),
            BinOp::Ne => ("ne", "Ne"),
            BinOp::And => ("logical_and", "LogicalAnd"),
            BinOp::Or => ("logical_or", "LogicalOr"),
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Pow => "**",
            BinOp::MatMul => "@",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }
}

/// One item of `x[...]`.
#[derive(Clone, Debug)]
pub enum IndexItem {
    /// An integer (negative counts from the end) or a tensor of indices.
    At(Ast),
    /// `start:stop:step` or `start..stop`; missing parts are `None`.
    Slice {
        start: Option<Box<Ast>>,
        stop: Option<Box<Ast>>,
        step: Option<Box<Ast>>,
        span: Span,
    },
    /// `None`: a new axis of size 1.
    NewAxis,
    /// `...`: as many full slices as needed.
    Ellipsis(Span),
}

#[derive(Clone, Debug)]
pub enum Ast {
    /// A variable: a tensor, a scalar, or a const parameter.
    Var(Ident),
    /// A number, bool or string (`"ij,jk->ik"`: formulas and names are compile-time text).
    Lit(syn::Lit),
    /// `tensor!([...])` inside a kernel: a literal tensor.
    Literal(TokenStream, Span),
    Neg(Box<Ast>, Span),
    Not(Box<Ast>, Span),
    Bin(BinOp, Box<Ast>, Box<Ast>, Span),
    Method {
        recv: Box<Ast>,
        name: Ident,
        args: Vec<Ast>,
        span: Span,
    },
    Index {
        recv: Box<Ast>,
        items: Vec<IndexItem>,
        span: Span,
    },
    /// `Tensor::zeros([B, 4])`, `f(x, w)`: a call of a path (a creation op, or a function).
    Call {
        path: Vec<Ident>,
        args: Vec<Ast>,
        span: Span,
    },
    /// `[a, b, c]` or `(a, b)`: shapes, axes, pads.
    List(Vec<Ast>, Span),
    /// `pair.0`: one result of an op that gives several.
    Field(Box<Ast>, usize, Span),
    /// `name = value`: a keyword argument (`x.conv2d(w, stride = 2)`).
    Named(Ident, Box<Ast>),
    /// Rust code a `#[kernel]` body runs as written (a function or a kernel called, a
    /// layer's `forward`, an optimizer's step, `?`): the DSL checks the tensors around it,
    /// rustc checks it against the signatures it calls.
    Host(Box<syn::Expr>),
}

impl Ast {
    pub fn span(&self) -> Span {
        match self {
            Ast::Var(i) | Ast::Named(i, _) => i.span(),
            Ast::Lit(l) => l.span(),
            Ast::Literal(_, s)
            | Ast::Neg(_, s)
            | Ast::Not(_, s)
            | Ast::Bin(_, _, _, s)
            | Ast::Field(_, _, s)
            | Ast::List(_, s) => *s,
            Ast::Method { span, .. } | Ast::Index { span, .. } | Ast::Call { span, .. } => *span,
            Ast::Host(e) => syn::spanned::Spanned::span(&**e),
        }
    }
}
