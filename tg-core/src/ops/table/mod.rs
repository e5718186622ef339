//! The rows of the op table, one file per group of families. A row states an op once: its
//! parameters, its dtype and shape rules, its outputs and its typed form.

mod elementwise;
mod linalg;
mod loss;
mod misc;
mod movement;
mod reduce;

pub(super) use super::rules::{DtypeRule as T, ShapeRule as S};
pub(super) use super::sig::{
    ArgDefault, Call, Choices, Example, Family, Kind, Need, OpSig, Outputs, Param, Typed,
    WindowField, ex, ex_with,
};

/// A required parameter (the rows refine it with `or`, `keyword_only`, ...).
pub(super) const fn p(name: &'static str, kind: Kind) -> Param {
    Param::new(name, kind)
}

/// Every family's rows, in the order a kernel body's "did you mean" suggestions list them.
pub static TABLES: &[&[OpSig]] = &[
    elementwise::OPS,
    reduce::REDUCE,
    movement::OPS,
    linalg::LINALG,
    linalg::CONV,
    linalg::POOLS,
    linalg::NORM,
    loss::LOSS,
    loss::GATHER,
    misc::RANGES,
    reduce::STATS,
    misc::HASH,
    misc::RANDOM,
    misc::AUTOGRAD,
    misc::CREATION,
    misc::INDEXING,
];
