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
//!   are static, a post-monomorphization check (`check.rs`) rejects what it can (element
//!   counts, ranks, sizes that must agree) with a message naming both shapes; a run checks the
//!   rest. A dynamic (`usize`) dim in `S2` is
//!   always allowed: it means "inferred" for reshapes, "unchanged" for `broadcast_to`,
//!   `pad_to` and `shrink_to`, and "whatever the op gives" for the others.
//! - Ops that cut an axis into pieces of different sizes (`split`, `split_every`, `chunk`)
//!   return that axis dynamic (`DynAxis`).
//!
//! Ops that only a run can check panic with the op's message; their `try_` forms return it.

mod check;
mod join;
mod pad_fill;
mod resize;
mod view;

use crate::shape::dims_fit;
use crate::untyped::DynTensor;
use tg_runtime::{Error, Result};

// The typed ops are compiled once per shape (and dtype); what does not depend on the types is
// in the non-generic functions below, so that each instance stays a few calls.

/// The target sizes of a shape type for the untyped ops: static dims as sizes, dynamic ones
/// as `-1`.
pub(crate) fn target_sizes(dims: &[Option<usize>]) -> Vec<isize> {
    dims.iter().map(|d| d.map_or(-1, |n| n as isize)).collect()
}

/// Axes as the untyped ops take them.
pub(crate) fn signed_axes(axes: &[usize]) -> Vec<isize> {
    axes.iter().map(|&a| a as isize).collect()
}

/// `t` reshaped to the shape type with static dims `dims` (named `name`), inferring its one
/// dynamic dim.
pub(crate) fn reshape_to_type(
    t: &DynTensor,
    dims: &[Option<usize>],
    name: &str,
) -> Result<DynTensor> {
    let sizes = target_sizes(dims);
    if sizes.iter().filter(|&&s| s < 0).count() > 1 {
        return Err(Error::Shape {
            op: "reshape",
            message: format!(
                "{name} has several dynamic dims to infer; use reshape_to with their sizes"
            ),
        });
    }
    t.reshape(&sizes)
}

/// `t` with a run of consecutive axes merged so that it fits the shape type `dims` (`name`).
pub(crate) fn flatten_to_type(
    t: &DynTensor,
    dims: &[Option<usize>],
    name: &str,
) -> Result<DynTensor> {
    let shape = t.shape().to_vec();
    if shape.is_empty() {
        return t.flatten(0, 0);
    }
    let merged = (shape.len() + 1).saturating_sub(dims.len());
    for start in 0..dims.len() {
        let mut cand = shape[..start].to_vec();
        cand.push(shape[start..start + merged].iter().product());
        cand.extend_from_slice(&shape[start + merged..]);
        if dims_fit(&cand, dims) {
            return t.flatten(start as isize, (start + merged - 1) as isize);
        }
    }
    Err(Error::Shape {
        op: "flatten_to",
        message: format!("no run of axes of {shape:?} merges into {name}"),
    })
}

/// `t` with one axis split so that it fits the shape type `dims` (`name`).
pub(crate) fn unflatten_to_type(
    t: &DynTensor,
    dims: &[Option<usize>],
    name: &str,
) -> Result<DynTensor> {
    let want = target_sizes(dims);
    let extra = dims.len() - t.ndim();
    for a in 0..t.ndim() {
        if let Ok(u) = t.unflatten(a as isize, &want[a..=a + extra])
            && dims_fit(u.shape(), dims)
        {
            return Ok(u);
        }
    }
    Err(Error::Shape {
        op: "unflatten_to",
        message: format!("no axis of {:?} splits into {name}", t.shape()),
    })
}
