//! Typed movement ops. Each computes its output shape type and calls one `DynTensor` op.
//!
//! How the output type is found, per kind of op:
//! - Axis reorders and size-1 axes (`permute`, `transpose`, `t`, `squeeze`, `unsqueeze`,
//!   `flip`, `roll`, `diagonal`) compute it with traits over const axes; a wrong axis is a
//!   `cargo check` error.
//! - Where output sizes are arithmetic of the input sizes (`reshape`, `flatten_to`,
//!   `unflatten_to`, `squeeze_all`, `broadcast_to`/`expand`, `pad`, `shrink`, `pad_to`,
//!   `shrink_to`, `repeat`, `repeat_interleave`, `cat`, `concat`, `stack`), which stable Rust
//!   cannot compute in a type, the caller names the output shape `S2`. Where `S` and `S2`
//!   are static, a post-monomorphization `const` assert checks what it can (element counts,
//!   ranks, sizes that must agree); a run checks the rest. A dynamic (`usize`) dim in `S2` is
//!   always allowed: it means "inferred" for reshapes, "unchanged" for `broadcast_to`,
//!   `pad_to` and `shrink_to`, and "whatever the op gives" for the others.
//! - Ops that cut an axis into pieces of different sizes (`split`, `split_every`, `chunk`)
//!   return that axis dynamic (`DynAxis`).
//!
//! Ops that only a run can check panic with the op's message; their `try_` forms return it.

mod join;
mod resize;
mod view;

use crate::shape::Shape;

/// Whether two static-dims lists agree wherever both are static, except at `skip`.
pub(crate) const fn agree_except(a: &[Option<usize>], b: &[Option<usize>], skip: usize) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if i != skip
            && let (Some(x), Some(y)) = (a[i], b[i])
            && x != y
        {
            return false;
        }
        i += 1;
    }
    true
}

/// The target sizes of `S2` for the untyped ops: static dims as sizes, dynamic ones as `-1`.
pub(crate) fn target_sizes<S2: Shape>() -> Vec<isize> {
    S2::DIMS
        .iter()
        .map(|d| d.map_or(-1, |n| n as isize))
        .collect()
}
