//! Movement ops: the same elements seen in another shape or order, composed of the runtime's
//! RESHAPE PERMUTE EXPAND PAD SHRINK FLIP. None copies; each folds into the index expression
//! of the kernel that reads it, so chains of them cost nothing until realized.
//!
//! Axes may be negative (numpy's convention). Sizes that a caller leaves to the op are `-1`
//! (reshape, expand, unflatten) or `None` (pad_to, shrink_to), as in tinygrad.

mod join;
mod pad;
mod pad_fill;
mod repeat;
mod view;

use tg_runtime::Error;

pub(crate) fn shape_err(op: &'static str, message: String) -> Error {
    Error::Shape { op, message }
}

pub(crate) fn arg_err(op: &'static str, message: String) -> Error {
    Error::Argument { op, message }
}
