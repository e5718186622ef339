//! The DSL shared by `tensor!` expressions and `#[kernel]` bodies.

pub mod ast;
pub mod parse;
pub mod typed;
