//! Elementwise ops: float math and activations, ops that keep the dtype, tests, arithmetic
//! and comparisons with numpy broadcasting and weak scalars, selection, casts.

use super::*;

const fn float_unary(name: &'static str, doc: &'static str, ex: Example) -> OpSig {
    OpSig::new(name, Family::Elementwise, doc)
        .dtype(&[T::FloatOf])
        .typed(Typed::FloatUnary(ex))
}

const fn same_unary(name: &'static str, doc: &'static str, ex: Example) -> OpSig {
    OpSig::new(name, Family::Elementwise, doc).typed(Typed::SameUnary(ex))
}

const fn test(name: &'static str, doc: &'static str, ex: Example) -> OpSig {
    OpSig::new(name, Family::Elementwise, doc)
        .dtype(&[T::Bool])
        .typed(Typed::BoolUnary(ex))
}

const RHS: &[Param] = &[p("rhs", Kind::Operand)];
const WITH_RHS: S = S::Broadcast(&["rhs"]);

const fn binary(name: &'static str, doc: &'static str, dtype: &'static [T]) -> OpSig {
    OpSig::new(name, Family::Elementwise, doc)
        .params(RHS)
        .dtype(dtype)
        .shape(WITH_RHS)
}

const MEET: &[T] = &[T::Meet(&["rhs"])];
const BITS: &[T] = &[T::BitwiseMeet(&["rhs"])];
const BOOL: &[T] = &[T::Bool];

/// The elementwise ops.
pub static OPS: &[OpSig] = &[
    float_unary("exp", "`e^x`", ex("[0.0, 1.0]", "[1.0, 2.7182817]")),
    float_unary("exp2", "`2^x`", ex("[0.0, 3.0]", "[1.0, 8.0]")),
    float_unary("log", "The natural logarithm", ex("[1.0, 10.0]", "[0.0, 2.3025851]")),
    float_unary("log2", "The base-2 logarithm", ex("[1.0, 0.25]", "[0.0, -2.0]")),
    float_unary("sqrt", "The square root", ex("[4.0, 2.0]", "[2.0, 1.4142135]")),
    float_unary("rsqrt", "`1 / sqrt(x)`", ex("[4.0, 0.25]", "[0.5, 2.0]")),
    float_unary("sin", "Sine", ex("[0.0, 1.0]", "[0.0, 0.84147096]")),
    float_unary("cos", "Cosine", ex("[0.0, 1.0]", "[1.0, 0.5403023]")),
    float_unary("tan", "Tangent", ex("[0.0, 1.0]", "[0.0, 1.5574077]")),
    float_unary("asin", "Arcsine", ex("[0.0, 0.5]", "[0.0, 0.5235988]")),
    float_unary("acos", "Arccosine", ex("[1.0, 0.5]", "[0.0, 1.0471976]")),
    float_unary("atan", "Arctangent", ex("[0.0, 1.0]", "[0.0, 0.7853982]")),
    float_unary("sinh", "Hyperbolic sine", ex("[0.0, 1.0]", "[0.0, 1.1752012]")),
    float_unary("cosh", "Hyperbolic cosine", ex("[0.0, 1.0]", "[1.0, 1.5430806]")),
    float_unary("tanh", "Hyperbolic tangent", ex("[0.0, 1.0]", "[0.0, 0.7615942]")),
    float_unary(
        "asinh",
        "Inverse hyperbolic sine",
        ex("[0.0, 1.0]", "[0.0, 0.8813736]"),
    ),
    float_unary(
        "acosh",
        "Inverse hyperbolic cosine",
        ex("[1.0, 2.0]", "[0.0, 1.3169579]"),
    ),
    float_unary(
        "atanh",
        "Inverse hyperbolic tangent",
        ex("[0.0, 0.5]", "[0.0, 0.54930615]"),
    ),
    float_unary("erf", "The error function", ex("[0.0, 1.0]", "[0.0, 0.8427008]")),
    float_unary("reciprocal", "`1 / x`", ex("[4.0, -0.5]", "[0.25, -2.0]")),
    float_unary(
        "gelu",
        "GELU, tanh approximation (tinygrad's and candle's default)",
        ex("[0.0, 1.0]", "[0.0, 0.841192]"),
    ),
    float_unary(
        "gelu_erf",
        "GELU, exact erf form (torch's default)",
        ex("[0.0, 1.0]", "[0.0, 0.8413447]"),
    ),
    float_unary(
        "quick_gelu",
        "`x sigmoid(1.702 x)`",
        ex("[0.0, 1.0]", "[0.0, 0.8457957]"),
    ),
    float_unary(
        "silu",
        "SiLU (swish), `x sigmoid(x)`",
        ex("[0.0, 1.0]", "[0.0, 0.7310586]"),
    ),
    float_unary(
        "swish",
        "Swish, tinygrad's `x * sigmoid(x)`",
        ex("[0.0, 1.0]", "[0.0, 0.7310586]"),
    ),
    float_unary(
        "mish",
        "Mish, `x tanh(softplus(x))`",
        ex("[0.0, 1.0]", "[0.0, 0.8650984]"),
    ),
    float_unary("softsign", "`x / (1 + |x|)`", ex("[1.0, -3.0]", "[0.5, -0.75]")),
    float_unary(
        "sigmoid",
        "`1 / (1 + e^-x)`, stable for either sign",
        ex("[0.0, 2.0]", "[0.5, 0.8807971]"),
    ),
    float_unary(
        "logsigmoid",
        "`ln(sigmoid(x))`, stable for either sign",
        ex("[0.0, -100.0]", "[-0.6931472, -100.0]"),
    ),
    float_unary(
        "hardsigmoid",
        "`clamp(x / 6 + 1/2, 0, 1)`",
        ex("[0.0, 4.0]", "[0.5, 1.0]"),
    ),
    float_unary(
        "hardswish",
        "`x relu6(x + 3) / 6`",
        ex("[0.0, 1.0]", "[0.0, 0.6666667]"),
    ),
    float_unary(
        "selu",
        "SELU with the paper's constants",
        ex("[0.0, 1.0]", "[0.0, 1.050701]"),
    ),
    same_unary("abs", "`|x|`", ex("[-1.5, 2.0, 0.0]", "[1.5, 2.0, 0.0]")),
    same_unary(
        "sign",
        "-1, 0 or 1 by the sign (NaN stays NaN)",
        ex("[-1.5, 2.0, 0.0]", "[-1.0, 1.0, 0.0]"),
    ),
    same_unary(
        "trunc",
        "Rounding toward zero (integers unchanged)",
        ex("[-1.5, 2.7, 0.2]", "[-1.0, 2.0, 0.0]"),
    ),
    same_unary(
        "floor",
        "Rounding toward negative infinity (integers unchanged)",
        ex("[-1.5, 2.7, 0.2]", "[-2.0, 2.0, 0.0]"),
    ),
    same_unary(
        "ceil",
        "Rounding toward positive infinity (integers unchanged)",
        ex("[-1.5, 2.7, 0.2]", "[-1.0, 3.0, 1.0]"),
    ),
    same_unary(
        "round",
        "Rounding to nearest, ties to even (integers unchanged)",
        ex("[0.5, 1.5, 2.5]", "[0.0, 2.0, 2.0]"),
    ),
    same_unary(
        "relu",
        "`max(x, 0)` (NaN stays NaN)",
        ex("[-1.5, 2.0, 0.0]", "[0.0, 2.0, 0.0]"),
    ),
    same_unary(
        "relu6",
        "`min(max(x, 0), 6)`",
        ex("[-1.5, 2.0, 7.0]", "[0.0, 2.0, 6.0]"),
    ),
    same_unary("square", "`x * x`", ex("[-1.5, 2.0, 0.0]", "[2.25, 4.0, 0.0]")),
    OpSig::new(
        "contiguous",
        Family::Elementwise,
        "The same values in a buffer of their own",
    )
    .infallible(),
    OpSig::new(
        "detach",
        Family::Elementwise,
        "The same values, through which no gradient flows",
    )
    .infallible(),
    test(
        "isnan",
        "True where NaN (never for integers and bool)",
        ex("[1.0, f32::NAN]", "[false, true]"),
    ),
    test(
        "isinf",
        "True where +inf (if `detect_positive`) or -inf (if `detect_negative`)",
        ex_with(
            "f32",
            "[f32::NEG_INFINITY, 0.0, f32::INFINITY]",
            "true, false",
            "[false, false, true]",
        ),
    )
    .params(&[
        p("detect_positive", Kind::Bool).or(ArgDefault::Bool(true)),
        p("detect_negative", Kind::Bool).or(ArgDefault::Bool(true)),
    ]),
    test(
        "isfinite",
        "True where neither infinite nor NaN",
        ex("[1.0, f32::NAN, f32::INFINITY]", "[true, false, false]"),
    ),
    test(
        "logical_not",
        "`!bool(x)`: true where the element is zero",
        ex_with("i32", "[0, 7]", "", "[true, false]"),
    ),
    binary("add", "`x + rhs`", MEET),
    binary("sub", "`x - rhs`", MEET),
    binary("mul", "`x * rhs`", MEET),
    binary("div", "`x / rhs`, true division (integers give floats)", &[
        T::FloatMeet(&["rhs"]),
    ]),
    binary("idiv", "Integer division truncating toward zero", MEET),
    binary("floor_div", "Division rounded toward negative infinity", MEET),
    binary("modulo", "The remainder with the divisor's sign (Python's `%`)", MEET),
    binary("pow", "`x ** rhs`", MEET),
    binary("maximum", "The larger of the two (NaN propagates)", MEET),
    binary("minimum", "The smaller of the two (NaN propagates)", MEET),
    binary("eq", "`x == rhs`", BOOL),
    binary("ne", "`x != rhs`", BOOL),
    binary("lt", "`x < rhs`", BOOL),
    binary("le", "`x <= rhs`", BOOL),
    binary("gt", "`x > rhs`", BOOL),
    binary("ge", "`x >= rhs`", BOOL),
    binary("logical_and", "`bool(x) && bool(rhs)`", BOOL),
    binary("logical_or", "`bool(x) || bool(rhs)`", BOOL),
    binary("logical_xor", "`bool(x) != bool(rhs)`", BOOL),
    binary("bitwise_and", "`x & rhs` (integers and bool)", BITS),
    binary("bitwise_or", "`x | rhs` (integers and bool)", BITS),
    binary("bitwise_xor", "`x ^ rhs` (integers and bool)", BITS),
    binary("shl", "`x << rhs` (integers)", BITS),
    binary("shr", "`x >> rhs` (integers)", BITS),
    OpSig::new("bitwise_not", Family::Elementwise, "`~x`: every bit flipped (logical not for bool)")
        .need(Need::IntOrBool),
    same_unary(
        "neg",
        "`-x` (integers wrap)",
        ex("[1.5, -2.0, 0.0]", "[-1.5, 2.0, -0.0]"),
    ),
    float_unary(
        "leaky_relu",
        "`x` for `x >= 0`, `negative_slope * x` below",
        ex_with("i32", "[-2, 3]", "0.5", "[-1.0f32, 3.0]"),
    )
    .params(&[p("negative_slope", Kind::F64).or(ArgDefault::F64(0.01))]),
    float_unary(
        "elu",
        "ELU: `x` for `x > 0`, `alpha (e^x - 1)` below",
        ex_with("f32", "[-100.0, 2.0]", "1.0", "[-1.0, 2.0]"),
    )
    .params(&[p("alpha", Kind::F64).or(ArgDefault::F64(1.0))]),
    float_unary(
        "celu",
        "CELU: `x` for `x > 0`, `alpha (e^(x/alpha) - 1)` below",
        ex_with("f32", "[-100.0, 2.0]", "2.0", "[-2.0, 2.0]"),
    )
    .params(&[p("alpha", Kind::F64).or(ArgDefault::F64(1.0))]),
    float_unary(
        "softplus",
        "`ln(1 + e^(beta x)) / beta`, stable for large |x|",
        ex_with("f32", "[0.0, 100.0]", "1.0", "[0.6931472, 100.0]"),
    )
    .params(&[p("beta", Kind::F64).or(ArgDefault::F64(1.0))]),
    float_unary(
        "hardtanh",
        "`clamp(x, min_val, max_val)` as a float function",
        ex_with("f32", "[-4.0, 0.5, 4.0]", "-1.0, 1.0", "[-1.0, 0.5, 1.0]"),
    )
    .params(&[
        p("min_val", Kind::F64).or(ArgDefault::F64(-1.0)),
        p("max_val", Kind::F64).or(ArgDefault::F64(1.0)),
    ]),
    OpSig::new("clamp", Family::Elementwise, "Each value within `[min, max]` (a bound may be a tensor or a scalar; `max` may be absent)")
        .params(CLAMP)
        .dtype(&[T::Meet(&["min", "max"])])
        .shape(S::Broadcast(&["min", "max"])),
    OpSig::new("clip", Family::Elementwise, "`clamp`")
        .params(CLAMP)
        .dtype(&[T::Meet(&["min", "max"])])
        .shape(S::Broadcast(&["min", "max"])),
    OpSig::new("where_", Family::Elementwise, "`x` where the condition holds, `y` elsewhere")
        .params(&[p("x", Kind::Operand), p("y", Kind::Operand)])
        .need(Need::Bool)
        .dtype(&[T::Branches(&["x", "y"])])
        .shape(S::Broadcast(&["x", "y"])),
    OpSig::new("lerp", Family::Elementwise, "`x + weight (end - x)`")
        .params(&[p("end", Kind::Operand), p("weight", Kind::Operand)])
        .dtype(&[T::Meet(&["end", "weight"])])
        .shape(S::Broadcast(&["end", "weight"])),
    OpSig::new("cast", Family::Elementwise, "The values converted to `dtype` (integers wrap, floats to integers truncate and saturate)")
        .params(&[p("dtype", Kind::DType)])
        .dtype(&[T::Arg("dtype")])
        .infallible(),
    OpSig::new("bitcast", Family::Elementwise, "Each element's bits read as `dtype`, a type of the same size")
        .params(&[p("dtype", Kind::DType)])
        .dtype(&[T::Bitcast("dtype")]),
    OpSig::new("isclose", Family::Elementwise, "`|x - other| <= atol + rtol |other|` elementwise")
        .params(CLOSE)
        .dtype(BOOL)
        .shape(S::Broadcast(&["other"])),
    OpSig::new("allclose", Family::Elementwise, "Whether every element is `isclose` (a rank-0 bool)")
        .params(CLOSE)
        .dtype(BOOL)
        .shape(S::AllOf(&["other"])),
    float_unary(
        "log10",
        "The base-10 logarithm",
        ex_with("i32", "[1, 100]", "", "[0.0f32, 2.0]"),
    ),
    binary("fmod", "C's `fmod`: the remainder with the dividend's sign", MEET),
    binary("copysign", "`|x|` with the sign (bit, for floats) of `rhs`", MEET),
    binary("logaddexp", "`ln(e^x + e^rhs)`, stable", &[T::FloatMeet(&["rhs"])]),
    OpSig::new("masked_fill", Family::Elementwise, "`value` where `mask` is true, `x` elsewhere; the mask and value broadcast into `x`'s shape")
        .params(&[p("mask", Kind::Tensor), p("value", Kind::Operand)])
        .dtype(&[T::Meet(&["value"])])
        .shape(S::Within(&["mask", "value"])),
];

const CLAMP: &[Param] = &[
    p("min", Kind::OptOperand),
    p("max", Kind::OptOperand).or(ArgDefault::Absent),
];

const CLOSE: &[Param] = &[
    p("other", Kind::Operand),
    p("rtol", Kind::F64).or(ArgDefault::F64(1e-5)),
    p("atol", Kind::F64).or(ArgDefault::F64(1e-8)),
    p("equal_nan", Kind::Bool).or(ArgDefault::Bool(false)),
];
