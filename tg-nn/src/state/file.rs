//! Reading a safetensors file's header and tensor bytes, and writing a file atomically.

use std::path::Path;

use safetensors::tensor::{SafeTensors, View};
use tg_runtime::{DType, Error, Result};

use super::check::TensorSpec;
use super::dtype::{FileDtype, file_dtype};

/// One tensor of a file: its name, spec and where its bytes are.
pub(crate) struct Entry {
    pub name: String,
    pub spec: TensorSpec,
    range: (usize, usize),
}

/// A safetensors file read into memory, its header checked by the safetensors crate (offsets
/// inside the file, covering it exactly, sizes matching dtypes and shapes).
pub(crate) struct Header {
    bytes: Vec<u8>,
    /// Where the tensor data starts.
    data_start: usize,
    /// In the order of their data in the file.
    entries: Vec<Entry>,
}

/// `Error::Io` for a file that cannot be used, naming it.
fn file_error(path: &Path, message: impl std::fmt::Display) -> Error {
    Error::Io {
        path: path.display().to_string(),
        message: message.to_string(),
    }
}

impl Header {
    /// Reads `path` and parses its header; a file that is not safetensors or is truncated is
    /// `Error::Io` naming it and what is wrong.
    pub fn read(path: &Path) -> Result<Header> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        let (header_len, metadata) = SafeTensors::read_metadata(&bytes)
            .map_err(|e| file_error(path, format!("not a valid safetensors file: {e}")))?;
        let entries = metadata
            .offset_keys()
            .into_iter()
            .filter_map(|name| {
                let info = metadata.info(&name)?;
                Some(Entry {
                    spec: TensorSpec {
                        dtype: FileDtype::of(info.dtype),
                        shape: info.shape.clone(),
                    },
                    range: info.data_offsets,
                    name,
                })
            })
            .collect();
        Ok(Header {
            bytes,
            data_start: 8 + header_len,
            entries,
        })
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// The stored bytes of `e` (a tensor of this header).
    pub fn data(&self, e: &Entry) -> &[u8] {
        &self.bytes[self.data_start + e.range.0..self.data_start + e.range.1]
    }
}

/// A tensor's bytes ready to write.
pub(crate) struct Stored {
    pub dtype: DType,
    pub shape: Vec<usize>,
    pub bytes: Vec<u8>,
}

impl View for &Stored {
    fn dtype(&self) -> safetensors::Dtype {
        file_dtype(self.dtype)
    }
    fn shape(&self) -> &[usize] {
        &self.shape
    }
    fn data(&self) -> std::borrow::Cow<'_, [u8]> {
        std::borrow::Cow::Borrowed(&self.bytes)
    }
    fn data_len(&self) -> usize {
        self.bytes.len()
    }
}

/// Writes the tensors to `path` through a temporary file in the same folder that is renamed
/// over it, so a failed or interrupted save never leaves a truncated checkpoint behind.
pub(crate) fn write(path: &Path, tensors: &[(&str, Stored)]) -> Result<()> {
    let bytes = safetensors::tensor::serialize(tensors.iter().map(|(n, s)| (*n, s)), None)
        .map_err(|e| file_error(path, format!("cannot encode as safetensors: {e}")))?;
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(format!(".tg-tmp-{}", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let written = std::fs::write(&tmp, &bytes).and_then(|()| std::fs::rename(&tmp, path));
    written.map_err(|e| {
        // the temporary file may not exist (the write failed to create it); nothing to report
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}
