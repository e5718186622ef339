//! Each ONNX operator as tg ops, dispatched on [`OpType`] with an exhaustive match. The
//! families live in their own modules; compositions tg-ops lacks are written here from
//! `DynTensor` ops, so they fuse and run on every device.

mod conv;
mod elementwise;
pub(crate) mod exotic;
mod grid;
mod index;
mod linalg;
mod loss;
mod ml;
mod norm;
mod pool;
mod quant;
mod recurrent;
mod reduce;
mod resize;
mod sequence;
mod shape;
mod training;
mod transformer;
mod window;

use tg_onnx_format::{OpType, Result};

use crate::value::{NodeCtx, Value};

/// Runs one node on the device (the host evaluator declined it).
pub(crate) fn run(c: &mut NodeCtx) -> Result<Vec<Value>> {
    use OpType as O;
    match c.node.op {
        O::Abs
        | O::Acos
        | O::Acosh
        | O::Asin
        | O::Asinh
        | O::Atan
        | O::Atanh
        | O::Ceil
        | O::Cos
        | O::Cosh
        | O::Erf
        | O::Exp
        | O::Floor
        | O::IsInf
        | O::IsNaN
        | O::Log
        | O::Neg
        | O::Not
        | O::Reciprocal
        | O::Round
        | O::Sign
        | O::Sin
        | O::Sinh
        | O::Sqrt
        | O::Tan
        | O::Tanh
        | O::BitwiseNot
        | O::Celu
        | O::Elu
        | O::Gelu
        | O::HardSigmoid
        | O::HardSwish
        | O::LeakyRelu
        | O::Mish
        | O::Relu
        | O::Selu
        | O::Sigmoid
        | O::Softplus
        | O::Softsign
        | O::ThresholdedRelu
        | O::Shrink
        | O::Swish => elementwise::unary(c),
        O::Add
        | O::Sub
        | O::Mul
        | O::Div
        | O::Pow
        | O::Mod
        | O::And
        | O::Or
        | O::Xor
        | O::Equal
        | O::Greater
        | O::GreaterOrEqual
        | O::Less
        | O::LessOrEqual
        | O::BitShift
        | O::BitwiseAnd
        | O::BitwiseOr
        | O::BitwiseXor
        | O::Max
        | O::Min
        | O::Mean
        | O::Sum
        | O::PRelu => elementwise::binary(c),
        O::Where => elementwise::where_(c),
        O::Clip => elementwise::clip(c),
        O::Cast | O::CastLike => elementwise::cast(c),
        O::Identity => elementwise::identity(c),
        O::Dropout => training::dropout(c),
        O::Shape | O::Size => shape::shape(c),
        O::Constant => shape::constant(c),
        O::Reshape => shape::reshape(c),
        O::Flatten => shape::flatten(c),
        O::Squeeze => shape::squeeze(c),
        O::Unsqueeze => shape::unsqueeze(c),
        O::Transpose => shape::transpose(c),
        O::Concat => shape::concat(c),
        O::Split => shape::split(c),
        O::Slice => shape::slice(c),
        O::Expand => shape::expand(c),
        O::Tile => shape::tile(c),
        O::ConstantOfShape => shape::constant_of_shape(c),
        O::Range => shape::range(c),
        O::EyeLike => shape::eye_like(c),
        O::Trilu => shape::trilu(c),
        O::DepthToSpace | O::SpaceToDepth => shape::depth_space(c),
        O::Pad => shape::pad(c),
        O::CenterCropPad => shape::center_crop_pad(c),
        O::ReverseSequence => index::reverse_sequence(c),
        O::Gather => index::gather(c),
        O::GatherElements => index::gather_elements(c),
        O::GatherND => index::gather_nd(c),
        O::ScatterElements | O::Scatter => index::scatter_elements(c),
        O::ScatterND => index::scatter_nd(c),
        O::OneHot => index::one_hot(c),
        O::Compress => index::compress(c),
        O::NonZero => index::nonzero(c),
        O::TopK => index::topk(c),
        O::ArgMax | O::ArgMin => index::arg(c),
        O::Hardmax => index::hardmax(c),
        O::ReduceSum
        | O::ReduceMean
        | O::ReduceMax
        | O::ReduceMin
        | O::ReduceProd
        | O::ReduceL1
        | O::ReduceL2
        | O::ReduceLogSum
        | O::ReduceLogSumExp
        | O::ReduceSumSquare => reduce::reduce(c),
        O::CumSum | O::CumProd => reduce::cumulative(c),
        O::Softmax | O::LogSoftmax => reduce::softmax(c),
        O::Matmul => linalg::matmul(c),
        O::Gemm => linalg::gemm(c),
        O::Einsum => linalg::einsum(c),
        O::MatMulInteger => linalg::matmul_integer(c),
        O::QLinearMatMul => quant::qlinear_matmul(c),
        O::Conv => conv::conv(c),
        O::ConvTranspose => conv::conv_transpose(c),
        O::ConvInteger => conv::conv_integer(c),
        O::QLinearConv => quant::qlinear_conv(c),
        O::AveragePool | O::MaxPool | O::LpPool => pool::pool(c),
        O::GlobalAveragePool | O::GlobalMaxPool | O::GlobalLpPool => pool::global_pool(c),
        O::MaxUnpool => pool::max_unpool(c),
        O::LpNormalization => norm::lp_normalization(c),
        O::BatchNormalization => norm::batch_norm(c),
        O::InstanceNormalization => norm::instance_norm(c),
        O::LayerNormalization => norm::layer_norm(c),
        O::GroupNormalization => norm::group_norm(c),
        O::RMSNormalization => norm::rms_norm(c),
        O::MeanVarianceNormalization => norm::mean_variance_norm(c),
        O::LRN => norm::lrn(c),
        O::QuantizeLinear => quant::quantize(c),
        O::DequantizeLinear => quant::dequantize(c),
        O::DynamicQuantizeLinear => quant::dynamic_quantize(c),
        O::Resize | O::Upsample => resize::resize(c),
        O::NegativeLogLikelihoodLoss => loss::nll(c),
        O::SoftmaxCrossEntropyLoss => loss::softmax_cross_entropy(c),
        O::BlackmanWindow | O::HammingWindow | O::HannWindow => window::window(c),
        O::RNN | O::GRU | O::LSTM => recurrent::recurrent(c),
        O::Attention => transformer::attention(c),
        O::RotaryEmbedding => transformer::rotary_embedding(c),
        O::SwiGLU => transformer::swiglu(c),
        O::TensorScatter => transformer::tensor_scatter(c),
        O::AffineGrid => grid::affine_grid(c),
        O::GridSample => grid::grid_sample(c),
        O::Adagrad | O::Adam | O::Momentum => training::optimizer(c),
        O::Binarizer | O::ArrayFeatureExtractor => ml::ml(c),
        O::SequenceConstruct
        | O::SequenceEmpty
        | O::SequenceAt
        | O::SequenceInsert
        | O::SequenceErase
        | O::SequenceLength
        | O::SplitToSequence
        | O::ConcatFromSequence
        | O::Optional
        | O::OptionalHasElement
        | O::OptionalGetElement => sequence::sequence(c),
        O::If | O::Loop | O::Scan | O::SequenceMap => Err(tg_onnx_format::Error::Internal(
            format!("{:?} runs in the executor", c.node.op),
        )),
    }
}

/// Whether the op's tensor inputs are made fusion boundaries (`contiguous`): the ops that
/// reduce over windows or rows of their inputs (convolutions, products, pools, attention).
/// Their producers then end in a buffer, with their elementwise epilogues (bias, activation)
/// fused into the producing kernel, as layers are usually split; without the boundary a deep
/// network would nest every layer's reduction inside the next one's loop.
pub(crate) fn reads_buffers(op: OpType) -> bool {
    use OpType as O;
    matches!(
        op,
        O::Conv
            | O::ConvTranspose
            | O::ConvInteger
            | O::QLinearConv
            | O::Matmul
            | O::Gemm
            | O::MatMulInteger
            | O::QLinearMatMul
            | O::Einsum
            | O::AveragePool
            | O::MaxPool
            | O::LpPool
            | O::GlobalAveragePool
            | O::GlobalMaxPool
            | O::GlobalLpPool
            | O::Attention
            | O::LayerNormalization
            | O::BatchNormalization
            | O::InstanceNormalization
            | O::GroupNormalization
            | O::RMSNormalization
            | O::Softmax
            | O::LogSoftmax
    )
}

/// An axis attribute or input normalized against `rank` (`-rank..rank`), or
/// [`tg_onnx_format::Error::Axis`] naming the node.
pub(crate) fn axis(c: &NodeCtx, a: i64, rank: usize) -> Result<usize> {
    c.node.axis(a, rank)
}
