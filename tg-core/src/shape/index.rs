//! Indexing, `x[...]` (numpy's and tinygrad's rules): integers (negative from the end), slices
//! with steps (Python's clamping), new axes, one ellipsis, and integer tensors (advanced
//! indexing: their shapes broadcast, and the broadcast shape takes the place of the indexed
//! axes, or goes first when those are not next to each other). tg-ops resolves its views with
//! these functions; `#[kernel]` types `x[...]` with [`index`].

use std::fmt;

use crate::check::Checker;
use crate::dim::{Dim, ShowShape};
use crate::dtype::DType;
use crate::error::RuleError;

use super::broadcast::broadcast;

/// One entry of an index.
#[derive(Clone, Debug, PartialEq)]
pub enum Item<D> {
    /// An integer position (negative counts from the end); removes the axis.
    Int(i64),
    /// `start:stop:step`; absent bounds are the ends.
    Slice {
        /// The first position.
        start: Option<i64>,
        /// One past the last.
        stop: Option<i64>,
        /// The step (not 0).
        step: i64,
    },
    /// A new axis of size 1.
    NewAxis,
    /// As many full slices as the other entries leave.
    Ellipsis,
    /// A tensor of positions: its shape and dtype.
    Tensor(Vec<D>, DType),
}

/// What is wrong with an index.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexError<D> {
    /// More than one ellipsis.
    Ellipses {
        /// How many.
        count: usize,
    },
    /// More entries that take an axis than the tensor has.
    TooMany {
        /// The entries that take an axis.
        given: usize,
        /// The tensor's shape.
        shape: Vec<D>,
    },
    /// An integer outside its axis.
    OutOfRange {
        /// The integer.
        index: i64,
        /// Its axis.
        axis: usize,
        /// The axis's size.
        size: D,
        /// The tensor's shape.
        shape: Vec<D>,
    },
    /// A slice with step 0.
    ZeroStep {
        /// Its axis.
        axis: usize,
    },
    /// A tensor of positions that are not integers.
    NotInteger {
        /// Its dtype.
        dtype: DType,
    },
    /// A slice bound outside its axis (an error where bounds must be exact: a kernel body's
    /// literal slices; numpy clamps them).
    SliceBound {
        /// `"start"` or `"stop"`.
        what: &'static str,
        /// The bound.
        bound: i64,
        /// Its axis.
        axis: usize,
        /// The axis's size.
        size: usize,
        /// The tensor's shape.
        shape: Vec<D>,
    },
    /// A slice of an axis whose size is only symbolic (only the full slice keeps a size the
    /// rule can state).
    SymbolicSlice {
        /// Its axis.
        axis: usize,
        /// Its size.
        size: D,
    },
    /// Tensor indices that do not broadcast together.
    Broadcast(RuleError<D>),
}

impl<D: Dim> fmt::Display for IndexError<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IndexError::Ellipses { count } => {
                write!(f, "an index can have one ellipsis, this one has {count}")
            }
            IndexError::TooMany { given, shape } => write!(
                f,
                "too many indices ({given}) for a tensor of shape {} (rank {})",
                ShowShape(shape),
                shape.len()
            ),
            IndexError::OutOfRange {
                index,
                axis,
                size,
                shape,
            } => write!(
                f,
                "index {index} is out of range for axis {axis} of size {size} (shape {})",
                ShowShape(shape)
            ),
            IndexError::ZeroStep { axis } => write!(f, "slice step on axis {axis} cannot be 0"),
            IndexError::NotInteger { dtype } => write!(
                f,
                "tensor indices are integers, this one is {} (bool masks are not indices; use masked_select)",
                dtype.rust_name()
            ),
            IndexError::SliceBound {
                what,
                bound,
                axis,
                size,
                shape,
            } => write!(
                f,
                "slice {what} {bound} is out of range for axis {axis} of size {size} (shape {})",
                ShowShape(shape)
            ),
            IndexError::SymbolicSlice { axis, size } => write!(
                f,
                "slicing axis {axis} of symbolic size {size} needs the full slice `..`"
            ),
            IndexError::Broadcast(e) => write!(f, "{e}"),
        }
    }
}

/// An error and the entry it is about (`None`: the index as a whole).
pub type Located<D> = (Option<usize>, IndexError<D>);

/// The entries that take an axis (all but new axes and the ellipsis), checked against the
/// rank, with at most one ellipsis.
pub fn count<D: Dim>(shape: &[D], items: &[Item<D>]) -> Result<usize, Located<D>> {
    let ellipses: Vec<usize> = (0..items.len())
        .filter(|&i| matches!(items[i], Item::Ellipsis))
        .collect();
    if ellipses.len() > 1 {
        return Err((
            Some(ellipses[1]),
            IndexError::Ellipses {
                count: ellipses.len(),
            },
        ));
    }
    let given = items
        .iter()
        .filter(|i| !matches!(i, Item::Ellipsis | Item::NewAxis))
        .count();
    if given > shape.len() {
        return Err((
            None,
            IndexError::TooMany {
                given,
                shape: shape.to_vec(),
            },
        ));
    }
    Ok(given)
}

/// An integer position in axis `axis` of `shape`, from the start.
pub fn position<D: Dim>(
    index: i64,
    axis: usize,
    shape: &[D],
) -> Result<Option<usize>, IndexError<D>> {
    let Some(n) = shape[axis].known() else {
        return Ok(None);
    };
    let n = n as i64;
    if index >= n || index < -n {
        return Err(IndexError::OutOfRange {
            index,
            axis,
            size: shape[axis].clone(),
            shape: shape.to_vec(),
        });
    }
    Ok(Some(if index < 0 { index + n } else { index } as usize))
}

/// Python's slice of an axis of `size`: the first and one-past-last positions it covers (in
/// increasing order) and its length.
pub fn slice_bounds(
    start: Option<i64>,
    stop: Option<i64>,
    step: i64,
    size: usize,
) -> (usize, usize, usize) {
    let n = size as i64;
    let (lower, upper) = if step < 0 { (-1, n - 1) } else { (0, n) };
    let clamp = |v: Option<i64>, default: i64| match v {
        None => default,
        Some(v) if v < 0 => (v + n).max(lower),
        Some(v) => v.min(upper),
    };
    let s = clamp(start, if step < 0 { upper } else { lower });
    let e = clamp(stop, if step < 0 { lower } else { upper });
    let (b0, b1) = if step * (e - s) < 0 {
        (0, 0)
    } else if step < 0 {
        (e + 1, s + 1)
    } else {
        (s, e)
    };
    let (b0, b1) = (b0.max(0) as usize, b1.max(0) as usize);
    let len = (b1.saturating_sub(b0)).div_ceil(step.unsigned_abs() as usize);
    (b0, b1, len)
}

/// Whether the tensor indices' broadcast shape goes first (their axes among the kept ones,
/// after integers removed theirs as tinygrad reads it, are not next to each other, or start
/// at 0); else it takes their place (numpy's rule).
pub fn tensors_first(dims: &[usize]) -> bool {
    let consecutive = dims.windows(2).all(|w| w[1] == w[0] + 1);
    !(consecutive && dims.first().is_some_and(|&d| d != 0))
}

/// The shape of `x[items]` for `x` of `shape`. With `strict`, a slice bound outside a known
/// axis is an error (a kernel body's literal bounds), where numpy clamps it.
pub fn index<D: Dim>(
    ck: &mut Checker<D>,
    shape: &[D],
    items: &[Item<D>],
    strict: bool,
) -> Result<Vec<D>, Located<D>> {
    let given = count(shape, items)?;
    let mut kept: Vec<D> = Vec::new();
    let mut tensors: Vec<(usize, Vec<D>)> = Vec::new();
    let mut dim = 0usize;
    for (k, item) in items.iter().enumerate() {
        let at = |e| (Some(k), e);
        match item {
            Item::NewAxis => kept.push(D::lit(1)),
            Item::Ellipsis => {
                let n = shape.len() - given;
                kept.extend_from_slice(&shape[dim..dim + n]);
                dim += n;
            }
            Item::Int(i) => {
                position(*i, dim, shape).map_err(at)?;
                dim += 1;
            }
            Item::Tensor(ts, dt) => {
                if !dt.is_int() {
                    return Err(at(IndexError::NotInteger { dtype: *dt }));
                }
                tensors.push((kept.len(), ts.clone()));
                kept.push(shape[dim].clone());
                dim += 1;
            }
            Item::Slice { start, stop, step } => {
                if *step == 0 {
                    return Err(at(IndexError::ZeroStep { axis: dim }));
                }
                let size = &shape[dim];
                let len = match size.known() {
                    Some(n) => {
                        if strict {
                            for (b, what) in [(start, "start"), (stop, "stop")] {
                                if let Some(b) = *b
                                    && (b > n as i64 || b < -(n as i64))
                                {
                                    return Err(at(IndexError::SliceBound {
                                        what,
                                        bound: b,
                                        axis: dim,
                                        size: n,
                                        shape: shape.to_vec(),
                                    }));
                                }
                            }
                        }
                        D::lit(slice_bounds(*start, *stop, *step, n).2)
                    }
                    None if start.is_none() && stop.is_none() && *step == 1 => size.clone(),
                    None => {
                        return Err(at(IndexError::SymbolicSlice {
                            axis: dim,
                            size: size.clone(),
                        }));
                    }
                };
                kept.push(len);
                dim += 1;
            }
        }
    }
    kept.extend_from_slice(&shape[dim..]);
    if tensors.is_empty() {
        return Ok(kept);
    }
    let mut big = tensors[0].1.clone();
    for (_, t) in &tensors[1..] {
        big = broadcast(ck, "index (tensor indices)", &big, t)
            .map_err(|e| (None, IndexError::Broadcast(e)))?;
    }
    let dims: Vec<usize> = tensors.iter().map(|(d, _)| *d).collect();
    let rest: Vec<D> = (0..kept.len())
        .filter(|i| !dims.contains(i))
        .map(|i| kept[i].clone())
        .collect();
    if tensors_first(&dims) {
        return Ok(big.into_iter().chain(rest).collect());
    }
    let d0 = dims[0];
    Ok(rest[..d0]
        .iter()
        .cloned()
        .chain(big)
        .chain(rest[d0..].iter().cloned())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::decide;

    fn shape(s: &[usize], items: &[Item<usize>]) -> Result<Vec<usize>, String> {
        decide(|ck| Ok(index(ck, s, items, false)))
            .map_err(|e: RuleError<usize>| e.to_string())?
            .map_err(|(_, e)| e.to_string())
    }

    #[test]
    fn numpy_shapes() {
        let sl = |start, stop, step| Item::Slice { start, stop, step };
        assert_eq!(shape(&[3, 4], &[Item::Int(1)]), Ok(vec![4]));
        assert_eq!(
            shape(&[5, 4], &[sl(None, None, 2), Item::Int(-1)]),
            Ok(vec![3])
        );
        assert_eq!(
            shape(
                &[5, 4, 2],
                &[Item::NewAxis, Item::Ellipsis, sl(None, None, -1)]
            ),
            Ok(vec![1, 5, 4, 2])
        );
        assert_eq!(
            shape(&[9, 3], &[sl(Some(7), Some(2), -2), Item::Int(1)]),
            Ok(vec![3])
        );
        let t = |s: &[usize]| Item::Tensor(s.to_vec(), DType::I32);
        assert_eq!(shape(&[5, 4], &[t(&[2, 3])]), Ok(vec![2, 3, 4]));
        assert_eq!(
            shape(&[5, 4, 6], &[sl(None, None, 1), t(&[2, 1]), t(&[3])]),
            Ok(vec![5, 2, 3])
        );
        assert_eq!(
            shape(&[5, 4, 6], &[t(&[2]), Item::Ellipsis, t(&[2])]),
            Ok(vec![2, 4])
        );
        assert_eq!(
            // next to each other once the integer removed its axis (tinygrad's reading)
            shape(
                &[5, 4, 7, 6],
                &[sl(None, None, 1), t(&[2]), Item::Int(0), t(&[2])]
            ),
            Ok(vec![5, 2])
        );
        assert_eq!(slice_bounds(Some(-10), Some(10), 1, 4), (0, 4, 4));
        assert_eq!(
            shape(&[4, 3], &[sl(None, None, 1), Item::Int(3)]),
            Err("index 3 is out of range for axis 1 of size 3 (shape [4, 3])".into())
        );
        assert_eq!(
            shape(&[2, 3], &[Item::Ellipsis, Item::Int(0), Item::Ellipsis]),
            Err("an index can have one ellipsis, this one has 2".into())
        );
    }
}
