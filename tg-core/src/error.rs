//! What a rule reports: one variant per kind of mistake, with the values involved, generic over
//! the dimension type. tg-runtime's `Error` has a variant for each (`From` converts), and the
//! macros write the `Display` text at the span of the argument at fault.

use std::fmt;

use crate::DType;
use crate::dim::{Dim, ShowShape, numel};

/// A shape, dtype or argument an op cannot work with.
#[derive(Clone, Debug, PartialEq)]
pub enum RuleError<D> {
    /// An axis outside `-rank..rank` (or `-(rank + 1)..=rank` for a new axis).
    AxisOutOfRange {
        /// The op.
        op: &'static str,
        /// The axis as given.
        axis: isize,
        /// The shape it indexes.
        shape: Vec<D>,
        /// Whether it names a new axis (unsqueeze, stack), which may also be `rank`.
        new_axis: bool,
    },
    /// An axis listed twice where each may appear once.
    DuplicateAxis {
        /// The op.
        op: &'static str,
        /// The repeated axis, as given.
        axis: isize,
        /// The whole list.
        axes: Vec<isize>,
    },
    /// Shapes that do not broadcast (numpy's rule: aligned at the last axis, sizes equal or 1).
    Broadcast {
        /// The op.
        op: &'static str,
        /// The first shape.
        lhs: Vec<D>,
        /// The second shape (the target of an expand).
        rhs: Vec<D>,
        /// The axis, counted from the end (`-1` is the last).
        axis: isize,
    },
    /// Element counts that must agree and do not.
    NumelMismatch {
        /// The op.
        op: &'static str,
        /// The shape there is.
        from: Vec<D>,
        /// The shape asked for.
        to: Vec<D>,
    },
    /// A shape whose element count overflows.
    SizeOverflow {
        /// The op.
        op: &'static str,
        /// The shape asked for.
        shape: Vec<D>,
    },
    /// One item per axis was expected (permutation, pad pairs, shrink ranges), and the count
    /// is not the rank.
    RankMismatch {
        /// The op.
        op: &'static str,
        /// What was given, plural (`"axes"`, `"(before, after) pairs"`).
        what: &'static str,
        /// How many.
        given: usize,
        /// The tensor's shape.
        shape: Vec<D>,
    },
    /// A tensor of too low a rank for the op.
    RankTooLow {
        /// The op.
        op: &'static str,
        /// The least rank it takes.
        min: usize,
        /// The tensor's shape.
        shape: Vec<D>,
    },
    /// Any other shape the op cannot work with; the message names the shapes.
    Shape {
        /// The op.
        op: &'static str,
        /// What is wrong.
        message: String,
    },
    /// An argument (a size, a count, a mode) the op cannot work with.
    Argument {
        /// The op.
        op: &'static str,
        /// What is wrong, naming the value.
        message: String,
    },
    /// A dtype the op does not take.
    DType {
        /// The op.
        op: &'static str,
        /// The dtype given.
        dtype: DType,
        /// What it takes instead.
        message: String,
    },
}

impl<D> RuleError<D> {
    /// The op the error is about.
    pub fn op(&self) -> &'static str {
        match self {
            RuleError::AxisOutOfRange { op, .. }
            | RuleError::DuplicateAxis { op, .. }
            | RuleError::Broadcast { op, .. }
            | RuleError::NumelMismatch { op, .. }
            | RuleError::SizeOverflow { op, .. }
            | RuleError::RankMismatch { op, .. }
            | RuleError::RankTooLow { op, .. }
            | RuleError::Shape { op, .. }
            | RuleError::Argument { op, .. }
            | RuleError::DType { op, .. } => op,
        }
    }
}

/// `Shape` with a message.
pub fn shape_error<D>(op: &'static str, message: impl Into<String>) -> RuleError<D> {
    RuleError::Shape {
        op,
        message: message.into(),
    }
}

/// `Argument` with a message.
pub fn argument_error<D>(op: &'static str, message: impl Into<String>) -> RuleError<D> {
    RuleError::Argument {
        op,
        message: message.into(),
    }
}

/// The element count for a message: the product, or "more than 2^64".
fn count<D: Dim>(shape: &[D]) -> String {
    numel(shape).map_or_else(|| "more than 2^64".into(), |n| n.to_string())
}

impl<D: Dim> fmt::Display for RuleError<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::AxisOutOfRange {
                op,
                axis,
                shape,
                new_axis,
            } => write!(
                f,
                "`{op}`: axis {axis} is out of range for {}a tensor of shape {} (rank {})",
                if *new_axis { "a new axis of " } else { "" },
                ShowShape(shape),
                shape.len()
            ),
            RuleError::DuplicateAxis { op, axis, axes } => {
                write!(f, "`{op}`: axis {axis} appears twice in {axes:?}")
            }
            RuleError::Broadcast { op, lhs, rhs, axis } => {
                let at = |s: &[D]| {
                    let i = s.len() as isize + axis;
                    usize::try_from(i)
                        .ok()
                        .and_then(|i| s.get(i))
                        .map_or_else(|| "absent".to_string(), |d| d.to_string())
                };
                write!(
                    f,
                    "`{op}`: shapes {} and {} do not broadcast: axis {axis} is {} in one and {} in the other",
                    ShowShape(lhs),
                    ShowShape(rhs),
                    at(lhs),
                    at(rhs)
                )
            }
            RuleError::NumelMismatch { op, from, to } => write!(
                f,
                "`{op}`: cannot reshape {} ({} elements) to {} ({} elements)",
                ShowShape(from),
                count(from),
                ShowShape(to),
                count(to)
            ),
            RuleError::SizeOverflow { op, shape } => write!(
                f,
                "`{op}`: the shape {} has more elements than 64 bits can count",
                ShowShape(shape)
            ),
            RuleError::RankMismatch {
                op,
                what,
                given,
                shape,
            } => write!(
                f,
                "`{op}`: {given} {what} for a tensor of rank {} ({})",
                shape.len(),
                ShowShape(shape)
            ),
            RuleError::RankTooLow { op, min, shape } => write!(
                f,
                "`{op}` needs a tensor of rank {min} or more, {} has rank {}",
                ShowShape(shape),
                shape.len()
            ),
            RuleError::Shape { op, message } | RuleError::Argument { op, message } => {
                write!(f, "`{op}`: {message}")
            }
            RuleError::DType { op, dtype, message } => {
                write!(
                    f,
                    "`{op}`: dtype {} is not supported: {message}",
                    dtype.rust_name()
                )
            }
        }
    }
}

impl<D: Dim> std::error::Error for RuleError<D> {}
