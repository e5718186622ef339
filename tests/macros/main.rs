//! The macros end to end: `tensor!` literals and expressions, and `#[kernel]` functions
//! (symbolic shape checks at expansion, values, compiled replay). Their compile errors are
//! the trybuild suite of `ui-tests`.

mod compose;
mod kernel;
mod kernel_threads;
mod literal;
mod select;

/// Tests that draw from the process-wide random stream take turns, so a seed gives each the
/// numbers it expects.
static RANDOM_STREAM: std::sync::Mutex<()> = std::sync::Mutex::new(());
