//! Movement ops: the same elements seen in another shape or order, composed of the runtime's
//! RESHAPE PERMUTE EXPAND PAD SHRINK FLIP. None copies; each folds into the index expression
//! of the kernel that reads it, so chains of them cost nothing until realized.
//!
//! Axes may be negative (numpy's convention). Sizes that a caller leaves to the op are `-1`
//! (reshape, expand, unflatten) or `None` (pad_to, shrink_to), as in tinygrad. The shape rules
//! (what each op accepts and the shape it gives) are tg-core's `shape` module, which
//! `#[kernel]` applies to symbolic shapes while it expands.

mod join;
mod pad;
mod pad_fill;
mod repeat;
mod view;
