//! The ops of a `#[kernel]` body. A method call is interpreted from the op's row in
//! tg-core's op table (`table.rs`: arguments read by kind, tg-core's dtype and shape rules,
//! the `DynTensor` call emitted), so an op's signature is written once, for the macros, the
//! typed API and the docs alike. What is not an ordinary call is here: einsum (its formula and
//! variadic operands, `linalg.rs`), gradients and in-place assignment (`autograd.rs`), and
//! `x[...]` (`indexing.rs`).

pub mod args;
pub mod autograd;
pub mod indexing;
pub mod linalg;
mod read;
mod table;

use proc_macro2::{Ident, Span};
use syn::{Error, Result};

use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};

/// `path(args)`: a creation op (`Tensor::zeros([B, 4])`).
pub fn call(ctx: &mut Ctx, path: &[Ident], args: Vec<Arg>, span: Span) -> Result<Val> {
    let names: Vec<String> = path.iter().map(|i| i.to_string()).collect();
    match names.as_slice() {
        [ty, name] if ty == "Tensor" || ty == "DynTensor" => {
            let Some(sig) = tg_core::ops::lookup(name) else {
                return Err(unknown(name, span));
            };
            table::call(ctx, sig, None, args, span)
        }
        _ => Err(Error::new(
            span,
            format!(
                "`{}` is not a tensor op: a kernel body calls ops as methods (`x.relu()`) and makes tensors with `Tensor::zeros([..])`, `Tensor::arange(..)`, ...",
                names.join("::")
            ),
        )),
    }
}

/// `recv.name(args)`.
pub fn method(ctx: &mut Ctx, name: &Ident, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let n = name.to_string();
    let Some(sig) = tg_core::ops::lookup(&n) else {
        return Err(unknown(&n, span));
    };
    match sig.name {
        "einsum" => linalg::einsum(ctx, recv, args, span),
        "gradient" => autograd::gradient(ctx, recv, args, span),
        "assign" => autograd::assign(ctx, recv, args, span),
        _ => table::call(ctx, sig, Some(recv), args, span),
    }
}

pub use table::value_of;

/// `a @ b`: the table's matmul.
pub fn matmul(ctx: &mut Ctx, a: Arg, b: Arg, span: Span) -> Result<Val> {
    let sig = tg_core::ops::lookup("matmul")
        .ok_or_else(|| Error::new(span, "internal: no matmul in the op table"))?;
    table::call(ctx, sig, Some(a), vec![b], span)
}

/// The one error for a name that is no op, with the known names close to it.
fn unknown(n: &str, span: Span) -> Error {
    let close: Vec<&str> = tg_core::ops::all()
        .map(|s| s.name)
        .filter(|k| similar(k, n))
        .collect();
    let hint = if close.is_empty() {
        String::new()
    } else {
        format!("; did you mean `{}`?", close.join("`, `"))
    };
    Error::new(
        span,
        format!("unknown tensor op `{n}` in a #[kernel] body{hint}"),
    )
}

/// Names within an edit distance of 2 of each other.
fn similar(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let sub = prev[j - 1] + usize::from(a[i - 1] != b[j - 1]);
            cur[j] = sub.min(prev[j] + 1).min(cur[j - 1] + 1);
        }
        prev = cur;
    }
    prev[b.len()] <= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_names_suggest_the_close_ones() {
        let e = unknown("rleu", Span::call_site()).to_string();
        assert_eq!(
            e,
            "unknown tensor op `rleu` in a #[kernel] body; did you mean `relu`, `le`, `elu`?"
        );
        assert!(
            !unknown("qqqqqqqq", Span::call_site())
                .to_string()
                .contains("mean")
        );
    }
}

#[cfg(test)]
mod behaviour_tests;
