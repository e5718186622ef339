//! Reductions over a set of axes, and the statistics, scans and sorts.

use super::*;

const AXES: &[Param] = &[
    p("axis", Kind::Axes).or(ArgDefault::Absent),
    p("keepdim", Kind::Bool).or(ArgDefault::Bool(false)),
];

const fn reduction(
    name: &'static str,
    doc: &'static str,
    dtype: &'static [T],
    example: &'static str,
) -> OpSig {
    OpSig::new(name, Family::Reduce, doc)
        .params(AXES)
        .dtype(dtype)
        .shape(S::Reduce)
        .typed(Typed::Reduction(example))
}

/// The reductions.
pub static REDUCE: &[OpSig] = &[
    reduction(
        "sum",
        "sum (accumulated in a wide type: see `SumDtype`)",
        &[T::Sum],
        "21.0",
    ),
    reduction(
        "prod",
        "product (integers wrap; bool gives `all`)",
        &[T::Same],
        "720.0",
    ),
    reduction("max", "maximum (NaN propagates)", &[T::Same], "6.0"),
    reduction("min", "minimum (NaN propagates)", &[T::Same], "1.0"),
    reduction(
        "mean",
        "mean (f32 for integers: see `MeanDtype`; NaN over nothing)",
        &[T::FloatOf],
        "3.5",
    ),
    reduction(
        "any",
        "logical or (nonzero elements are true)",
        &[T::Bool],
        "true",
    ),
    reduction(
        "all",
        "logical and (nonzero elements are true; true over nothing)",
        &[T::Bool],
        "true",
    ),
    OpSig::new(
        "sum_as",
        Family::Reduce,
        "The sum accumulated and returned in `dtype`",
    )
    .params(&[
        p("axis", Kind::Axes).or(ArgDefault::Absent),
        p("keepdim", Kind::Bool).or(ArgDefault::Bool(false)),
        p("dtype", Kind::DType).keyword_only(),
    ])
    .keywords()
    .dtype(&[T::Arg("dtype")])
    .shape(S::Reduce),
];

const STAT: &[Param] = &[
    p("axis", Kind::Axes).or(ArgDefault::Absent),
    p("keepdim", Kind::Bool).or(ArgDefault::Bool(false)),
    p("correction", Kind::F64).or(ArgDefault::F64(1.0)),
];

const ALONG: &[Param] = &[
    p("axis", Kind::Axis).or(ArgDefault::Int(-1)),
    p("dtype", Kind::OptDType)
        .or(ArgDefault::Absent)
        .keyword_only(),
];

const SCAN: &[Param] = &[p("axis", Kind::Axis).or(ArgDefault::Int(0))];
const ARG: &[Param] = &[
    p("axis", Kind::OptAxis).or(ArgDefault::Absent),
    p("keepdim", Kind::Bool).or(ArgDefault::Bool(false)),
];
const SORT: &[Param] = &[
    p("axis", Kind::Axis).or(ArgDefault::Int(-1)),
    p("descending", Kind::Bool).or(ArgDefault::Bool(false)),
];
const FLOAT: &[T] = &[T::FloatOf];
const FLOAT2: &[T] = &[T::FloatOf, T::FloatOf];
const WITH_INDICES: &[T] = &[T::Same, T::I32];

const fn stat(name: &'static str, doc: &'static str) -> OpSig {
    OpSig::new(name, Family::Stats, doc)
        .params(STAT)
        .keywords()
        .dtype(FLOAT)
        .shape(S::Reduce)
}

const fn along(name: &'static str, doc: &'static str) -> OpSig {
    OpSig::new(name, Family::Stats, doc)
        .params(ALONG)
        .keywords()
        .dtype(&[T::ArgOrFloat("dtype")])
        .shape(S::Along)
}

const fn scan(name: &'static str, doc: &'static str, dtype: &'static [T]) -> OpSig {
    OpSig::new(name, Family::Stats, doc)
        .params(SCAN)
        .keywords()
        .dtype(dtype)
        .shape(S::Scan)
}

/// Statistics, scans and sorting.
pub static STATS: &[OpSig] = &[
    stat("var", "variance (`correction` 1.0 is Bessel's)").typed(Typed::Statistic(
        "[1.0, 3.0, 2.0, 2.0]",
        "2.0 / 3.0",
        "vec![2.0, 0.0]",
    )),
    stat("std", "standard deviation (`correction` 1.0 is Bessel's)").typed(Typed::Statistic(
        "[1.0, 3.0, 2.0, 2.0]",
        "(2.0f32 / 3.0).sqrt()",
        "vec![2.0f32.sqrt(), 0.0]",
    )),
    stat("var_mean", "The variance and the mean")
        .dtype(FLOAT2)
        .outputs(Outputs::Pair),
    stat("std_mean", "The standard deviation and the mean")
        .dtype(FLOAT2)
        .outputs(Outputs::Pair),
    OpSig::new(
        "logsumexp",
        Family::Stats,
        "`log(sum(exp(x)))`, stable for large inputs and `-inf`",
    )
    .params(AXES)
    .keywords()
    .dtype(FLOAT)
    .shape(S::Reduce),
    along("softmax", "Softmax along an axis (in `dtype` if given)"),
    along(
        "log_softmax",
        "Log-softmax along an axis (in `dtype` if given)",
    ),
    along(
        "softmin",
        "Softmin (`softmax(-x)`) along an axis (in `dtype` if given)",
    ),
    OpSig::new(
        "normalize",
        Family::Stats,
        "`x / max(||x||_p, eps)` along an axis",
    )
    .params(&[
        p("p", Kind::F64).or(ArgDefault::F64(2.0)),
        p("axis", Kind::Axis).or(ArgDefault::Int(1)),
        p("eps", Kind::F64).or(ArgDefault::F64(1e-12)),
    ])
    .keywords()
    .dtype(FLOAT)
    .shape(S::Normalize),
    scan("cumsum", "The running sum along an axis", &[T::Sum]),
    scan("cumprod", "The running product along an axis", &[T::Same]),
    scan(
        "cummax",
        "The running maximum along an axis and where it was",
        WITH_INDICES,
    )
    .outputs(Outputs::Pair),
    scan(
        "cummin",
        "The running minimum along an axis and where it was",
        WITH_INDICES,
    )
    .outputs(Outputs::Pair),
    scan("logcumsumexp", "`log(cumsum(exp(x)))`, stable", FLOAT),
    OpSig::new(
        "argmax",
        Family::Stats,
        "Where the maximum is (the first, over the flattened tensor without an axis)",
    )
    .params(ARG)
    .keywords()
    .dtype(&[T::I32])
    .shape(S::ArgReduce),
    OpSig::new(
        "argmin",
        Family::Stats,
        "Where the minimum is (the first, over the flattened tensor without an axis)",
    )
    .params(ARG)
    .keywords()
    .dtype(&[T::I32])
    .shape(S::ArgReduce),
    OpSig::new(
        "sort",
        Family::Stats,
        "The values sorted along an axis, and their positions",
    )
    .params(SORT)
    .keywords()
    .dtype(WITH_INDICES)
    .shape(S::Sort)
    .outputs(Outputs::Pair),
    OpSig::new(
        "argsort",
        Family::Stats,
        "The positions that sort along an axis",
    )
    .params(SORT)
    .keywords()
    .dtype(&[T::I32])
    .shape(S::Sort),
    OpSig::new(
        "topk",
        Family::Stats,
        "The `k` largest (or smallest) along an axis, and their positions",
    )
    .params(&[
        p("k", Kind::Size),
        p("axis", Kind::Axis).or(ArgDefault::Int(-1)),
        p("largest", Kind::Bool).or(ArgDefault::Bool(true)),
    ])
    .keywords()
    .dtype(WITH_INDICES)
    .shape(S::TopK)
    .outputs(Outputs::Pair),
];
