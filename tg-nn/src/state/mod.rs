//! Saving and loading named tensors as safetensors files, the format most published
//! checkpoints use.
//!
//! - [`save`] writes tensors of any tg dtype (bool, the integers, f16, f32, f64).
//! - [`load`] reads every tensor of a file into a [`StateDict`] in file order.
//! - [`load_into`] loads the tensors a model expects: it checks every name, dtype and shape
//!   against the file ([`check`]) before it creates any tensor, so a wrong file loads nothing,
//!   and the error names every tensor that differs with both dtypes and shapes.
//!
//! bf16, which tg does not compute in, is converted on the host while loading: exactly to
//! f32 (or f64), and to f16 rounding to nearest even where f16 is expected. Loaded tensors
//! are realized (uploaded) together, so the file's bytes are not kept.

mod check;
mod dict;
mod dtype;
mod file;

use std::path::Path;

use tg_ops::DynTensor;
use tg_runtime::{Error, Lazy, Result};

pub use check::{Extra, Mismatch, TensorSpec};
pub use dict::StateDict;
pub use dtype::FileDtype;

use check::{compare, mismatch_error};
use file::{Entry, Header, Stored};

/// The key safetensors reserves for the file's metadata; no tensor may have it.
const RESERVED: &str = "__metadata__";

/// Writes `tensors` to the safetensors file `path` (replacing it; written to a temporary file
/// and renamed, so an interrupted save leaves the old file). The tensors are realized
/// together and read back. A repeated or reserved (`__metadata__`) name is
/// `Error::Argument`; file errors are `Error::Io`.
///
/// ```
/// use tg_ops::prelude::*;
/// let w = DynTensor::from_slice(&[2, 2], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
/// let path = std::env::temp_dir().join(format!("tg_nn_doc_save_{}.safetensors", std::process::id()));
/// tg_nn::state::save(&path, &[("w", &w)]).unwrap();
/// let loaded = tg_nn::state::load(&path).unwrap();
/// assert_eq!(loaded.get("w").unwrap().to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn save(path: impl AsRef<Path>, tensors: &[(&str, &DynTensor)]) -> Result<()> {
    let path = path.as_ref();
    for (i, &(name, _)) in tensors.iter().enumerate() {
        if name == RESERVED || tensors[..i].iter().any(|&(n, _)| n == name) {
            return Err(Error::Argument {
                op: "save_state_dict",
                message: format!(
                    "the name `{name}` is {} (saving to {})",
                    if name == RESERVED {
                        "reserved by safetensors for metadata"
                    } else {
                        "given twice"
                    },
                    path.display()
                ),
            });
        }
    }
    let lazies: Vec<&Lazy> = tensors.iter().map(|(_, t)| t.lazy()).collect();
    tg_runtime::realize(&lazies)?;
    let stored = tensors
        .iter()
        .map(|&(name, t)| {
            Ok((
                name,
                Stored {
                    dtype: t.dtype(),
                    shape: t.shape().to_vec(),
                    bytes: t.lazy().to_bytes()?,
                },
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    file::write(path, &stored)
}

/// Reads every tensor of the safetensors file `path`, in file order; bf16 becomes f32. A
/// file that is missing, not safetensors, or truncated is `Error::Io`; a tensor of a dtype tg
/// has no type for (f8, complex) is `Error::Argument` naming it, and nothing is loaded.
pub fn load(path: impl AsRef<Path>) -> Result<StateDict> {
    let path = path.as_ref();
    let header = Header::read(path)?;
    let unsupported: Vec<Mismatch> = header
        .entries()
        .iter()
        .filter(|e| e.spec.dtype.default_target().is_none())
        .map(|e| Mismatch::Unsupported {
            name: e.name.clone(),
            found: e.spec.clone(),
        })
        .collect();
    if !unsupported.is_empty() {
        return Err(mismatch_error(path, &unsupported));
    }
    let tensors = header
        .entries()
        .iter()
        .filter_map(|e| {
            let target = e.spec.dtype.default_target()?;
            Some(tensor_of(&header, e, target).map(|t| (e.name.clone(), t)))
        })
        .collect::<Result<Vec<_>>>()?;
    realize_all(tensors.iter().map(|(_, t)| t))?;
    Ok(tensors.into_iter().collect())
}

/// Compares the file's tensors with `expected` (names with the tensors whose dtype and shape
/// they must have) without loading anything: the mismatches, in `expected`'s order and then
/// unexpected names in file order (with [`Extra::Refuse`]); empty when [`load_into`] would
/// succeed. File problems are `Error::Io`.
pub fn check(
    path: impl AsRef<Path>,
    expected: &[(&str, &DynTensor)],
    extra: Extra,
) -> Result<Vec<Mismatch>> {
    Ok(compare(&Header::read(path.as_ref())?, expected, extra))
}

/// Loads the tensors `expected` names, with their dtypes and shapes, in `expected`'s order.
/// Every name must be in the file with that shape and that dtype (bf16 also loads as any
/// float dtype), and with [`Extra::Refuse`] the file must hold no other name. All of it is
/// checked before any tensor is made, so a file that does not fit loads nothing: the error
/// (`Error::Argument` of `load_state_dict`) names every tensor that differs, with the
/// expected and found dtypes and shapes. File problems are `Error::Io`.
///
/// ```
/// use tg_ops::prelude::*;
/// use tg_nn::state::{self, Extra};
/// let path = std::env::temp_dir().join(format!("tg_nn_doc_load_into_{}.safetensors", std::process::id()));
/// let b = DynTensor::from_slice(&[3], &[0.5f32, -1.0, 2.0]).unwrap();
/// state::save(&path, &[("fc.bias", &b)]).unwrap();
/// let model_bias = DynTensor::zeros(&[3], DType::F32).unwrap();
/// let [bias] = <[DynTensor; 1]>::try_from(
///     state::load_into(&path, &[("fc.bias", &model_bias)], Extra::Refuse).unwrap(),
/// ).unwrap();
/// assert_eq!(bias.to_vec::<f32>().unwrap(), vec![0.5, -1.0, 2.0]);
/// let wrong = DynTensor::zeros(&[4], DType::F32).unwrap();
/// assert!(state::load_into(&path, &[("fc.bias", &wrong)], Extra::Refuse).is_err());
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn load_into(
    path: impl AsRef<Path>,
    expected: &[(&str, &DynTensor)],
    extra: Extra,
) -> Result<Vec<DynTensor>> {
    let path = path.as_ref();
    let header = Header::read(path)?;
    let problems = compare(&header, expected, extra);
    if !problems.is_empty() {
        return Err(mismatch_error(path, &problems));
    }
    let tensors = expected
        .iter()
        .map(|&(name, want)| {
            let e = header.entry(name).ok_or_else(|| {
                Error::internal("load_state_dict", format!("`{name}` checked but not found"))
            })?;
            tensor_of(&header, e, want.dtype())
        })
        .collect::<Result<Vec<_>>>()?;
    realize_all(tensors.iter())?;
    Ok(tensors)
}

/// The tensor of entry `e`, as `target` (which its stored dtype loads as).
fn tensor_of(header: &Header, e: &Entry, target: tg_runtime::DType) -> Result<DynTensor> {
    let bytes = dtype::convert(&e.spec.dtype, target, header.data(e));
    Ok(DynTensor::from_lazy(Lazy::from_bytes(
        target,
        &e.spec.shape,
        bytes,
    )?))
}

/// Uploads the tensors in one realize.
fn realize_all<'a>(tensors: impl Iterator<Item = &'a DynTensor>) -> Result<()> {
    let lazies: Vec<&Lazy> = tensors.map(DynTensor::lazy).collect();
    tg_runtime::realize(&lazies)
}
