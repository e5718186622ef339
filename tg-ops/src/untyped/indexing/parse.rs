//! Resolving an index list against a shape: the ellipsis expanded, each entry turned into the
//! range, step and size it keeps (Python's slice rules), integer positions checked.

use tg_core::shape::index::{self, IndexError, Item};
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
/// tg-core's indexing error as tg's.
fn error_of(e: IndexError<usize>) -> Error {
    match e {
        IndexError::ZeroStep { .. } => Error::Argument {
            op: "index",
            message: e.to_string(),
        },
        IndexError::NotInteger { dtype } => Error::DType {
            op: "index",
            dtype,
            message: e.to_string(),
        },
        IndexError::Broadcast(r) => r.into(),
        _ => index_err(e.to_string()),
    }
}

/// An index entry as tg-core's rule reads it.
fn item(i: &Index) -> Item<usize> {
    match i {
        Index::Int(v) => Item::Int(*v as i64),
        Index::Slice { start, stop, step } => Item::Slice {
            start: start.map(|v| v as i64),
            stop: stop.map(|v| v as i64),
            step: *step as i64,
        },
        Index::NewAxis => Item::NewAxis,
        Index::Ellipsis => Item::Ellipsis,
        Index::Tensor(t) => Item::Tensor(t.shape().to_vec(), t.dtype()),
    }
}

pub(crate) fn parse(shape: &[usize], indices: &[Index]) -> Result<Vec<Parsed>> {
    let items: Vec<Item<usize>> = indices.iter().map(item).collect();
    let real = index::count(shape, &items).map_err(|(_, e)| error_of(e))?;
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
                let b = index::position(*i as i64, dim, shape)
                    .map_err(error_of)?
                    .unwrap_or(0);
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
                    return Err(error_of(IndexError::ZeroStep { axis: dim }));
                }
                let (b0, b1, len) = index::slice_bounds(
                    start.map(|v| v as i64),
                    stop.map(|v| v as i64),
                    *step as i64,
                    size,
                );
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
                    return Err(error_of(IndexError::NotInteger { dtype: t.dtype() }));
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
