//! Type-level axes: which axis a const generic names (negative counts from the end, as in
//! numpy) and what a shape becomes when that axis is removed, kept as 1, inserted or swapped.
//! An axis out of range for the rank is a compile error naming the axis and the shape.

use super::{Dim, Shape};

#[diagnostic::on_unimplemented(
    message = "axis {A} is out of range for a tensor of shape `{Self}`",
    label = "no axis {A} here",
    note = "axes count from 0, or from -1 at the last axis"
)]
/// The shape without axis `A` (negative axes count from the end).
pub trait RemoveAxis<const A: isize>: Shape {
    /// `A` normalized.
    const AXIS: usize;
    /// The shape without the axis.
    type Output: Shape;
    /// The dimension removed (so that `squeeze` needs this one trait, and one error).
    type Removed: Dim;
}

#[diagnostic::on_unimplemented(
    message = "axis {A} is out of range for a tensor of shape `{Self}`",
    label = "no axis {A} here",
    note = "axes count from 0, or from -1 at the last axis"
)]
/// The shape with axis `A` kept as size 1 (a reduction's `keepdim`).
pub trait KeepAxis<const A: isize>: Shape {
    /// `A` normalized.
    const AXIS: usize;
    /// The shape with the axis as 1.
    type Output: Shape;
}

#[diagnostic::on_unimplemented(
    message = "axis {A} is out of range for a tensor of shape `{Self}`",
    label = "no axis {A} here",
    note = "axes count from 0, or from -1 at the last axis"
)]
/// The dimension of axis `A`.
pub trait SelectAxis<const A: isize>: Shape {
    /// `A` normalized.
    const AXIS: usize;
    /// The axis's dimension type.
    type Dim: Dim;
}

#[diagnostic::on_unimplemented(
    message = "axes {A} and {B} are not both in range for a tensor of shape `{Self}`",
    note = "axes count from 0, or from -1 at the last axis"
)]
/// The shape with axes `A` and `B` swapped.
pub trait SwapAxes<const A: isize, const B: isize>: Shape {
    /// `A` and `B` normalized.
    const AXES: (usize, usize);
    /// The shape with the axes swapped.
    type Output: Shape;
}

#[diagnostic::on_unimplemented(
    message = "cannot insert a new axis at {A} into a tensor of shape `{Self}`",
    note = "a new axis goes at 0..=rank, or -1 for after the last"
)]
/// The shape with a new size-1 axis at `A` (in `-(rank + 1)..=rank`).
pub trait InsertAxis<const A: isize>: Shape {
    /// `A` normalized against the longer shape.
    const AXIS: usize;
    /// The shape with the new axis.
    type Output: Shape;
}
