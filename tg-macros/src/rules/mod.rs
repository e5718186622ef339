//! The shape rules of the DSL: one entry per op of tg-ops, each computing the output shape
//! and dtype from the operands (symbolically) and emitting the `DynTensor` call. This is the
//! one table that mirrors tg-ops; a test runs every rule and the runtime op on the same
//! concrete shapes and checks that they agree.

pub mod args;
pub mod elementwise;
pub mod hash;
pub mod index;
pub mod linalg;
pub mod loss;
pub mod movement;
pub mod nn;
pub mod random;
pub mod reduce;
pub mod scatter;
pub mod stats;

use proc_macro2::{Ident, Span};
use syn::{Error, Result};

use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};

/// A family of rules: its method names, whether they take `name = value` arguments, and the
/// function that applies one.
struct Family {
    names: fn() -> Vec<&'static str>,
    keywords: bool,
    apply: fn(&mut Ctx, &str, Arg, Vec<Arg>, Span) -> Result<Val>,
}

const FAMILIES: &[Family] = &[
    Family {
        names: || nn::NAMES.to_vec(),
        keywords: true,
        apply: nn::apply,
    },
    Family {
        names: || loss::NAMES.to_vec(),
        keywords: true,
        apply: loss::apply,
    },
    Family {
        names: || scatter::NAMES.to_vec(),
        keywords: true,
        apply: scatter::apply,
    },
    Family {
        names: || hash::NAMES.to_vec(),
        keywords: true,
        apply: hash::apply,
    },
    Family {
        names: || stats::NAMES.to_vec(),
        keywords: true,
        apply: stats::apply,
    },
    Family {
        names: elementwise::names,
        keywords: false,
        apply: elementwise::apply,
    },
    Family {
        names: || random::NAMES.to_vec(),
        keywords: false,
        apply: random::apply,
    },
    Family {
        names: || reduce::NAMES.to_vec(),
        keywords: false,
        apply: reduce::apply,
    },
    Family {
        names: || movement::NAMES.to_vec(),
        keywords: false,
        apply: movement::apply,
    },
    Family {
        names: || linalg::NAMES.to_vec(),
        keywords: true,
        apply: linalg::apply,
    },
];

/// Every method name the DSL knows, for "unknown op" errors.
pub fn known() -> Vec<&'static str> {
    FAMILIES.iter().flat_map(|f| (f.names)()).collect()
}

/// `recv.name(args)`.
pub fn method(ctx: &mut Ctx, name: &Ident, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let n = name.to_string();
    let n = n.as_str();
    if let Some(f) = FAMILIES.iter().find(|f| (f.names)().contains(&n)) {
        if !f.keywords
            && let Some(a) = args.iter().find(|a| a.name.is_some())
        {
            return Err(Error::new(
                a.span,
                format!("`{n}` takes no keyword arguments"),
            ));
        }
        return (f.apply)(ctx, n, recv, args, span);
    }
    let close: Vec<&str> = known().into_iter().filter(|k| similar(k, n)).collect();
    let hint = if close.is_empty() {
        String::new()
    } else {
        format!("; did you mean `{}`?", close.join("`, `"))
    };
    Err(Error::new(
        span,
        format!("unknown tensor op `{n}` in a #[kernel] body{hint}"),
    ))
}

/// Names within an edit distance of 2 (or sharing a long prefix) of each other.
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
mod mirror_tests;
