//! Typed wrappers: each computes its output type and calls one `DynTensor` op.

pub mod autograd;
pub mod conv;
pub mod creation;
pub mod device;
pub mod display;
pub mod einsum;
pub mod elementwise;
pub mod gather;
#[rustfmt::skip]
mod generated;
pub mod hash;
pub mod indexing;
pub mod linalg;
pub mod loss;
pub mod matmul;
pub mod movement;
pub mod norm;
pub mod operators;
pub mod pad_modes;
pub mod pool;
pub mod ranges;
pub mod reduce;
pub mod scan;
pub mod sort;
pub mod stats;
