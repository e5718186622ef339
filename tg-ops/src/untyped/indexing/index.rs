//! The index type: [`Index`], its conversions from Rust ranges, integers and tensors, and the
//! [`idx!`](crate::idx) macro that writes index lists as numpy does.

use std::ops::{Range, RangeFrom, RangeFull, RangeInclusive, RangeTo, RangeToInclusive};

use tg_runtime::Result;

use crate::untyped::DynTensor;

/// One entry of an index: what `x[...]` takes in numpy and tinygrad.
///
/// ```
/// use tg_ops::prelude::*;
/// let t = DynTensor::from_slice(&[2, 3], &[0i32, 1, 2, 3, 4, 5]).unwrap();
/// let i = [Index::Int(-1), Index::slice(.., -2)];
/// assert_eq!(t.index(&i).unwrap().to_vec::<i32>().unwrap(), vec![5, 3]);
/// ```
#[derive(Clone, Debug)]
pub enum Index {
    /// One position (negative counts from the end); the axis is removed. Out of range fails.
    Int(isize),
    /// Python's `start:stop:step`: bounds clamp to the axis, negative ones count from the end,
    /// a negative step walks backwards (`None` bounds then start at the end); `step != 0`.
    Slice {
        /// The first position (`None`: from the start, or the end for a negative step).
        start: Option<isize>,
        /// The position past the last (`None`: to the end).
        stop: Option<isize>,
        /// The step (not 0; negative walks backwards).
        step: isize,
    },
    /// A new axis of size 1 (numpy's `None` / `np.newaxis`).
    NewAxis,
    /// As many full slices as the axes not otherwise indexed (`...`); at most one.
    Ellipsis,
    /// Integer positions along one axis (advanced indexing); several tensor indices broadcast
    /// together. Negative values count from the end; values out of range read 0.
    Tensor(DynTensor),
}

impl Index {
    /// The slice `range` with step `step` (`Index::slice(.., -1)` reverses an axis).
    pub fn slice(range: impl SliceRange, step: isize) -> Index {
        let (start, stop) = range.bounds();
        Index::Slice { start, stop, step }
    }

    /// The whole axis (`:`).
    pub fn full() -> Index {
        Index::Slice {
            start: None,
            stop: None,
            step: 1,
        }
    }

    /// A tensor index from host positions (tinygrad's list index), as an i32 tensor (i64 if a
    /// value does not fit).
    pub fn list(positions: &[isize]) -> Result<Index> {
        let fits = positions.iter().all(|&p| i32::try_from(p).is_ok());
        let t = if fits {
            let v: Vec<i32> = positions.iter().map(|&p| p as i32).collect();
            DynTensor::from_slice(&[v.len()], &v)?
        } else {
            let v: Vec<i64> = positions.iter().map(|&p| p as i64).collect();
            DynTensor::from_slice(&[v.len()], &v)?
        };
        Ok(Index::Tensor(t))
    }
}

/// Rust ranges as the bounds of a slice index. An inclusive end of `-1` means "to the end".
pub trait SliceRange {
    /// `(start, stop)` of the slice.
    fn bounds(self) -> (Option<isize>, Option<isize>);
}

impl SliceRange for RangeFull {
    fn bounds(self) -> (Option<isize>, Option<isize>) {
        (None, None)
    }
}

fn inclusive_end(end: isize) -> Option<isize> {
    if end == -1 { None } else { Some(end + 1) }
}

macro_rules! index_from_ints {
    ($($t:ty),*) => {$(
        impl From<$t> for Index {
            fn from(i: $t) -> Index {
                Index::Int(i as isize)
            }
        }
        impl SliceRange for Range<$t> {
            fn bounds(self) -> (Option<isize>, Option<isize>) {
                (Some(self.start as isize), Some(self.end as isize))
            }
        }
        impl SliceRange for RangeFrom<$t> {
            fn bounds(self) -> (Option<isize>, Option<isize>) {
                (Some(self.start as isize), None)
            }
        }
        impl SliceRange for RangeTo<$t> {
            fn bounds(self) -> (Option<isize>, Option<isize>) {
                (None, Some(self.end as isize))
            }
        }
        impl SliceRange for RangeInclusive<$t> {
            fn bounds(self) -> (Option<isize>, Option<isize>) {
                (Some(*self.start() as isize), inclusive_end(*self.end() as isize))
            }
        }
        impl SliceRange for RangeToInclusive<$t> {
            fn bounds(self) -> (Option<isize>, Option<isize>) {
                (None, inclusive_end(self.end as isize))
            }
        }
        impl From<Range<$t>> for Index {
            fn from(r: Range<$t>) -> Index {
                Index::slice(r, 1)
            }
        }
        impl From<RangeFrom<$t>> for Index {
            fn from(r: RangeFrom<$t>) -> Index {
                Index::slice(r, 1)
            }
        }
        impl From<RangeTo<$t>> for Index {
            fn from(r: RangeTo<$t>) -> Index {
                Index::slice(r, 1)
            }
        }
        impl From<RangeInclusive<$t>> for Index {
            fn from(r: RangeInclusive<$t>) -> Index {
                Index::slice(r, 1)
            }
        }
        impl From<RangeToInclusive<$t>> for Index {
            fn from(r: RangeToInclusive<$t>) -> Index {
                Index::slice(r, 1)
            }
        }
    )*};
}

index_from_ints!(i32, i64, isize, usize);

impl From<RangeFull> for Index {
    fn from(_: RangeFull) -> Index {
        Index::full()
    }
}

impl From<DynTensor> for Index {
    fn from(t: DynTensor) -> Index {
        Index::Tensor(t)
    }
}

impl From<&DynTensor> for Index {
    fn from(t: &DynTensor) -> Index {
        Index::Tensor(t.clone())
    }
}

impl<S: crate::shape::Shape, T: crate::dtype::Dtype> From<&crate::Tensor<S, T>> for Index {
    fn from(t: &crate::Tensor<S, T>) -> Index {
        Index::Tensor(t.as_dyn().clone())
    }
}

/// An index list, written as in numpy: integers, Rust ranges (`1..3`, `..`, `2..`, `..=4`),
/// a range with a step after `;` (`..;-1` is `::-1`, `1..;2` is `1::2`), `None` for a new
/// axis, `...` for the ellipsis, and tensors (`&t`, or anything `Into<Index>`).
///
/// ```
/// use tg_ops::prelude::*;
/// let t = DynTensor::from_slice(&[2, 3], &[0i32, 1, 2, 3, 4, 5]).unwrap();
/// assert_eq!(t.index(&idx![1, ..;-2]).unwrap().to_vec::<i32>().unwrap(), vec![5, 3]);
/// assert_eq!(t.index(&idx![None, ..., 0]).unwrap().shape(), &[1, 2]);
/// let rows = DynTensor::from_slice(&[3], &[1i32, -2, 7]).unwrap();
/// // a tensor index out of range reads 0
/// assert_eq!(t.index(&idx![&rows, 2]).unwrap().to_vec::<i32>().unwrap(), vec![5, 2, 0]);
/// ```
#[macro_export]
macro_rules! idx {
    (@go [$($out:expr,)*]) => { ::std::vec![$($out),*] };
    (@go [$($out:expr,)*] ... $(, $($rest:tt)*)?) => {
        $crate::idx!(@go [$($out,)* $crate::untyped::indexing::Index::Ellipsis,] $($($rest)*)?)
    };
    (@go [$($out:expr,)*] None $(, $($rest:tt)*)?) => {
        $crate::idx!(@go [$($out,)* $crate::untyped::indexing::Index::NewAxis,] $($($rest)*)?)
    };
    (@go [$($out:expr,)*] $r:expr ; $s:expr $(, $($rest:tt)*)?) => {
        $crate::idx!(@go [$($out,)* $crate::untyped::indexing::Index::slice($r, $s),] $($($rest)*)?)
    };
    (@go [$($out:expr,)*] $e:expr $(, $($rest:tt)*)?) => {
        $crate::idx!(@go [$($out,)* $crate::untyped::indexing::Index::from($e),] $($($rest)*)?)
    };
    ($($t:tt)*) => { $crate::idx!(@go [] $($t)*) };
}
