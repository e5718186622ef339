//! tg-ops: the typed front end of tg and the whole op library.
//!
//! `Tensor<S, T>` carries its shape `S` (a tuple of `Const<N>` and `usize` dims) and element
//! type `T` in its type; each typed op computes the output type and calls one untyped op of
//! [`DynTensor`], written once on runtime shapes, which composes the runtime's primitives.

pub mod dispatch;
#[doc(hidden)]
pub mod dsl;
pub mod dtype;
#[rustfmt::skip]
mod dtype_impls;
#[doc(hidden)]
pub mod kernel_cache;
pub mod shape;
pub mod tensor;
pub mod typed;
pub mod untyped;

pub use dtype::{Bitwise, Dtype, Float, Int, Numeric, Promote, Signed, WeakPromote, WeakScalar};
pub use shape::{
    Broadcast, Const, Dim, Rank0, Rank1, Rank2, Rank3, Rank4, Rank5, Rank6, SameDim, SameShape,
    Shape, StaticShape,
};
pub use tensor::Tensor;
pub use tg_runtime::{DType, Error, Result};
pub use untyped::DynTensor;
pub use untyped::conv::{Conv, ConvAlgorithm};
pub use untyped::pool::{Padding, Pool, Sizes};

/// What the macros' expansions name (`tensor!` outside kernels, `#[kernel]`'s recordings and
/// vars): not an API, and not semver-stable.
#[doc(hidden)]
pub mod __private {
    pub use crate::dsl::{arg, index_item};
    pub use crate::kernel_cache::{KernelCache, KernelValue, in_kernel_body, scalar_arg};
}

/// Everything a user of tg needs in scope: the typed tensor and its shapes, the untyped
/// `DynTensor`, the element type `DType` (the typed API's element-type trait is
/// [`Dtype`], outside the prelude so that one dtype name is in scope), errors.
pub mod prelude {
    pub use crate::idx;
    pub use crate::shape;
    pub use crate::shape::axis::{InsertAxis, KeepAxis, RemoveAxis, SelectAxis, SwapAxes};
    pub use crate::shape::ops::{DynAxis, MatMul, Perm2, Perm3, Perm4, Perm5, Perm6, RemoveAxes2};
    pub use crate::typed::autograd::GradTargets;
    pub use crate::typed::elementwise::{FloatOf, Rhs, SameSize};
    pub use crate::typed::reduce::{MeanDtype, SumDtype};
    pub use crate::untyped::elementwise::{Binary, Operand};
    pub use crate::untyped::gather::{Interpolation, ScatterOp, ScatterReduce};
    pub use crate::untyped::indexing::Index;
    pub use crate::untyped::pad_modes::PadMode;
    pub use crate::{
        Bitwise, Broadcast, Const, DType, Dim, DynTensor, Error, Float, Int, Numeric, Promote,
        Rank0, Rank1, Rank2, Rank3, Rank4, Rank5, Rank6, Result, SameShape, Shape, Signed,
        StaticShape, Tensor,
    };
    pub use crate::{Conv, ConvAlgorithm, Padding, Pool, Sizes};
    pub use half::f16;
}
