//! Matrix products, einsum and the decompositions; convolutions and pooling; normalization.

use super::*;

/// Matrix products and decompositions.
pub static LINALG: &[OpSig] = &[
    OpSig::new(
        "matmul",
        Family::Linalg,
        "The matrix product, with numpy's rules for 1-D operands and batch axes",
    )
    .params(&[p("other", Kind::Tensor)])
    .dtype(&[T::Meet(&["other"])])
    .shape(S::Matmul),
    OpSig::new(
        "dot",
        Family::Linalg,
        "`matmul`, accumulated in `acc` if given",
    )
    .params(&[
        p("other", Kind::Tensor),
        p("acc", Kind::OptDType).or(ArgDefault::Absent),
    ])
    .dtype(&[T::ArgOr("acc", &["other"])])
    .shape(S::Matmul),
    OpSig::new(
        "linear",
        Family::Linalg,
        "`x @ weight + bias`, the weight `(in, out)` as tinygrad's",
    )
    .params(&[
        p("weight", Kind::Tensor),
        p("bias", Kind::OptTensor).or(ArgDefault::Absent),
    ])
    .dtype(&[T::Meet(&["weight", "bias"])])
    .shape(S::Linear),
    OpSig::new(
        "einsum",
        Family::Linalg,
        "Einstein summation: `a.einsum(\"ij,jk->ik\", b)`, the formula checked at compile time",
    )
    .params(&[
        p("formula", Kind::Formula),
        p("operands", Kind::Tensors),
        p("acc", Kind::OptDType)
            .or(ArgDefault::Absent)
            .keyword_only(),
    ])
    .keywords()
    .dtype(&[T::ArgOrSum("acc", &["operands"])])
    .call(Call::Special("the macros read its formula themselves"))
    .shape(S::Einsum),
    OpSig::new(
        "scaled_dot_product_attention",
        Family::Linalg,
        "`softmax(q k^T / sqrt(d) + mask) v` for queries `(.., L, d)`, keys `(.., S, d)`, values `(.., S, dv)`",
    )
    .params(&[
        p("key", Kind::Tensor),
        p("value", Kind::Tensor),
        p("attn_mask", Kind::OptTensor).or(ArgDefault::Absent),
        p("dropout_p", Kind::F64).or(ArgDefault::F64(0.0)),
        p("is_causal", Kind::Bool).or(ArgDefault::Bool(false)),
    ])
    .keywords()
    .dtype(&[T::FloatMeet(&["key", "value"])])
    .shape(S::Attention),
    OpSig::new(
        "qr",
        Family::Linalg,
        "The QR decomposition of the matrices in the last two axes: `(q, r)`",
    )
    .dtype(&[T::FloatOf, T::FloatOf])
    .shape(S::Qr)
    .outputs(Outputs::Pair),
    OpSig::new(
        "svd",
        Family::Linalg,
        "The singular value decomposition: `(u, s, vh)` (numpy's shapes)",
    )
    .params(&[p("full_matrices", Kind::Bool).or(ArgDefault::Bool(true))])
    .keywords()
    .dtype(&[T::FloatOf, T::FloatOf, T::FloatOf])
    .shape(S::Svd)
    .outputs(Outputs::Triple),
    OpSig::new(
        "newton_schulz",
        Family::Linalg,
        "The Newton-Schulz iteration of a polynomial (Muon's orthogonalization)",
    )
    .params(&[
        p("steps", Kind::Size),
        p("params", Kind::Floats),
        p("eps", Kind::F64).or(ArgDefault::F64(1e-7)),
    ])
    .keywords()
    .dtype(&[T::FloatOf])
    .shape(S::NewtonSchulz),
];

const fn w(name: &'static str, field: WindowField, default: ArgDefault) -> Param {
    p(name, Kind::Window(field)).or(default).keyword_only()
}

const CONV_DTYPE: &[T] = &[T::Conv];

/// Convolutions.
pub static CONV: &[OpSig] = &[
    OpSig::new("conv2d", Family::Conv, "A convolution over any number of spatial axes: input `(N, C, *spatial)`, weight `(Cout, C / groups, *kernel)`")
        .params(&[
            p("weight", Kind::Tensor).positional_only(),
            p("bias", Kind::OptTensor).or(ArgDefault::Absent),
            w("stride", WindowField::Stride, ArgDefault::Int(1)),
            w("padding", WindowField::Padding, ArgDefault::Int(0)),
            w("dilation", WindowField::Dilation, ArgDefault::Int(1)),
            w("groups", WindowField::Groups, ArgDefault::Int(1)),
        ])
        .keywords()
        .dtype(CONV_DTYPE)
        .shape(S::Conv),
    OpSig::new("conv_transpose2d", Family::Conv, "A transposed convolution: input `(N, Cin, *spatial)`, weight `(Cin, Cout / groups, *kernel)`")
        .params(&[
            p("weight", Kind::Tensor),
            p("bias", Kind::OptTensor).or(ArgDefault::Absent),
            w("stride", WindowField::Stride, ArgDefault::Int(1)),
            w("padding", WindowField::Padding, ArgDefault::Int(0)),
            w("dilation", WindowField::Dilation, ArgDefault::Int(1)),
            w("groups", WindowField::Groups, ArgDefault::Int(1)),
            w("output_padding", WindowField::OutputPadding, ArgDefault::Int(0)),
        ])
        .keywords()
        .dtype(CONV_DTYPE)
        .shape(S::ConvTranspose),
];

const fn kernel() -> Param {
    p("kernel", Kind::Window(WindowField::Kernel)).or(ArgDefault::Ints(&[2, 2]))
}

const fn stride() -> Param {
    w("stride", WindowField::Stride, ArgDefault::Absent)
}
const fn padding() -> Param {
    w("padding", WindowField::Padding, ArgDefault::Int(0))
}
const fn dilation() -> Param {
    w("dilation", WindowField::Dilation, ArgDefault::Int(1))
}
const fn ceil_mode() -> Param {
    w("ceil_mode", WindowField::CeilMode, ArgDefault::Bool(false))
}

const POOL: &[Param] = &[kernel(), stride(), padding(), dilation(), ceil_mode()];

/// Pooling.
pub static POOLS: &[OpSig] = &[
    OpSig::new(
        "max_pool2d",
        Family::Pool,
        "The maximum of each window over the last `kernel.len()` axes",
    )
    .params(POOL)
    .keywords()
    .shape(S::Pool),
    OpSig::new(
        "avg_pool2d",
        Family::Pool,
        "The mean of each window over the last `kernel.len()` axes",
    )
    .params(&[
        kernel(),
        stride(),
        padding(),
        dilation(),
        ceil_mode(),
        w(
            "count_include_pad",
            WindowField::CountIncludePad,
            ArgDefault::Bool(true),
        ),
    ])
    .keywords()
    .dtype(&[T::FloatOf])
    .shape(S::Pool),
    OpSig::new(
        "max_pool2d_with_indices",
        Family::Pool,
        "`max_pool2d` and the flat i32 positions of the maxima within the spatial axes",
    )
    .params(POOL)
    .keywords()
    .dtype(&[T::Same, T::I32])
    .shape(S::Pool)
    .outputs(Outputs::Pair),
    OpSig::new(
        "max_unpool2d",
        Family::Pool,
        "The values of `max_pool2d_with_indices` put back at their positions in zeros",
    )
    .params(&[
        p("indices", Kind::Tensor),
        p("kernel", Kind::Window(WindowField::Kernel)).or(ArgDefault::Ints(&[2, 2])),
        w("stride", WindowField::Stride, ArgDefault::Absent),
        w("padding", WindowField::Padding, ArgDefault::Int(0)),
        w("dilation", WindowField::Dilation, ArgDefault::Int(1)),
        p("output_size", Kind::OptSizes)
            .or(ArgDefault::Absent)
            .keyword_only(),
    ])
    .keywords()
    .dtype(&[T::Sum])
    .shape(S::MaxUnpool),
];

/// Normalization.
pub static NORM: &[OpSig] = &[
    OpSig::new(
        "layernorm",
        Family::Norm,
        "`(x - mean) / sqrt(var + eps)` over the given axes",
    )
    .params(&[
        p("axis", Kind::AxisList).or(ArgDefault::Ints(&[-1])),
        p("eps", Kind::F64).or(ArgDefault::F64(1e-5)),
    ])
    .keywords()
    .dtype(&[T::FloatOf])
    .shape(S::LayerNorm),
    OpSig::new(
        "batchnorm",
        Family::Norm,
        "`(x - mean) * weight * invstd + bias` with given statistics",
    )
    .params(&[
        p("mean", Kind::Tensor),
        p("invstd", Kind::Tensor),
        p("weight", Kind::OptTensor).or(ArgDefault::Absent),
        p("bias", Kind::OptTensor).or(ArgDefault::Absent),
        p("axis", Kind::AxisList)
            .or(ArgDefault::Ints(&[1]))
            .keyword_only(),
    ])
    .keywords()
    .call(Call::Reorder(&["weight", "bias", "mean", "invstd", "axis"]))
    .dtype(&[T::Meet(&["mean", "invstd", "weight", "bias"])])
    .shape(S::BatchNorm),
];
