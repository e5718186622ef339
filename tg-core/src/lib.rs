//! tg's rules, kept once: the element types and tinygrad's promotion lattice, the cast rules,
//! and the shape rules of every op family.
//!
//! Three crates apply these rules: tg-runtime (dtypes of the primitive graph), tg-ops (the op
//! library, on shapes known at run time, `usize`) and tg-macros (`#[kernel]`, which checks a
//! body's shapes while it expands, on polynomials over the kernel's const parameters). The
//! shape rules are therefore generic over a [`Dim`]: a rule states what must hold through a
//! [`Checker`], which decides it on `usize` and, for polynomials, answers "equal", "different"
//! (the rule's error, a compile error in a kernel) or "unknown until instantiated or run"
//! (kept, and asserted after monomorphization or checked by the run).
//!
//! Nothing here depends on anything but std, so the proc-macro crate can link it.

pub mod check;
pub mod dim;
pub mod dtype;
pub mod error;
pub mod ops;
pub mod shape;

pub use check::{Checker, Deferred, Fact, decide};
pub use dim::{Dim, ShowShape, Truth, numel};
pub use dtype::{DType, ScalarKind};
pub use error::RuleError;

/// A rule's result.
pub type RuleResult<T, D> = Result<T, RuleError<D>>;
