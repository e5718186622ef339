//! Losses, and reading and writing at positions an index tensor holds.

use super::*;

const fn reduction() -> Param {
    p("reduction", Kind::Choice(Choices::Reduction)).or(ArgDefault::Str("mean"))
}

const fn loss(
    name: &'static str,
    doc: &'static str,
    params: &'static [Param],
    shape: S,
    dtype: &'static [T],
) -> OpSig {
    OpSig::new(name, Family::Loss, doc)
        .params(params)
        .keywords()
        .dtype(dtype)
        .shape(shape)
}

/// The losses.
pub static LOSS: &[OpSig] = &[
    loss(
        "cross_entropy",
        "Cross-entropy of logits (classes on axis 1) against labels or probabilities",
        &[
            p("y", Kind::Tensor),
            reduction(),
            p("label_smoothing", Kind::F64).or(ArgDefault::F64(0.0)),
        ],
        S::CrossEntropy,
        &[T::CrossEntropy],
    ),
    loss(
        "nll_loss",
        "Negative log-likelihood of log-probabilities `(N, C, ...)` at labels `(N, ...)`",
        &[
            p("y", Kind::Tensor),
            p("weight", Kind::OptTensor).or(ArgDefault::Absent),
            p("ignore_index", Kind::OptI64).or(ArgDefault::Absent),
            reduction(),
        ],
        S::NllLoss,
        &[T::NllLoss],
    ),
    loss(
        "binary_crossentropy",
        "Binary cross-entropy of probabilities",
        &[p("y", Kind::Tensor), reduction()],
        S::Bce,
        &[T::Bce],
    ),
    loss(
        "binary_crossentropy_logits",
        "Binary cross-entropy of logits, stable",
        &[
            p("y", Kind::Tensor),
            reduction(),
            p("pos_weight", Kind::OptTensor).or(ArgDefault::Absent),
        ],
        S::Bce,
        &[T::Bce],
    ),
    loss(
        "sparse_categorical_crossentropy",
        "Cross-entropy of logits (classes on the last axis) at integer labels",
        &[
            p("y", Kind::Tensor),
            p("ignore_index", Kind::OptI64).or(ArgDefault::Absent),
            p("label_smoothing", Kind::F64).or(ArgDefault::F64(0.0)),
            reduction(),
        ],
        S::SparseCce,
        &[T::FloatOf],
    ),
];

/// gather, scatter, masked selection, interpolation.
pub static GATHER: &[OpSig] = &[
    OpSig::new("gather", Family::Gather, "Values read along an axis at the positions an index holds (the index's shape)")
        .params(&[p("dim", Kind::Axis), p("index", Kind::Tensor)])
        .keywords()
        .shape(S::Gather),
    OpSig::new("scatter", Family::Gather, "A copy with `src` written along an axis at the index's positions (a scalar src may `reduce` by \"add\" or \"multiply\")")
        .params(&[
            p("dim", Kind::Axis),
            p("index", Kind::Tensor),
            p("src", Kind::Operand),
            p("reduce", Kind::OptChoice(Choices::ScatterOp)).or(ArgDefault::Absent),
        ])
        .keywords()
        .dtype(&[T::Scatter])
        .shape(S::Scatter),
    OpSig::new("scatter_reduce", Family::Gather, "A copy with `src` combined along an axis at the index's positions (\"sum\", \"prod\", \"mean\", \"amax\", \"amin\")")
        .params(&[
            p("dim", Kind::Axis),
            p("index", Kind::Tensor),
            p("src", Kind::Tensor),
            p("reduce", Kind::Choice(Choices::ScatterReduce)),
            p("include_self", Kind::Bool).or(ArgDefault::Bool(true)),
        ])
        .keywords()
        .dtype(&[T::ScatterReduce])
        .shape(S::Scatter),
    OpSig::new("masked_select_sized", Family::Gather, "The elements where the mask holds, in order, padded with `fill_value` to `size`")
        .params(&[
            p("mask", Kind::Tensor),
            p("size", Kind::Size),
            p("fill_value", Kind::Fill).or(ArgDefault::Int(0)),
        ])
        .keywords()
        .shape(S::MaskedSelectSized),
    OpSig::new("nonzero_sized", Family::Gather, "The positions of the nonzero elements `(size, rank)`, padded with `fill_value`")
        .params(&[
            p("size", Kind::Size),
            p("fill_value", Kind::I32).or(ArgDefault::Int(0)),
        ])
        .keywords()
        .dtype(&[T::I32])
        .shape(S::NonzeroSized),
    OpSig::new("interpolate", Family::Gather, "The last `size.len()` axes resized to `size` (\"linear\", \"nearest\", \"nearest-exact\")")
        .params(&[
            p("size", Kind::Sizes),
            p("mode", Kind::Choice(Choices::Interpolation)).or(ArgDefault::Str("linear")),
            p("align_corners", Kind::Bool).or(ArgDefault::Bool(false)),
        ])
        .keywords()
        .shape(S::Interpolate),
    OpSig::new("masked_select", Family::Gather, "The elements where the mask holds (a length only the data tells)")
        .params(&[p("mask", Kind::Tensor)])
        .call(Call::Special("its length depends on the data: use `masked_select_sized`"))
        .shape(S::DataDependent),
    OpSig::new("nonzero", Family::Gather, "The positions of the nonzero elements (a count only the data tells)")
        .dtype(&[T::I32])
        .call(Call::Special("its length depends on the data: use `nonzero_sized`"))
        .shape(S::DataDependent),
];
