//! The GGUF container: header, metadata and tensor table, read through a memory map and
//! checked whole before anything is used, so a damaged file is one typed error.
//!
//! Layout (little-endian): `GGUF`, version (u32, 2 or 3), tensor count (u64), metadata count
//! (u64), the metadata (key string, value type u32, value), the tensor infos (name, rank u32,
//! dimensions u64 innermost first, type u32, offset u64 into the data section), padding to
//! `general.alignment` (default 32), the data section.

use std::path::Path;

use crate::metadata::{Metadata, Value};
use crate::{Error, GgmlType, Result};

/// The most axes a ggml tensor has.
pub const MAX_DIMS: usize = 4;

/// The alignment of the data section and of every tensor when the file names none.
pub const DEFAULT_ALIGNMENT: u64 = 32;

/// One entry of the tensor table, checked against the file.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorInfo {
    /// The tensor's name.
    pub name: String,
    /// Its type.
    pub ty: GgmlType,
    /// Its shape, outermost first (GGUF stores dimensions innermost first: `ne[0]` is the row
    /// length, the last entry here).
    pub shape: Vec<usize>,
    /// Offset of its bytes within the data section.
    pub offset: u64,
    /// Its size in bytes.
    pub bytes: usize,
}

impl TensorInfo {
    /// Its type, or [`Error::UnsupportedTensorType`] naming the tensor when tg cannot decode
    /// that type (the check every reader of a tensor's bytes makes first).
    pub fn supported_type(&self) -> Result<GgmlType> {
        if self.ty.supported() {
            Ok(self.ty)
        } else {
            Err(Error::UnsupportedTensorType {
                tensor: self.name.clone(),
                ty: self.ty,
            })
        }
    }

    /// The element count.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// The row length (`ne[0]`).
    pub fn row_len(&self) -> usize {
        self.shape.last().copied().unwrap_or(1)
    }

    /// Rows: every axis but the last, flattened.
    pub fn rows(&self) -> usize {
        self.numel() / self.row_len().max(1)
    }
}

enum Bytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

/// A GGUF file: its metadata and tensor table, and the bytes of its tensors.
pub struct GgufFile {
    bytes: Bytes,
    version: u32,
    metadata: Metadata,
    tensors: Vec<TensorInfo>,
    alignment: u64,
    data_start: usize,
}

impl std::fmt::Debug for GgufFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GgufFile")
            .field("version", &self.version)
            .field("keys", &self.metadata.entries.len())
            .field("tensors", &self.tensors.len())
            .finish()
    }
}

impl GgufFile {
    /// Maps and checks the file at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<GgufFile> {
        let path = path.as_ref();
        let io = |e: std::io::Error| Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len == 0 {
            return GgufFile::parse(Bytes::Owned(Vec::new()));
        }
        // SAFETY: the map is read-only and private to this value. A mapped file that another
        // process truncates or rewrites while mapped is undefined behaviour in Rust's model
        // (the bytes may change or fault); model files are not written while being served,
        // which is the assumption every memory-mapping model loader makes.
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(io)?;
        GgufFile::parse(Bytes::Mapped(map))
    }

    /// Checks a file held in memory.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<GgufFile> {
        GgufFile::parse(Bytes::Owned(bytes))
    }

    fn parse(bytes: Bytes) -> Result<GgufFile> {
        let (version, metadata, tensors, alignment, data_start) = {
            let mut r = Reader {
                buf: &bytes,
                pos: 0,
            };
            let magic: [u8; 4] = r.array("header")?;
            if &magic != b"GGUF" {
                return Err(Error::BadMagic { found: magic });
            }
            let version = r.u32("header")?;
            if version != 2 && version != 3 {
                return Err(Error::UnsupportedVersion { version });
            }
            let n_tensors = r.u64("header")?;
            let n_keys = r.u64("header")?;
            // every key takes at least 8 (length) + 4 (type) + 1 (value) bytes
            r.check_count("metadata key count", n_keys, 13)?;
            // every tensor info takes at least 8 (name length) + 4 + 8 (one dim) + 4 + 8 bytes
            r.check_count("tensor count", n_tensors, 32)?;
            let mut entries: Vec<(String, Value)> = Vec::with_capacity(n_keys as usize);
            for i in 0..n_keys {
                let key = r.string(&format!("metadata key #{i}"))?;
                if entries.iter().any(|(k, _)| *k == key) {
                    return Err(Error::DuplicateKey { key });
                }
                let type_id = r.u32(&format!("metadata key {key:?}"))?;
                let value = r.value(&key, type_id, 0)?;
                entries.push((key, value));
            }
            let metadata = Metadata { entries };
            let alignment = match metadata.get("general.alignment") {
                None => DEFAULT_ALIGNMENT,
                Some(Value::U32(a)) if a.is_power_of_two() => u64::from(*a),
                Some(v) => {
                    return Err(Error::BadAlignment {
                        alignment: v.as_u64().unwrap_or(0),
                    });
                }
            };
            let mut raw = Vec::with_capacity(n_tensors as usize);
            for i in 0..n_tensors {
                let what = format!("tensor info #{i}");
                let name = r.string(&what)?;
                let what = format!("tensor {name:?} info");
                let n_dims = r.u32(&what)?;
                if n_dims == 0 || n_dims as usize > MAX_DIMS {
                    return Err(Error::TensorShape {
                        tensor: name,
                        dims: vec![],
                        message: format!("rank {n_dims} (ggml tensors have 1 to {MAX_DIMS} axes)"),
                    });
                }
                let mut dims = Vec::with_capacity(n_dims as usize);
                for _ in 0..n_dims {
                    dims.push(r.u64(&what)?);
                }
                let type_id = r.u32(&what)?;
                let offset = r.u64(&what)?;
                raw.push((name, dims, type_id, offset));
            }
            let data_start = align_up(r.pos as u64, alignment).ok_or(Error::CountTooLarge {
                what: "data section start".into(),
                count: r.pos as u64,
                limit: u64::MAX - alignment,
            })?;
            let len = bytes.len() as u64;
            if !raw.is_empty() && data_start > len {
                return Err(Error::Truncated {
                    what: "data section".into(),
                    offset: r.pos as u64,
                    needed: data_start - r.pos as u64,
                    len,
                });
            }
            let data_len = len.saturating_sub(data_start);
            let mut tensors: Vec<TensorInfo> = Vec::with_capacity(raw.len());
            for (name, dims, type_id, offset) in raw {
                let info = tensor_info(name, &dims, type_id, offset, alignment, data_len)?;
                if tensors.iter().any(|t| t.name == info.name) {
                    return Err(Error::DuplicateTensor { tensor: info.name });
                }
                tensors.push(info);
            }
            check_overlaps(&tensors)?;
            (version, metadata, tensors, alignment, data_start as usize)
        };
        Ok(GgufFile {
            bytes,
            version,
            metadata,
            tensors,
            alignment,
            data_start,
        })
    }

    /// The format version (2 or 3).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The metadata.
    pub fn metadata(&self) -> &Metadata {
        &self.metadata
    }

    /// The tensor table, in file order.
    pub fn tensors(&self) -> &[TensorInfo] {
        &self.tensors
    }

    /// The tensor named `name`, or [`Error::MissingTensor`].
    pub fn tensor(&self, name: &str) -> Result<&TensorInfo> {
        self.tensors
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| Error::MissingTensor {
                tensor: name.into(),
            })
    }

    /// The data alignment.
    pub fn alignment(&self) -> u64 {
        self.alignment
    }

    /// The bytes of a tensor of this file's table (checked when the file was opened).
    pub fn tensor_bytes(&self, info: &TensorInfo) -> &[u8] {
        let start = self.data_start + info.offset as usize;
        &self.bytes[start..start + info.bytes]
    }

    /// The bytes of every tensor together.
    pub fn tensor_bytes_total(&self) -> usize {
        self.tensors.iter().map(|t| t.bytes).sum()
    }
}

fn align_up(v: u64, a: u64) -> Option<u64> {
    Some(v.checked_add(a - 1)? / a * a)
}

fn tensor_info(
    name: String,
    dims: &[u64],
    type_id: u32,
    offset: u64,
    alignment: u64,
    data_len: u64,
) -> Result<TensorInfo> {
    let Some(ty) = GgmlType::from_id(type_id) else {
        return Err(Error::UnknownTensorType {
            tensor: name,
            type_id,
        });
    };
    let shape_err = |message: String| Error::TensorShape {
        tensor: name.clone(),
        dims: dims.to_vec(),
        message,
    };
    if dims.contains(&0) {
        return Err(shape_err("a dimension is 0".into()));
    }
    let mut numel: u64 = 1;
    for &d in dims {
        numel = numel
            .checked_mul(d)
            .filter(|&n| n <= i64::MAX as u64)
            .ok_or_else(|| shape_err("the element count overflows".into()))?;
    }
    let (per_block, block_bytes) = ty.block();
    if !dims[0].is_multiple_of(per_block as u64) {
        return Err(shape_err(format!(
            "rows of {} elements are not whole blocks of {per_block} ({ty})",
            dims[0]
        )));
    }
    let bytes = (numel / per_block as u64)
        .checked_mul(block_bytes as u64)
        .ok_or_else(|| shape_err("the byte size overflows".into()))?;
    if !offset.is_multiple_of(alignment) {
        return Err(Error::Misaligned {
            tensor: name,
            offset,
            alignment,
        });
    }
    if offset.checked_add(bytes).is_none_or(|end| end > data_len) {
        return Err(Error::TensorOutOfBounds {
            tensor: name,
            offset,
            bytes,
            data_len,
        });
    }
    let shape = dims
        .iter()
        .rev()
        .map(|&d| usize::try_from(d))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|_| shape_err("a dimension does not fit this machine's usize".into()))?;
    Ok(TensorInfo {
        name,
        ty,
        shape,
        offset,
        bytes: bytes as usize,
    })
}

fn check_overlaps(tensors: &[TensorInfo]) -> Result<()> {
    let mut order: Vec<&TensorInfo> = tensors.iter().collect();
    order.sort_by_key(|t| t.offset);
    for pair in order.windows(2) {
        if pair[0].offset + pair[0].bytes as u64 > pair[1].offset {
            return Err(Error::OverlappingTensors {
                first: pair[0].name.clone(),
                second: pair[1].name.clone(),
            });
        }
    }
    Ok(())
}

/// A cursor over the file's bytes whose every read checks the length.
struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

/// Nesting of metadata arrays tg follows (GGUF files use one level).
const MAX_ARRAY_DEPTH: usize = 4;

impl Reader<'_> {
    fn remaining(&self) -> u64 {
        (self.buf.len() - self.pos) as u64
    }

    fn take(&mut self, n: u64, what: &str) -> Result<&[u8]> {
        if n > self.remaining() {
            return Err(Error::Truncated {
                what: what.into(),
                offset: self.pos as u64,
                needed: n,
                len: self.buf.len() as u64,
            });
        }
        let s = &self.buf[self.pos..self.pos + n as usize];
        self.pos += n as usize;
        Ok(s)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let s = self.take(N as u64, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    fn u32(&mut self, what: &str) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    fn u64(&mut self, what: &str) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }

    /// A count of items of at least `min_size` bytes each must fit the rest of the file.
    fn check_count(&self, what: &str, count: u64, min_size: u64) -> Result<()> {
        let limit = self.remaining() / min_size;
        if count > limit {
            return Err(Error::CountTooLarge {
                what: what.into(),
                count,
                limit,
            });
        }
        Ok(())
    }

    fn string(&mut self, what: &str) -> Result<String> {
        let n = self.u64(what)?;
        self.check_count(&format!("{what}: string length"), n, 1)?;
        let offset = self.pos as u64;
        let s = self.take(n, what)?;
        String::from_utf8(s.to_vec()).map_err(|_| Error::InvalidString {
            what: what.into(),
            offset,
        })
    }

    fn value(&mut self, key: &str, type_id: u32, depth: usize) -> Result<Value> {
        let what = format!("metadata key {key:?}");
        Ok(match type_id {
            0 => Value::U8(self.array::<1>(&what)?[0]),
            1 => Value::I8(self.array::<1>(&what)?[0] as i8),
            2 => Value::U16(u16::from_le_bytes(self.array(&what)?)),
            3 => Value::I16(i16::from_le_bytes(self.array(&what)?)),
            4 => Value::U32(self.u32(&what)?),
            5 => Value::I32(i32::from_le_bytes(self.array(&what)?)),
            6 => Value::F32(f32::from_le_bytes(self.array(&what)?)),
            7 => Value::Bool(self.array::<1>(&what)?[0] != 0),
            8 => Value::String(self.string(&what)?),
            9 => {
                if depth >= MAX_ARRAY_DEPTH {
                    return Err(Error::CountTooLarge {
                        what: format!("{what}: array nesting"),
                        count: depth as u64 + 1,
                        limit: MAX_ARRAY_DEPTH as u64,
                    });
                }
                let item_type = self.u32(&what)?;
                let n = self.u64(&what)?;
                let min = match item_type {
                    0 | 1 | 7 => 1,
                    2 | 3 => 2,
                    4..=6 => 4,
                    8 | 10..=12 => 8,
                    9 => 12,
                    _ => {
                        return Err(Error::UnknownValueType {
                            key: key.into(),
                            type_id: item_type,
                        });
                    }
                };
                self.check_count(&format!("{what}: array length"), n, min)?;
                let mut items = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    items.push(self.value(key, item_type, depth + 1)?);
                }
                Value::Array(items)
            }
            10 => Value::U64(self.u64(&what)?),
            11 => Value::I64(i64::from_le_bytes(self.array(&what)?)),
            12 => Value::F64(f64::from_le_bytes(self.array(&what)?)),
            _ => {
                return Err(Error::UnknownValueType {
                    key: key.into(),
                    type_id,
                });
            }
        })
    }
}
