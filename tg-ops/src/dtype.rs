//! Element types as Rust types, the categories ops accept, and tinygrad's promotion rules.

use half::f16;
pub use tg_runtime::DType;
use tg_runtime::Element;

mod sealed {
    pub trait Sealed {}
}

/// An element type of tg: bool, the integers of 8 to 64 bits, f16, f32, f64.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an element type of tg",
    label = "expects bool, i8..i64, u8..u64, f16, f32 or f64"
)]
pub trait Dtype: Element + sealed::Sealed + PartialEq + PartialOrd + std::fmt::Display {}

/// Floating-point element types.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a float type, and this op needs one",
    label = "expects f16, f32 or f64",
    note = "cast first, for example `.cast::<f32>()`"
)]
pub trait Float: Dtype {}

/// Integer element types (bool is not one).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an integer type, and this op needs one",
    label = "expects i8..i64 or u8..u64",
    note = "cast first, for example `.cast::<i32>()`"
)]
pub trait Int: Dtype {}

/// Types with bitwise ops: integers and bool.
#[diagnostic::on_unimplemented(
    message = "bitwise ops are not defined on `{Self}`",
    label = "expects an integer type or bool",
    note = "floats have no bitwise ops; use `.bitcast::<u32>()` to work on their bits"
)]
pub trait Bitwise: Dtype {}

/// Types with arithmetic: everything but bool.
#[diagnostic::on_unimplemented(
    message = "arithmetic is not defined on `{Self}`",
    label = "expects a number type",
    note = "cast bool first, for example `.cast::<i32>()`"
)]
pub trait Numeric: Dtype {}

/// Signed types: signed integers and floats.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is unsigned, and this op needs a signed type",
    note = "cast first, for example `.cast::<i32>()`"
)]
pub trait Signed: Numeric {}

macro_rules! marks {
    ($($t:ty: $($tr:ident),*;)*) => {$(
        impl sealed::Sealed for $t {}
        // `do_not_recommend`: a failed bound shows the trait's message, not a list of impls.
        #[diagnostic::do_not_recommend]
        impl Dtype for $t {}
        $(#[diagnostic::do_not_recommend] impl $tr for $t {})*
    )*};
}

marks! {
    bool: Bitwise;
    i8: Int, Bitwise, Numeric, Signed;
    u8: Int, Bitwise, Numeric;
    i16: Int, Bitwise, Numeric, Signed;
    u16: Int, Bitwise, Numeric;
    i32: Int, Bitwise, Numeric, Signed;
    u32: Int, Bitwise, Numeric;
    i64: Int, Bitwise, Numeric, Signed;
    u64: Int, Bitwise, Numeric;
    f16: Float, Numeric, Signed;
    f32: Float, Numeric, Signed;
    f64: Float, Numeric, Signed;
}

/// The dtype two operands meet in: tinygrad's least upper bound in its promotion lattice
/// (`i8 + u8 -> i16`, `i32 + f16 -> f16`, `u64 + i64 -> f16`).
pub trait Promote<Rhs: Dtype>: Dtype {
    /// The dtype the two meet in.
    type Output: Dtype;
}

// The impls of `Promote` (and of `WeakPromote` below) are generated from tg-core's lattice:
// `dtype_impls.rs`.

/// Rust scalars that mix with tensors. As in tinygrad, a scalar is "weak": it takes the
/// tensor's dtype, except that a float scalar with an integer or bool tensor gives the default
/// float (f32), and an integer scalar with a bool tensor gives the default int (i32).
pub trait WeakScalar: Copy + Send + Sync + 'static {
    /// Whether it is a float (which lifts an integer or bool tensor to f32).
    const IS_FLOAT: bool;
    /// Whether it is a bool (which an integer tensor absorbs).
    const IS_BOOL: bool;
    /// The value as a runtime scalar.
    fn to_scalar(self) -> tg_runtime::Scalar;
}

macro_rules! weak {
    ($($t:ty: $float:expr, $bool:expr;)*) => {$(
        impl WeakScalar for $t {
            const IS_FLOAT: bool = $float;
            const IS_BOOL: bool = $bool;
            fn to_scalar(self) -> tg_runtime::Scalar {
                Element::to_scalar(self)
            }
        }
    )*};
}

weak! {
    f32: true, false; f64: true, false; f16: true, false;
    i8: false, false; i16: false, false; i32: false, false; i64: false, false;
    u8: false, false; u16: false, false; u32: false, false; u64: false, false;
    bool: false, true;
}

/// The dtype of `tensor op scalar`.
pub trait WeakPromote<S: WeakScalar>: Dtype {
    /// The dtype of the result.
    type Output: Dtype;
}

/// The runtime dtype of a Rust element type.
pub fn dtype_of<T: Dtype>() -> DType {
    T::DTYPE
}
