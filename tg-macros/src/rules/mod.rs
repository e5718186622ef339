//! The ops of a `#[kernel]` body: each method name parsed once into its family's enum, then one
//! exhaustive `match` per family dispatching to the op's rule. A rule reads the arguments,
//! applies tg-core's shape and dtype rule to the (symbolic) operands — the same rule tg-ops
//! applies at run time — and emits the `DynTensor` call.
//!
//! The families follow tg-ops' vocabulary (`untyped/`, `typed/`, `tests/ops/`): elementwise,
//! reduce, movement, linalg, conv, pool, norm, loss, gather, ranges, stats, hash, random,
//! autograd, and `indexing` for `x[...]`.

pub mod args;
pub mod autograd;
pub mod conv;
pub mod elementwise;
pub mod gather;
pub mod hash;
pub mod indexing;
pub mod linalg;
pub mod loss;
pub mod movement;
pub mod norm;
pub mod pool;
pub mod random;
pub mod ranges;
pub mod reduce;
pub mod stats;
mod window;

use proc_macro2::{Ident, Span};
use syn::{Error, Result};

use crate::kernel::infer::Ctx;
use crate::kernel::value::{Arg, Val};

/// Declares a family's op enum: each variant with the method name it has in a kernel body.
/// The names are written here only; `parse` reads them, `name` gives them back.
macro_rules! ops {
    ($(#[$doc:meta])* pub enum $E:ident { $($(#[$vdoc:meta])* $V:ident = $s:literal,)* }) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub enum $E { $($(#[$vdoc])* $V,)* }

        impl $E {
            /// Every op of the family.
            pub const ALL: &'static [$E] = &[$($E::$V,)*];

            /// The method name.
            pub fn name(self) -> &'static str {
                match self { $($E::$V => $s,)* }
            }
        }
    };
}
pub(crate) use ops;

/// A method of a kernel body, by family.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// Arithmetic, float math, activations, comparisons, bitwise ops, casts.
    Elementwise(elementwise::ElementwiseOp),
    /// sum, max, mean, ...
    Reduce(reduce::ReduceOp),
    /// Views, padding, joins and splits.
    Movement(movement::MovementOp),
    /// Matrix products, einsum, decompositions.
    Linalg(linalg::LinalgOp),
    /// Convolutions.
    Conv(conv::ConvOp),
    /// Pooling and unpooling.
    Pool(pool::PoolOp),
    /// Layer and batch normalization.
    Norm(norm::NormOp),
    /// Losses.
    Loss(loss::LossOp),
    /// gather, scatter, masked selection, interpolation.
    Gather(gather::GatherOp),
    /// Triangles and one-hot.
    Ranges(ranges::RangesOp),
    /// Statistics, scans and sorting.
    Stats(stats::StatsOp),
    /// Keccak and tinygrad's tensor hash.
    Hash(hash::HashOp),
    /// Random tensors.
    Random(random::RandomOp),
    /// Gradients, contiguous_backward and in-place assign.
    Autograd(autograd::AutogradOp),
}

impl Op {
    /// Every op, for "unknown op" suggestions.
    fn all() -> impl Iterator<Item = Op> {
        let e = elementwise::ElementwiseOp::ALL
            .iter()
            .map(|&o| Op::Elementwise(o));
        let r = reduce::ReduceOp::ALL.iter().map(|&o| Op::Reduce(o));
        let m = movement::MovementOp::ALL.iter().map(|&o| Op::Movement(o));
        let l = linalg::LinalgOp::ALL.iter().map(|&o| Op::Linalg(o));
        let c = conv::ConvOp::ALL.iter().map(|&o| Op::Conv(o));
        let p = pool::PoolOp::ALL.iter().map(|&o| Op::Pool(o));
        let n = norm::NormOp::ALL.iter().map(|&o| Op::Norm(o));
        let lo = loss::LossOp::ALL.iter().map(|&o| Op::Loss(o));
        let g = gather::GatherOp::ALL.iter().map(|&o| Op::Gather(o));
        let ra = ranges::RangesOp::ALL.iter().map(|&o| Op::Ranges(o));
        let s = stats::StatsOp::ALL.iter().map(|&o| Op::Stats(o));
        let h = hash::HashOp::ALL.iter().map(|&o| Op::Hash(o));
        let rn = random::RandomOp::ALL.iter().map(|&o| Op::Random(o));
        let ag = autograd::AutogradOp::ALL.iter().map(|&o| Op::Autograd(o));
        e.chain(r)
            .chain(m)
            .chain(l)
            .chain(c)
            .chain(p)
            .chain(n)
            .chain(lo)
            .chain(g)
            .chain(ra)
            .chain(s)
            .chain(h)
            .chain(rn)
            .chain(ag)
    }

    /// The op a method name means: the one place a name becomes an op.
    pub fn parse(name: &str) -> Option<Op> {
        Op::all().find(|o| o.name() == name)
    }

    /// The method name.
    pub fn name(self) -> &'static str {
        match self {
            Op::Elementwise(o) => o.name(),
            Op::Reduce(o) => o.name(),
            Op::Movement(o) => o.name(),
            Op::Linalg(o) => o.name(),
            Op::Conv(o) => o.name(),
            Op::Pool(o) => o.name(),
            Op::Norm(o) => o.name(),
            Op::Loss(o) => o.name(),
            Op::Gather(o) => o.name(),
            Op::Ranges(o) => o.name(),
            Op::Stats(o) => o.name(),
            Op::Hash(o) => o.name(),
            Op::Random(o) => o.name(),
            Op::Autograd(o) => o.name(),
        }
    }

    /// Whether the op takes `name = value` arguments.
    fn takes_keywords(self) -> bool {
        match self {
            Op::Conv(_)
            | Op::Pool(_)
            | Op::Norm(_)
            | Op::Loss(_)
            | Op::Gather(_)
            | Op::Stats(_)
            | Op::Hash(_)
            | Op::Linalg(_) => true,
            Op::Elementwise(_)
            | Op::Reduce(_)
            | Op::Movement(_)
            | Op::Ranges(_)
            | Op::Random(_)
            | Op::Autograd(_) => false,
        }
    }
}

/// `recv.name(args)`.
pub fn method(ctx: &mut Ctx, name: &Ident, recv: Arg, args: Vec<Arg>, span: Span) -> Result<Val> {
    let n = name.to_string();
    let Some(op) = Op::parse(&n) else {
        return Err(unknown(&n, span));
    };
    if !op.takes_keywords()
        && let Some(a) = args.iter().find(|a| a.name.is_some())
    {
        return Err(Error::new(
            a.span,
            format!("`{n}` takes no keyword arguments"),
        ));
    }
    match op {
        Op::Elementwise(o) => elementwise::apply(ctx, o, recv, args, span),
        Op::Reduce(o) => reduce::apply(ctx, o, recv, args, span),
        Op::Movement(o) => movement::apply(ctx, o, recv, args, span),
        Op::Linalg(o) => linalg::apply(ctx, o, recv, args, span),
        Op::Conv(o) => conv::apply(ctx, o, recv, args, span),
        Op::Pool(o) => pool::apply(ctx, o, recv, args, span),
        Op::Norm(o) => norm::apply(ctx, o, recv, args, span),
        Op::Loss(o) => loss::apply(ctx, o, recv, args, span),
        Op::Gather(o) => gather::apply(ctx, o, recv, args, span),
        Op::Ranges(o) => ranges::apply(ctx, o, recv, args, span),
        Op::Stats(o) => stats::apply(ctx, o, recv, args, span),
        Op::Hash(o) => hash::apply(ctx, o, recv, args, span),
        Op::Random(o) => random::apply(ctx, o, recv, args, span),
        Op::Autograd(o) => autograd::apply(ctx, o, recv, args, span),
    }
}

/// The one error for a name that is no op, with the known names close to it.
fn unknown(n: &str, span: Span) -> Error {
    let close: Vec<&str> = Op::all().map(Op::name).filter(|k| similar(k, n)).collect();
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
mod mirror_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_parses_to_its_op_and_names_are_unique() {
        let all: Vec<Op> = Op::all().collect();
        for op in &all {
            assert_eq!(Op::parse(op.name()), Some(*op));
        }
        let mut names: Vec<&str> = all.iter().map(|o| o.name()).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "a method name in two families");
        assert_eq!(Op::parse("resahpe"), None);
    }
}
