//! Typed wrappers: each computes its output type and calls one `DynTensor` op.

pub mod creation;
pub mod display;
pub mod elementwise;
pub mod matmul;
pub mod movement;
pub mod operators;
pub mod reduce;
