//! The dtype and shape rules an op's row names: each an enum whose `apply` dispatches by an
//! exhaustive match to tg-core's functions, generic over the dimension type, so tg-ops (and its
//! dispatcher) apply them on `usize` and `#[kernel]` on symbolic dims.

mod dtype;
mod shape;
mod window;

pub use dtype::meet;
pub use window::pool_kernel;

use crate::check::Checker;
use crate::dim::Dim;
use crate::dtype::DType;

use super::value::{Args, At, Fault, OpError, Value};

/// The dtype of an output.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DtypeRule {
    /// The receiver's.
    Same,
    /// The float type the receiver computes in (integers and bool give f32).
    FloatOf,
    /// The dtype a sum of the receiver returns (`DType::sum_dtype`).
    Sum,
    /// bool.
    Bool,
    /// i32 (indices, positions).
    I32,
    /// u8 (digests).
    U8,
    /// The dtype the receiver and these parameters meet in (weak scalars).
    Meet(&'static [&'static str]),
    /// The dtype these parameters meet in, the receiver aside (`where_`'s branches).
    Branches(&'static [&'static str]),
    /// The float type of the meet.
    FloatMeet(&'static [&'static str]),
    /// The meet, which must not be a float (bitwise ops).
    BitwiseMeet(&'static [&'static str]),
    /// The dtype argument.
    Arg(&'static str),
    /// The dtype argument if given, else the meet of the receiver and these parameters.
    ArgOr(&'static str, &'static [&'static str]),
    /// The dtype argument if given, else the sum's dtype of the meet of the receiver and
    /// these parameters (einsum).
    ArgOrSum(&'static str, &'static [&'static str]),
    /// The dtype argument if given, else the receiver's float type.
    ArgOrFloat(&'static str),
    /// The dtype argument if given, else f32.
    ArgOrF32(&'static str),
    /// The dtype argument, which must have the receiver's size.
    Bitcast(&'static str),
    /// A convolution's: products in the operands' meet, summed as `sum` sums, then the bias.
    Conv,
    /// scatter's: the receiver's, or a scalar reduce's accumulation dtype.
    Scatter,
    /// scatter_reduce's, by its reduction.
    ScatterReduce,
    /// The binary cross-entropies': the float type of the predictions met with the targets.
    Bce,
    /// cross_entropy's, by the targets' kind.
    CrossEntropy,
    /// nll_loss's, by the weight and the reduction.
    NllLoss,
    /// arange's: the dtype argument, else i32 for integers and f32 for floats.
    Arange,
}

/// The output shapes. Each names the rule of tg-core it applies; the parameters it reads are
/// the row's, by name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ShapeRule {
    /// The receiver's shape.
    Same,
    /// The receiver broadcast with these parameters (numpy's rule; scalars broadcast).
    Broadcast(&'static [&'static str]),
    /// These parameters broadcast into the receiver's shape without growing it.
    Within(&'static [&'static str]),
    /// The broadcast of the receiver and these parameters, reduced to a scalar.
    AllOf(&'static [&'static str]),
    /// A reduction over `axis` (`keepdim`).
    Reduce,
    /// The shape kept; `axis` must name an axis.
    Along,
    /// The shape kept; `axis` must name an axis (checked at the call).
    Normalize,
    /// A scan along `axis` (a rank-0 tensor scans as one element).
    Scan,
    /// argmax/argmin: `axis` reduced (`keepdim`), or everything.
    ArgReduce,
    /// The shape kept; `axis` must name an axis.
    Sort,
    /// `axis` replaced by `k`.
    TopK,
    /// reshape.
    Reshape,
    /// permute.
    Permute,
    /// transpose of `a` and `b`.
    Transpose,
    /// The last two axes swapped.
    MatrixT,
    /// expand to `shape`.
    Expand,
    /// broadcast_to `shape`.
    BroadcastTo,
    /// squeeze.
    Squeeze,
    /// unsqueeze.
    Unsqueeze,
    /// flatten `start..=end`.
    Flatten,
    /// unflatten `axis` into `sizes`.
    Unflatten,
    /// flip `axes` (the shape kept).
    Flip,
    /// pad by `pads` (with a mode's limits).
    Pad,
    /// torch's flat pads.
    PadFlat,
    /// pad_to a target.
    PadTo,
    /// shrink_to a target.
    ShrinkTo,
    /// shrink to ranges.
    Shrink,
    /// repeat.
    Repeat,
    /// repeat_interleave.
    RepeatInterleave,
    /// roll (the shape kept).
    Roll,
    /// diagonal.
    Diagonal,
    /// cat along `axis`.
    Cat,
    /// stack along a new `axis`.
    Stack,
    /// chunk into `chunks` pieces.
    Chunk,
    /// split into `sizes` (one size: pieces of it).
    Split,
    /// split into pieces of `size`.
    SplitEvery,
    /// numpy's matmul with `other` (or `weight`).
    Matmul,
    /// matmul with `weight`, then `bias` broadcast.
    Linear,
    /// Scaled dot-product attention: `(q @ k^T) @ v` by matmul's rules, the mask broadcast
    /// into the scores.
    Attention,
    /// multinomial: `[num_samples]`, or `[rows, num_samples]`.
    Multinomial,
    /// qr's `(q, r)`.
    Qr,
    /// svd's `(u, s, vh)`.
    Svd,
    /// A batch of matrices, the shape kept.
    NewtonSchulz,
    /// einsum (the macros apply `shape::einsum` themselves).
    Einsum,
    /// conv2d.
    Conv,
    /// conv_transpose2d.
    ConvTranspose,
    /// The pools.
    Pool,
    /// max_unpool2d.
    MaxUnpool,
    /// layernorm over `axis` (the shape kept).
    LayerNorm,
    /// batchnorm with its statistics.
    BatchNorm,
    /// The binary cross-entropies.
    Bce,
    /// sparse_categorical_crossentropy.
    SparseCce,
    /// cross_entropy.
    CrossEntropy,
    /// nll_loss.
    NllLoss,
    /// gather: the index's shape.
    Gather,
    /// A window write: `value` a window of the receiver along `axis`, an integer `start`;
    /// the receiver's shape.
    WindowWrite,
    /// scatter and scatter_reduce: the receiver's shape.
    Scatter,
    /// masked_select_sized: `[size]`.
    MaskedSelectSized,
    /// nonzero_sized: `[size, rank]`.
    NonzeroSized,
    /// interpolate.
    Interpolate,
    /// tril and triu: a matrix at least.
    Triangle,
    /// one_hot: a new last axis of `num_classes`.
    OneHot,
    /// keccak: the last axis replaced by the digest.
    Keccak,
    /// hash: `[16]`.
    Hash,
    /// `shape` as given (creation ops).
    Made,
    /// arange's length, from its known bounds.
    Arange,
    /// `[steps]`.
    Linspace,
    /// `[n, m]`.
    Eye,
    /// A shape only the data tells (not in a kernel body).
    DataDependent,
    /// Handled by the macros themselves (gradient, assign, indexing).
    Special,
}

impl DtypeRule {
    /// The output dtype of a call.
    pub fn apply<D: Dim>(self, a: &Args<D>) -> Result<DType, Fault<D>> {
        dtype::apply(self, a)
    }
}

impl ShapeRule {
    /// The output shapes of a call (one per output, or one per piece of a list). What the
    /// rule cannot decide on symbolic dims goes to `ck`.
    pub fn apply<D: Dim>(self, ck: &mut Checker<D>, a: &Args<D>) -> Result<Vec<Vec<D>>, Fault<D>> {
        shape::apply(self, ck, a)
    }
}

/// Checks the receiver against the row's [`Need`](super::Need).
pub fn check_need<D: Dim>(a: &Args<D>) -> Result<(), Fault<D>> {
    use super::sig::Need;
    let Value::Tensor(shape, dtype) = &a.recv else {
        return Ok(());
    };
    let ok = match a.sig.need {
        Need::Any => true,
        Need::Bool => dtype.is_bool(),
        Need::IntOrBool => !dtype.is_float(),
        Need::Int => dtype.is_int(),
        Need::FloatDraw => dtype.is_float(),
    };
    if ok {
        return Ok(());
    }
    Err(Fault::new(
        At::Receiver,
        OpError::Need {
            op: a.op,
            need: a.sig.need,
            shape: shape.clone(),
            dtype: *dtype,
        },
    ))
}

/// A call's output types: the receiver checked, then every output's shape, then its dtype.
pub fn outputs<D: Dim>(ck: &mut Checker<D>, a: &Args<D>) -> Result<Vec<(Vec<D>, DType)>, Fault<D>> {
    check_need(a)?;
    let mut shapes = a.sig.shape.apply(ck, a)?;
    // a tuple of outputs of one shape (values and indices) states it once
    let n = match a.sig.outputs {
        super::Outputs::Pair => 2,
        super::Outputs::Triple => 3,
        super::Outputs::One | super::Outputs::List => shapes.len(),
    };
    if shapes.len() == 1 && n > 1 {
        shapes = vec![shapes[0].clone(); n];
    }
    let dtypes = a
        .sig
        .dtypes
        .iter()
        .map(|r| r.apply(a))
        .collect::<Result<Vec<_>, _>>()?;
    let pick = |i: usize| dtypes.get(i).or(dtypes.last()).copied();
    shapes
        .into_iter()
        .enumerate()
        .map(|(i, s)| {
            pick(i)
                .map(|d| (s, d))
                .ok_or_else(|| a.internal("the row has no dtype rule"))
        })
        .collect()
}
