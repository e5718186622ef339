//! Support for `tensor!` expressions outside `#[kernel]`, where the macro does not know its
//! operands' types: each operand goes through [`arg`], so a tensor variable is borrowed (not
//! moved) and a scalar variable is used by value, and the typed operators do the rest.

use half::f16;

use crate::dtype::Dtype;
use crate::shape::Shape;
use crate::tensor::Tensor;

/// An operand of a `tensor!` expression.
pub trait DslArg {
    /// What the operand becomes in the expression (a tensor reference or a scalar).
    type Out;
    /// Converts the operand.
    fn dsl(self) -> Self::Out;
}

impl<'a, S: Shape, T: Dtype> DslArg for &'a Tensor<S, T> {
    type Out = &'a Tensor<S, T>;
    fn dsl(self) -> Self::Out {
        self
    }
}

macro_rules! scalar_arg {
    ($($t:ty),*) => {$(
        impl DslArg for &$t {
            type Out = $t;
            fn dsl(self) -> $t {
                *self
            }
        }
    )*};
}

scalar_arg!(bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, f32, f64);

/// A variable of a `tensor!` expression: `&Tensor` stays borrowed, `&scalar` becomes the value.
pub fn arg<A: DslArg>(a: A) -> A::Out {
    a.dsl()
}

/// A variable used as one index of `tensor!(x[...])`: an integer position or a tensor of
/// positions.
pub trait IndexArg {
    /// The index this variable stands for.
    fn index_item(&self) -> crate::untyped::indexing::Index;
}

impl<S: Shape, T: Dtype> IndexArg for Tensor<S, T> {
    fn index_item(&self) -> crate::untyped::indexing::Index {
        crate::untyped::indexing::Index::Tensor(self.as_dyn().clone())
    }
}

macro_rules! int_index {
    ($($t:ty),*) => {$(
        impl IndexArg for $t {
            fn index_item(&self) -> crate::untyped::indexing::Index {
                crate::untyped::indexing::Index::Int(*self as isize)
            }
        }
    )*};
}

int_index!(i8, u8, i16, u16, i32, u32, i64, u64, isize, usize);

/// The `Index` a variable stands for.
pub fn index_item<A: IndexArg + ?Sized>(a: &A) -> crate::untyped::indexing::Index {
    a.index_item()
}
