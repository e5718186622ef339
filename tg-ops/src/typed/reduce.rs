//! Typed reductions: sum, prod, max, min, mean, any, all, each in five forms: over the whole
//! tensor (`sum()`, rank 0), over one static axis removed (`sum_axis::<A>()`) or kept as 1
//! (`sum_keepdim::<A>()`), and over two static axes removed (`sum_axes::<A, B>()`) or kept
//! (`sum_axes_keepdim::<A, B>()`), generated from tg-core's op table (`typed/generated.rs`).
//! Axes are checked by `cargo check`; the output dtype is the traits below (tinygrad's rules).

use crate::dtype::Dtype;

/// The dtype a sum returns (tinygrad's `sum_acc_dtype`): bool, i8, i16, i32 sum to i32;
/// u8, u16, u32 to u32; i64, u64, f32, f64 to themselves; f16 accumulates in f32 and returns
/// f16.
pub trait SumDtype: Dtype {
    /// The dtype of the sum.
    type Output: Dtype;
}

/// The dtype a mean returns: floats keep theirs, integers and bool give f32.
pub trait MeanDtype: Dtype {
    /// The dtype of the mean.
    type Output: Dtype;
}

// The impls of `SumDtype` and `MeanDtype` are generated from tg-core's rules: `dtype_impls.rs`.
