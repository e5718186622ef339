//! What a caller expects of a file against what it holds, as data ([`Mismatch`]), and the one
//! function that turns a list of mismatches into tg's error.

use std::fmt;
use std::path::Path;

use tg_ops::DynTensor;
use tg_runtime::{DType, Error};

use super::dtype::FileDtype;
use super::file::Header;

/// A tensor's dtype and shape, as a file stores it or a caller expects it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorSpec {
    /// The element type.
    pub dtype: FileDtype,
    /// The shape.
    pub shape: Vec<usize>,
}

impl TensorSpec {
    /// The spec of a tg dtype and shape.
    pub fn new(dtype: DType, shape: &[usize]) -> TensorSpec {
        TensorSpec {
            dtype: FileDtype::Native(dtype),
            shape: shape.to_vec(),
        }
    }
}

impl fmt::Display for TensorSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}", self.dtype, self.shape)
    }
}

/// Whether a file may hold names nobody asked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Extra {
    /// Every name in the file must be expected (a model loading its own checkpoint).
    Refuse,
    /// Names not expected are skipped (loading part of a bigger checkpoint).
    Ignore,
}

/// One way a file differs from what a caller expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mismatch {
    /// An expected name is not in the file.
    Missing {
        /// The tensor's name.
        name: String,
        /// What was expected.
        expected: TensorSpec,
    },
    /// The file holds a name that was not expected (with [`Extra::Refuse`]).
    Unexpected {
        /// The tensor's name.
        name: String,
        /// What the file holds.
        found: TensorSpec,
    },
    /// The name is there with another dtype (one that does not load as the expected one) or
    /// another shape.
    Differs {
        /// The tensor's name.
        name: String,
        /// What was expected.
        expected: TensorSpec,
        /// What the file holds.
        found: TensorSpec,
    },
    /// The file stores the tensor in a dtype tg has no type for (found by `load`, which
    /// expects nothing).
    Unsupported {
        /// The tensor's name.
        name: String,
        /// What the file holds.
        found: TensorSpec,
    },
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Missing { name, expected } => {
                write!(f, "`{name}` is missing (expected {expected})")
            }
            Mismatch::Unexpected { name, found } => {
                write!(f, "`{name}` ({found}) is in the file but not expected")
            }
            Mismatch::Differs {
                name,
                expected,
                found,
            } => write!(f, "`{name}`: expected {expected}, found {found}"),
            Mismatch::Unsupported { name, found } => {
                write!(f, "`{name}` ({found}) has no tg dtype")
            }
        }
    }
}

/// The error for a file that does not hold what was expected: every mismatch named, in one
/// `Error::Argument` of the op `load_state_dict`. (The one place such errors are made, so a
/// dedicated error variant can replace it here alone.)
pub(crate) fn mismatch_error(path: &Path, problems: &[Mismatch]) -> Error {
    let list: Vec<String> = problems.iter().map(Mismatch::to_string).collect();
    Error::Argument {
        op: "load_state_dict",
        message: format!(
            "{} does not hold the expected tensors ({} problem{}): {}",
            path.display(),
            problems.len(),
            if problems.len() == 1 { "" } else { "s" },
            list.join("; ")
        ),
    }
}

/// Compares a file's header with the expected tensors (in their order, then the file's extra
/// names in file order).
pub(crate) fn compare(
    header: &Header,
    expected: &[(&str, &DynTensor)],
    extra: Extra,
) -> Vec<Mismatch> {
    let mut problems = Vec::new();
    for &(name, t) in expected {
        let want = TensorSpec::new(t.dtype(), t.shape());
        match header.entry(name) {
            None => problems.push(Mismatch::Missing {
                name: name.to_string(),
                expected: want,
            }),
            Some(e) if !e.spec.dtype.loads_as(t.dtype()) || e.spec.shape != t.shape() => problems
                .push(Mismatch::Differs {
                    name: name.to_string(),
                    expected: want,
                    found: e.spec.clone(),
                }),
            Some(_) => {}
        }
    }
    match extra {
        Extra::Ignore => {}
        Extra::Refuse => {
            for e in header.entries() {
                if !expected.iter().any(|&(name, _)| name == e.name) {
                    problems.push(Mismatch::Unexpected {
                        name: e.name.clone(),
                        found: e.spec.clone(),
                    });
                }
            }
        }
    }
    problems
}
