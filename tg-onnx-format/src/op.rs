//! The operators of ONNX's default domain that tg implements: one enum, so that the importer
//! dispatches with an exhaustive `match`, and the list a model is checked against at load (and
//! at compile time, by `onnx_kernel!`) is the list the importer runs.

use crate::schema::SINCE_VERSIONS;

macro_rules! op_types {
    ($($name:ident $(= $onnx:literal)?),* $(,)?) => {
        /// An operator tg implements, named as ONNX names it (but `Matmul`: a variant
        /// `MatMul` would share its name with tg's `MatMul` trait, and rustc would then spell
        /// that trait's full path in every diagnostic that mentions it).
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum OpType {
            $(#[allow(missing_docs)] $name,)*
        }

        impl OpType {
            /// Every operator tg implements.
            pub const ALL: &'static [OpType] = &[$(OpType::$name,)*];

            /// ONNX's name of the operator.
            pub const fn name(self) -> &'static str {
                match self {
                    $(OpType::$name => op_types!(@name $name $($onnx)?),)*
                }
            }
        }
    };
    (@name $name:ident $onnx:literal) => { $onnx };
    (@name $name:ident) => { stringify!($name) };
}

op_types! {
    // elementwise math
    Abs, Acos, Acosh, Asin, Asinh, Atan, Atanh, Ceil, Cos, Cosh, Erf, Exp, Floor, IsInf, IsNaN,
    Log, Neg, Not, Reciprocal, Round, Sign, Sin, Sinh, Sqrt, Tan, Tanh, BitwiseNot,
    // activations
    Celu, Elu, Gelu, HardSigmoid, HardSwish, LeakyRelu, Mish, PRelu, Relu, Selu, Sigmoid,
    Softplus, Softsign, ThresholdedRelu, Shrink, Swish, Clip,
    // binary and variadic elementwise
    Add, Sub, Mul, Div, Pow, Mod, And, Or, Xor, Equal, Greater, GreaterOrEqual, Less,
    LessOrEqual, BitShift, BitwiseAnd, BitwiseOr, BitwiseXor, Max, Min, Mean, Sum, Where,
    // types
    Cast, CastLike, Identity, Dropout,
    // shapes and movement
    Shape, Size, Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat, Split, Slice, Expand,
    Tile, ConstantOfShape, Constant, Range, EyeLike, Trilu, DepthToSpace, SpaceToDepth, Pad,
    CenterCropPad, ReverseSequence,
    // indexing
    Gather, GatherElements, GatherND, ScatterElements, Scatter, ScatterND, OneHot, Compress,
    NonZero, TopK, ArgMax, ArgMin, Hardmax,
    // reductions and scans
    ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1, ReduceL2, ReduceLogSum,
    ReduceLogSumExp, ReduceSumSquare, CumSum, CumProd, Softmax, LogSoftmax,
    // products
    Matmul = "MatMul", Gemm, Einsum, MatMulInteger, QLinearMatMul,
    // convolution and pooling
    Conv, ConvTranspose, ConvInteger, QLinearConv, AveragePool, MaxPool, GlobalAveragePool,
    GlobalMaxPool, GlobalLpPool, LpPool, MaxUnpool, LpNormalization,
    // normalization
    BatchNormalization, InstanceNormalization, LayerNormalization, GroupNormalization,
    RMSNormalization, MeanVarianceNormalization, LRN,
    // quantization
    QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear,
    // resampling
    Resize, Upsample,
    // losses
    NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss,
    // windows
    BlackmanWindow, HammingWindow, HannWindow,
    // recurrent layers
    RNN, GRU, LSTM,
    // transformers (opset 23 and later)
    Attention, RotaryEmbedding, SwiGLU, TensorScatter,
    // control flow: branches and loops, run by the executor (a condition or trip count
    // computed from the inputs' values makes the run eager)
    If, Loop, Scan, SequenceMap,
    // sequences and optionals
    SequenceConstruct, SequenceEmpty, SequenceAt, SequenceInsert, SequenceErase, SequenceLength,
    SplitToSequence, ConcatFromSequence, Optional, OptionalHasElement, OptionalGetElement,
    // grids
    AffineGrid, GridSample,
    // ai.onnx.preview.training
    Adagrad, Adam, Momentum,
    // ai.onnx.ml
    Binarizer, ArrayFeatureExtractor,
}

/// The training operators' domain.
pub const TRAINING_DOMAIN: &str = "ai.onnx.preview.training";
/// The classical machine-learning operators' domain.
pub const ML_DOMAIN: &str = "ai.onnx.ml";

impl OpType {
    /// The domain the operator belongs to (`""` for the default one).
    pub const fn domain(self) -> &'static str {
        match self {
            OpType::Adagrad | OpType::Adam | OpType::Momentum => TRAINING_DOMAIN,
            OpType::Binarizer | OpType::ArrayFeatureExtractor => ML_DOMAIN,
            _ => "",
        }
    }

    /// The operator of this ONNX name in the default domain, if tg implements it.
    pub fn parse(name: &str) -> Option<OpType> {
        OpType::parse_in("", name)
    }

    /// The operator of this name in `domain` (`""` or `"ai.onnx"` for the default one).
    pub fn parse_in(domain: &str, name: &str) -> Option<OpType> {
        let domain = if domain == "ai.onnx" { "" } else { domain };
        OpType::ALL
            .iter()
            .copied()
            .find(|o| o.name() == name && o.domain() == domain)
    }

    /// Whether the definitions of this operator older than opset 7 mean what the newer ones
    /// mean (so a model of an old opset may use it): only ops whose early versions differ in
    /// nothing but dtypes and ignorable hints.
    pub fn same_before_opset_7(self) -> bool {
        matches!(self, OpType::Not | OpType::Identity | OpType::Constant)
    }
}

/// The opset version at which the definition of `op_type` a model importing `opset` uses
/// was introduced: the newest since-version not above `opset`. `None` when the op is not
/// defined at that opset (or not at all).
pub fn since_version(op_type: &str, opset: u32) -> Option<u32> {
    let (_, versions) = SINCE_VERSIONS.iter().find(|(n, _)| *n == op_type)?;
    versions.iter().copied().filter(|&v| v <= opset).max()
}

/// Why tg leaves out an operator of the default domain it does not implement, for the error
/// and the README; `None` for operators with no reason recorded (newer operators nobody asked
/// for yet).
pub fn left_out_reason(op_type: &str) -> Option<&'static str> {
    Some(match op_type {
        "StringConcat" | "StringNormalizer" | "StringSplit" | "RegexFullMatch"
        | "TfIdfVectorizer" => "string tensors are not supported",
        "Bernoulli" | "RandomNormal" | "RandomNormalLike" | "RandomUniform"
        | "RandomUniformLike" | "Multinomial" => "random ops cannot match a reference's numbers",
        "Unique" | "NonMaxSuppression" => {
            "the output size depends on the data in a way tg's sized forms cannot bound"
        }
        "DFT" | "STFT" | "MelWeightMatrix" => "complex-valued signal ops are left out",
        "ImageDecoder" => "image decoding is not a tensor op",
        "Det" => "tg has no determinant (LU) op",
        "RoiAlign" | "Col2Im" | "DeformConv" => {
            "sampling at data-dependent fractional positions is not implemented yet"
        }
        "BitCast" => "reinterpreting across element sizes is not a tg op",
        "LinearAttention" | "CausalConvWithState" => {
            "operators of opset 27 are not implemented yet"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_op_is_in_the_schema() {
        for op in OpType::ALL.iter().filter(|o| o.domain().is_empty()) {
            assert!(
                since_version(op.name(), crate::schema::MAX_OPSET).is_some(),
                "{op:?}"
            );
        }
    }

    #[test]
    fn since_versions_resolve() {
        assert_eq!(since_version("Reshape", 12), Some(5));
        assert_eq!(since_version("Reshape", 13), Some(13));
        assert_eq!(since_version("Gelu", 19), None);
        assert_eq!(OpType::parse("Conv"), Some(OpType::Conv));
        assert_eq!(OpType::parse("MatMul"), Some(OpType::Matmul));
        assert_eq!(OpType::parse("Det"), None);
    }
}
