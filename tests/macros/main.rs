//! The macros end to end: `tensor!` literals and expressions, and `#[kernel]` functions
//! (symbolic shape checks at expansion, values, compiled replay). Their compile errors are
//! the trybuild suite of `ui-tests`.

mod kernel;
mod literal;
