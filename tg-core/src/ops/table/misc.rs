//! Triangles and one-hot, hashing, random tensors, autograd, creation and indexing.

use super::*;

/// Triangles and one-hot.
pub static RANGES: &[OpSig] = &[
    OpSig::new(
        "tril",
        Family::Ranges,
        "The lower triangle of the last two axes (from `diagonal` down); the rest zero",
    )
    .params(&[p("diagonal", Kind::Offset).or(ArgDefault::Int(0))])
    .shape(S::Triangle),
    OpSig::new(
        "triu",
        Family::Ranges,
        "The upper triangle of the last two axes (from `diagonal` up); the rest zero",
    )
    .params(&[p("diagonal", Kind::Offset).or(ArgDefault::Int(0))])
    .shape(S::Triangle),
    OpSig::new(
        "one_hot",
        Family::Ranges,
        "One-hot rows of `num_classes` i32 for integer class indices",
    )
    .params(&[p("num_classes", Kind::Size)])
    .need(Need::Int)
    .dtype(&[T::I32])
    .shape(S::OneHot),
];

/// Hashing.
pub static HASH: &[OpSig] = &[
    OpSig::new("keccak", Family::Hash, "The Keccak digest of the last axis's bytes (u8): \"sha3_256\", \"sha3_224\", \"shake_128\" or a (rate, dsbyte) pair")
        .params(&[p("cfg", Kind::Keccak).or(ArgDefault::Str("sha3_256"))])
        .keywords()
        .dtype(&[T::U8])
        .shape(S::Keccak),
    OpSig::new("hash", Family::Hash, "tinygrad's 16-byte hash of the whole tensor")
        .dtype(&[T::U8])
        .shape(S::Hash),
];

/// Random tensors.
pub static RANDOM: &[OpSig] = &[
    OpSig::new(
        "rand_like",
        Family::Random,
        "Uniform `[0, 1)` draws of the receiver's shape and float dtype",
    )
    .need(Need::FloatDraw),
    OpSig::new(
        "randn_like",
        Family::Random,
        "Standard normal draws of the receiver's shape and float dtype",
    )
    .need(Need::FloatDraw),
    OpSig::new(
        "multinomial",
        Family::Random,
        "`num_samples` i32 indices drawn from each row of weights (with replacement: tinygrad's draws for a seed)",
    )
    .params(&[
        p("num_samples", Kind::Size).or(ArgDefault::Int(1)),
        p("replacement", Kind::Bool).or(ArgDefault::Bool(false)),
    ])
    .keywords()
    .dtype(&[T::I32])
    .shape(S::Multinomial),
    OpSig::new(
        "dropout",
        Family::Random,
        "Each value kept with probability `1 - p` and scaled by `1 / (1 - p)`, else zero",
    )
    .params(&[p("p", Kind::F64).or(ArgDefault::F64(0.5))])
    .keywords()
    .need(Need::FloatDraw),
];

/// Gradients and the identities that shape them.
pub static AUTOGRAD: &[OpSig] = &[
    OpSig::new(
        "gradient",
        Family::Autograd,
        "The gradient of a scalar with respect to each target (one tensor, or a tuple)",
    )
    .params(&[p("targets", Kind::Tensors)])
    .call(Call::Special(
        "the macros check the seed and the targets themselves",
    ))
    .shape(S::Special),
    OpSig::new(
        "contiguous_backward",
        Family::Autograd,
        "The same values; the gradient through it gets a buffer of its own",
    )
    .infallible(),
    OpSig::new(
        "assign",
        Family::Autograd,
        "Writes `value` into the receiver in place (an optimizer's update)",
    )
    .params(&[p("value", Kind::Tensor)])
    .call(Call::Special("it writes through its receiver"))
    .shape(S::Special),
    OpSig::new(
        "assign_window",
        Family::Autograd,
        "Writes `value`'s rows at `start..start + T` along `axis` into the receiver in place (numpy's slice assignment; a KV cache's rows at a position); `start` (an integer, a kernel's scalar argument, a one-element tensor) is read on the device, rows past the end are dropped",
    )
    .params(&[
        p("axis", Kind::Axis),
        p("start", Kind::Operand),
        p("value", Kind::Tensor),
    ])
    .call(Call::Write)
    .shape(S::WindowWrite),
];

const SHAPE_DTYPE: &[Param] = &[
    p("shape", Kind::Sizes),
    p("dtype", Kind::DType).or(ArgDefault::Str("f32")),
];

const fn made(name: &'static str, doc: &'static str, params: &'static [Param]) -> OpSig {
    OpSig::new(name, Family::Creation, doc)
        .params(params)
        .keywords()
        .call(Call::Assoc)
        .dtype(&[T::Arg("dtype")])
        .shape(S::Made)
}

/// Tensors made from a shape or a range, and like another.
pub static CREATION: &[OpSig] = &[
    OpSig::new(
        "zeros_like",
        Family::Creation,
        "Zeros of the receiver's shape and dtype",
    )
    .infallible(),
    OpSig::new(
        "ones_like",
        Family::Creation,
        "Ones of the receiver's shape and dtype",
    )
    .infallible(),
    OpSig::new(
        "empty_like",
        Family::Creation,
        "A tensor of the receiver's shape and dtype, its values unset",
    )
    .infallible(),
    OpSig::new(
        "full_like",
        Family::Creation,
        "`value` in the receiver's shape and dtype",
    )
    .params(&[p("value", Kind::Fill)])
    .infallible(),
    OpSig::new(
        "const_like",
        Family::Creation,
        "`value` in the receiver's shape and dtype (a constant of the graph)",
    )
    .params(&[p("value", Kind::Fill)])
    .infallible(),
    made("zeros", "Zeros", SHAPE_DTYPE),
    made("ones", "Ones", SHAPE_DTYPE),
    made("empty", "A tensor whose values are unset", SHAPE_DTYPE),
    made(
        "full",
        "`value` everywhere",
        &[
            p("shape", Kind::Sizes),
            p("value", Kind::Fill),
            p("dtype", Kind::DType).or(ArgDefault::Str("f32")),
        ],
    ),
    OpSig::new(
        "arange",
        Family::Creation,
        "`start, start + step, ..` below `stop` (i32 for integers, else f32, unless `dtype`)",
    )
    .params(&[
        p("start", Kind::Fill),
        p("stop", Kind::Fill),
        p("step", Kind::Fill).or(ArgDefault::Int(1)),
        p("dtype", Kind::OptDType).or(ArgDefault::Absent),
    ])
    .keywords()
    .call(Call::Assoc)
    .dtype(&[T::Arange])
    .shape(S::Arange),
    OpSig::new(
        "linspace",
        Family::Creation,
        "`steps` evenly spaced values from `start` to `stop`",
    )
    .params(&[
        p("start", Kind::F64),
        p("stop", Kind::F64),
        p("steps", Kind::Size),
        p("dtype", Kind::OptDType).or(ArgDefault::Absent),
    ])
    .keywords()
    .call(Call::Assoc)
    .dtype(&[T::ArgOrF32("dtype")])
    .shape(S::Linspace),
    OpSig::new("eye", Family::Creation, "The `n x m` identity")
        .params(&[
            p("n", Kind::Size),
            p("m", Kind::OptSize).or(ArgDefault::Absent),
            p("dtype", Kind::OptDType).or(ArgDefault::Absent),
        ])
        .call(Call::Assoc)
        .dtype(&[T::ArgOrF32("dtype")])
        .shape(S::Eye),
    made(
        "rand",
        "Uniform `[0, 1)` draws from the process-wide stream",
        SHAPE_DTYPE,
    ),
    made("randn", "Standard normal draws", SHAPE_DTYPE),
    made(
        "randint",
        "Uniform integers in `[low, high)`",
        &[
            p("shape", Kind::Sizes),
            p("low", Kind::I64),
            p("high", Kind::I64),
            p("dtype", Kind::DType).or(ArgDefault::Str("i32")),
        ],
    ),
    made(
        "uniform",
        "Uniform draws in `[low, high)`",
        &[
            p("shape", Kind::Sizes),
            p("low", Kind::F64).or(ArgDefault::F64(0.0)),
            p("high", Kind::F64).or(ArgDefault::F64(1.0)),
            p("dtype", Kind::DType).or(ArgDefault::Str("f32")),
        ],
    ),
    made(
        "normal",
        "Normal draws of a mean and standard deviation",
        &[
            p("shape", Kind::Sizes),
            p("mean", Kind::F64).or(ArgDefault::F64(0.0)),
            p("std", Kind::F64).or(ArgDefault::F64(1.0)),
            p("dtype", Kind::DType).or(ArgDefault::Str("f32")),
        ],
    ),
    made(
        "kaiming_uniform",
        "Kaiming-uniform draws (tinygrad's initialiser)",
        &[
            p("shape", Kind::Sizes),
            p("a", Kind::F64).or(ArgDefault::F64(0.01)),
            p("dtype", Kind::DType).or(ArgDefault::Str("f32")),
        ],
    ),
    made(
        "kaiming_normal",
        "Kaiming-normal draws",
        &[
            p("shape", Kind::Sizes),
            p("a", Kind::F64).or(ArgDefault::F64(0.01)),
            p("dtype", Kind::DType).or(ArgDefault::Str("f32")),
        ],
    ),
    made("glorot_uniform", "Glorot-uniform draws", SHAPE_DTYPE),
    made(
        "scaled_uniform",
        "Uniform draws in `[-1, 1)` scaled by `1 / sqrt(numel)`",
        SHAPE_DTYPE,
    ),
];

/// `x[...]` and writes through an index.
pub static INDEXING: &[OpSig] = &[
    OpSig::new(
        "index",
        Family::Indexing,
        "`x[...]`: integers, slices, `None`, `...` and integer tensors (numpy's rules)",
    )
    .call(Call::Special("a kernel body writes it `x[...]`"))
    .shape(S::Special),
    OpSig::new(
        "setitem",
        Family::Indexing,
        "A copy with `value` written at `x[...]`",
    )
    .call(Call::Special("a kernel body has no index assignment yet"))
    .shape(S::Special),
    OpSig::new(
        "select",
        Family::Indexing,
        "The slice at one position of an axis, the axis removed (kept with `keepdim`); the position (an integer, a kernel's scalar argument, a one-element tensor) is read on the device",
    )
    .params(&[
        p("axis", Kind::Axis),
        p("index", Kind::Operand),
        p("keepdim", Kind::Bool).or(ArgDefault::Bool(false)),
    ])
    .keywords()
    .shape(S::Reduce),
];
