//! Resolving an index list against a shape: the ellipsis expanded, each entry turned into the
//! range, step and size it keeps (Python's slice rules), integer positions checked.

use tg_runtime::{Error, Result};

use super::Index;
use crate::untyped::DynTensor;

pub(crate) fn index_err(message: String) -> Error {
    Error::Shape {
        op: "index",
        message,
    }
}

/// A value that does not broadcast to the selection it is assigned to.
pub(crate) fn value_err(value: &[usize], selection: &[usize]) -> Error {
    Error::Broadcast {
        op: "setitem",
        lhs: value.to_vec(),
        rhs: selection.to_vec(),
    }
}

/// One index entry resolved against its axis: the `start..end` it keeps, the step (negative:
/// walk backwards from `end - 1`), the size it leaves, and whether the axis goes away.
#[derive(Clone, Debug)]
pub(crate) struct Parsed {
    pub size: usize,
    pub start: usize,
    pub end: usize,
    pub step: isize,
    pub collapse: bool,
    pub kind: Kind,
}

#[derive(Clone, Debug)]
pub(crate) enum Kind {
    View,
    NewAxis,
    Tensor(DynTensor),
}

/// Python's `slice.indices(size)` followed by tinygrad's bounds: the kept `start..end` and
/// the number of elements.
fn slice_bounds(
    start: Option<isize>,
    stop: Option<isize>,
    step: isize,
    size: usize,
) -> (usize, usize, usize) {
    let n = size as isize;
    let (lower, upper) = if step < 0 { (-1, n - 1) } else { (0, n) };
    let clamp = |v: Option<isize>, default: isize| match v {
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
    let len = (b1.saturating_sub(b0)).div_ceil(step.unsigned_abs());
    (b0, b1, len)
}

/// Expands the ellipsis and resolves every entry against the axes of `shape`.
pub(crate) fn parse(shape: &[usize], indices: &[Index]) -> Result<Vec<Parsed>> {
    let ellipses = indices
        .iter()
        .filter(|i| matches!(i, Index::Ellipsis))
        .count();
    if ellipses > 1 {
        return Err(index_err(format!(
            "an index can have one ellipsis, this one has {ellipses}"
        )));
    }
    let real = indices
        .iter()
        .filter(|i| !matches!(i, Index::Ellipsis | Index::NewAxis))
        .count();
    if real > shape.len() {
        return Err(index_err(format!(
            "too many indices ({real}) for shape {shape:?} of rank {}",
            shape.len()
        )));
    }
    let mut full: Vec<&Index> = Vec::with_capacity(indices.len() + shape.len());
    let fill = Index::full();
    let at = indices
        .iter()
        .position(|i| matches!(i, Index::Ellipsis))
        .unwrap_or(indices.len());
    full.extend(&indices[..at]);
    full.extend(std::iter::repeat_n(&fill, shape.len() - real));
    full.extend(indices.iter().skip(at + 1));

    let mut out = Vec::with_capacity(full.len());
    let mut dim = 0;
    for index in full {
        let size = if matches!(index, Index::NewAxis) {
            1
        } else {
            shape[dim]
        };
        let p = match index {
            Index::NewAxis => Parsed {
                size: 1,
                start: 0,
                end: 1,
                step: 1,
                collapse: false,
                kind: Kind::NewAxis,
            },
            Index::Int(i) => {
                let n = size as isize;
                if *i >= n || *i < -n {
                    return Err(index_err(format!(
                        "index {i} is out of range for axis {dim} of size {size} (shape {shape:?})"
                    )));
                }
                let b = if *i < 0 { i + n } else { *i } as usize;
                Parsed {
                    size,
                    start: b,
                    end: b + 1,
                    step: 1,
                    collapse: true,
                    kind: Kind::View,
                }
            }
            Index::Slice { start, stop, step } => {
                if *step == 0 {
                    return Err(Error::Argument {
                        op: "index",
                        message: format!("slice step on axis {dim} cannot be 0"),
                    });
                }
                let (b0, b1, len) = slice_bounds(*start, *stop, *step, size);
                Parsed {
                    size: len,
                    start: b0,
                    end: b1,
                    step: *step,
                    collapse: false,
                    kind: Kind::View,
                }
            }
            Index::Tensor(t) => {
                if !t.dtype().is_int() {
                    return Err(Error::DType {
                        op: "index",
                        dtype: t.dtype(),
                        message: "tensor indices must be integers (bool masks are not indices; use masked_select)".into(),
                    });
                }
                Parsed {
                    size,
                    start: 0,
                    end: size,
                    step: 1,
                    collapse: false,
                    kind: Kind::Tensor(t.clone()),
                }
            }
            Index::Ellipsis => unreachable!("expanded above"),
        };
        if !matches!(p.kind, Kind::NewAxis) {
            dim += 1;
        }
        out.push(p);
    }
    Ok(out)
}
