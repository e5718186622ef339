//! `HostTensor`: a tensor's values in host memory (initializers, constants, test data, folded
//! shape values), decoded from `TensorProto` with its data inline or in an external file.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Component, Path};

use prost::Message;
use tg_core::DType;

use crate::dtype;
use crate::error::{Error, ExternalDataProblem, Result};
use crate::exotic::Exotic;
use crate::proto::TensorProto;
use crate::proto::tensor_proto::DataLocation;

/// A tensor on the host: its dtype, shape, and elements in row-major order as little-endian
/// bytes of the dtype's size (bool one byte, 0 or 1).
#[derive(Clone, Debug, PartialEq)]
pub struct HostTensor {
    /// The element type.
    pub dtype: DType,
    /// The sizes.
    pub shape: Vec<usize>,
    /// `numel * dtype.size()` bytes.
    pub data: Vec<u8>,
    /// The ONNX type the values belong to when `dtype` only stores them (bfloat16, the
    /// 8- and 4-bit floats, the 4- and 2-bit integers).
    pub exotic: Option<Exotic>,
}

/// The element count of `dims` as ONNX writes them (i64), refusing negative sizes and counts
/// or byte sizes that overflow (and element counts past tg's 2^31 - 1 index limit).
pub fn checked_shape(tensor: &str, dims: &[i64], dtype: DType) -> Result<Vec<usize>> {
    let overflow = || Error::DimOverflow {
        tensor: tensor.to_string(),
        dims: dims.to_vec(),
    };
    let mut n: usize = 1;
    let mut shape = Vec::with_capacity(dims.len());
    for &d in dims {
        let d = usize::try_from(d).map_err(|_| overflow())?;
        n = n.checked_mul(d).ok_or_else(overflow)?;
        shape.push(d);
    }
    if n > i32::MAX as usize || n.checked_mul(dtype.size()).is_none() {
        return Err(overflow());
    }
    Ok(shape)
}

impl HostTensor {
    /// The element count.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// Zeros of `shape`.
    pub fn zeros(dtype: DType, shape: &[usize]) -> HostTensor {
        let n: usize = shape.iter().product();
        HostTensor {
            dtype,
            shape: shape.to_vec(),
            data: vec![0; n * dtype.size()],
            exotic: None,
        }
    }

    /// A tensor of `dtype` holding `values` converted with tg's cast rules (integers wrap,
    /// floats truncate and saturate into integers, NaN to 0).
    pub fn from_f64s(dtype: DType, shape: &[usize], values: &[f64]) -> HostTensor {
        let mut data = Vec::with_capacity(values.len() * dtype.size());
        for &v in values {
            push_f64(&mut data, dtype, v);
        }
        HostTensor {
            dtype,
            shape: shape.to_vec(),
            data,
            exotic: None,
        }
    }

    /// A tensor of `dtype` holding `values` (wrapped into integer dtypes, converted to floats).
    pub fn from_i64s(dtype: DType, shape: &[usize], values: &[i64]) -> HostTensor {
        let mut data = Vec::with_capacity(values.len() * dtype.size());
        for &v in values {
            push_i64(&mut data, dtype, v);
        }
        HostTensor {
            dtype,
            shape: shape.to_vec(),
            data,
            exotic: None,
        }
    }

    /// The elements as i64 (floats truncated and saturated, u64 past i64::MAX wrapped).
    pub fn to_i64s(&self) -> Vec<i64> {
        self.elements().map(|b| i64_of(self.dtype, b)).collect()
    }

    /// The elements as f64.
    pub fn to_f64s(&self) -> Vec<f64> {
        self.elements().map(|b| f64_of(self.dtype, b)).collect()
    }

    /// Element `i` as i64, or `None` past the end: a model's tensor may be shorter than the
    /// op reading it expects, so callers turn `None` into an error naming the node (see
    /// [`crate::Node::scalar_i64`]).
    pub fn get_i64(&self, i: usize) -> Option<i64> {
        self.element(i).map(|b| i64_of(self.dtype, b))
    }

    /// Element `i` as f64, or `None` past the end.
    pub fn get_f64(&self, i: usize) -> Option<f64> {
        self.element(i).map(|b| f64_of(self.dtype, b))
    }

    /// The bytes of element `i`, if the tensor has it.
    fn element(&self, i: usize) -> Option<&[u8]> {
        let s = self.dtype.size();
        if i >= self.numel() {
            return None;
        }
        self.data
            .get(i.checked_mul(s)?..i.checked_add(1)?.checked_mul(s)?)
    }

    /// The bytes of each element, in order (as many as `data` holds, at most `numel`).
    fn elements(&self) -> impl Iterator<Item = &[u8]> {
        self.data.chunks_exact(self.dtype.size()).take(self.numel())
    }

    /// The tensor converted to `dtype` with tg's cast rules.
    pub fn cast(&self, dtype: DType) -> HostTensor {
        if dtype == self.dtype {
            return self.clone();
        }
        let mut data = Vec::with_capacity(self.numel() * dtype.size());
        for b in self.elements() {
            if self.dtype.is_float() || (self.dtype == DType::U64 && dtype.is_float()) {
                push_f64(&mut data, dtype, f64_of(self.dtype, b));
            } else {
                push_i64(&mut data, dtype, i64_of(self.dtype, b));
            }
        }
        HostTensor {
            dtype,
            shape: self.shape.clone(),
            data,
            exotic: None,
        }
    }

    /// The same elements under another shape of the same element count.
    pub fn reshaped(&self, shape: &[usize]) -> HostTensor {
        HostTensor {
            dtype: self.dtype,
            shape: shape.to_vec(),
            data: self.data.clone(),
            exotic: self.exotic,
        }
    }

    /// The elements at flat positions `idx`, in that order, as a tensor of `shape`.
    pub fn take(&self, idx: &[usize], shape: &[usize]) -> HostTensor {
        let s = self.dtype.size();
        let mut data = Vec::with_capacity(idx.len() * s);
        for &i in idx {
            data.extend_from_slice(&self.data[i * s..(i + 1) * s]);
        }
        HostTensor {
            dtype: self.dtype,
            shape: shape.to_vec(),
            data,
            exotic: self.exotic,
        }
    }

    /// Decodes a serialized `TensorProto` (a test-data `.pb` file); external data is refused.
    pub fn decode(bytes: &[u8], what: &str) -> Result<HostTensor> {
        let proto = TensorProto::decode(bytes).map_err(|e| Error::Malformed {
            what: what.to_string(),
            message: e.to_string(),
        })?;
        HostTensor::from_proto(&proto, None, what)
    }

    /// Encodes as a `TensorProto` with raw data.
    pub fn to_proto(&self, name: &str) -> TensorProto {
        TensorProto {
            dims: self.shape.iter().map(|&d| d as i64).collect(),
            data_type: Some(dtype::to_onnx(self.dtype)),
            name: Some(name.to_string()),
            raw_data: Some(self.data.clone()),
            ..Default::default()
        }
    }

    /// Decodes a `TensorProto`: inline data in any of its fields, or external data read from
    /// a file in `folder` (the model's folder; `None` refuses external data). `fallback_name`
    /// names the tensor when the proto has no name.
    pub fn from_proto(
        proto: &TensorProto,
        folder: Option<&Path>,
        fallback_name: &str,
    ) -> Result<HostTensor> {
        let name = proto
            .name
            .clone()
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| fallback_name.to_string());
        let (dtype, exotic) = dtype::elem_from_onnx(proto.data_type.unwrap_or(0), &name)?;
        let shape = checked_shape(&name, &proto.dims, dtype)?;
        let n: usize = shape.iter().product();
        if let Some(x) = exotic {
            return HostTensor::from_exotic_proto(proto, folder, &name, x, shape);
        }
        let bytes = n * dtype.size();
        let bad = |message: String| Error::BadTensorData {
            tensor: name.clone(),
            message,
        };
        let external = proto.data_location == Some(DataLocation::External as i32);
        let data = if external {
            read_external(proto, folder, &name)?
        } else if let Some(raw) = &proto.raw_data {
            raw.clone()
        } else {
            let mut data = Vec::with_capacity(bytes);
            let count = match dtype {
                DType::F32 => {
                    proto
                        .float_data
                        .iter()
                        .for_each(|v| data.extend_from_slice(&v.to_le_bytes()));
                    proto.float_data.len()
                }
                DType::F64 => {
                    proto
                        .double_data
                        .iter()
                        .for_each(|v| data.extend_from_slice(&v.to_le_bytes()));
                    proto.double_data.len()
                }
                DType::I64 => {
                    proto
                        .int64_data
                        .iter()
                        .for_each(|v| data.extend_from_slice(&v.to_le_bytes()));
                    proto.int64_data.len()
                }
                DType::U32 | DType::U64 => {
                    for &v in &proto.uint64_data {
                        push_i64(&mut data, dtype, v as i64);
                    }
                    proto.uint64_data.len()
                }
                DType::F16 => {
                    // int32_data holds the 16-bit patterns
                    for &v in &proto.int32_data {
                        data.extend_from_slice(&(v as u16).to_le_bytes());
                    }
                    proto.int32_data.len()
                }
                DType::Bool | DType::I8 | DType::U8 | DType::I16 | DType::U16 | DType::I32 => {
                    for &v in &proto.int32_data {
                        push_i64(&mut data, dtype, v as i64);
                    }
                    proto.int32_data.len()
                }
            };
            if count != n {
                return Err(bad(format!(
                    "{count} values stored for shape {shape:?} ({n} elements)"
                )));
            }
            data
        };
        if data.len() != bytes {
            return Err(bad(format!(
                "{} bytes of data for shape {shape:?} of {} ({bytes} bytes)",
                data.len(),
                dtype.name()
            )));
        }
        let mut t = HostTensor {
            dtype,
            shape,
            data,
            exotic: None,
        };
        if dtype == DType::Bool {
            // any nonzero byte is true; tg stores 0 or 1
            t.data.iter_mut().for_each(|b| *b = (*b != 0) as u8);
        }
        Ok(t)
    }
}

impl HostTensor {
    /// Decodes a `TensorProto` of an exotic type into its storage dtype.
    fn from_exotic_proto(
        proto: &TensorProto,
        folder: Option<&Path>,
        name: &str,
        x: Exotic,
        shape: Vec<usize>,
    ) -> Result<HostTensor> {
        let n: usize = shape.iter().product();
        let bits = x.bits();
        let bytes: Vec<u8> = if proto.data_location == Some(DataLocation::External as i32) {
            read_external(proto, folder, name)?
        } else if let Some(raw) = &proto.raw_data {
            raw.clone()
        } else if bits == 16 {
            proto
                .int32_data
                .iter()
                .flat_map(|&v| (v as u16).to_le_bytes())
                .collect()
        } else {
            // one element (8-bit types) or one byte of packed elements per entry
            proto.int32_data.iter().map(|&v| v as u8).collect()
        };
        let values = x
            .decode_all(&bytes, n)
            .ok_or_else(|| Error::BadTensorData {
                tensor: name.to_string(),
                message: format!(
                    "{} bytes of {} data for shape {shape:?}",
                    bytes.len(),
                    x.name()
                ),
            })?;
        let mut t = HostTensor::from_f64s(x.storage(), &shape, &values);
        t.exotic = Some(x);
        Ok(t)
    }
}

/// Reads a tensor's external data: `location` relative to `folder` (no absolute paths, no
/// `..`), from `offset` for `length` bytes.
fn read_external(proto: &TensorProto, folder: Option<&Path>, name: &str) -> Result<Vec<u8>> {
    let mut location = None;
    let mut offset = 0u64;
    let mut length = None;
    let err = |location: &str, problem| Error::ExternalData {
        tensor: name.to_string(),
        location: location.to_string(),
        problem,
    };
    for kv in &proto.external_data {
        let key = kv.key.as_deref().unwrap_or("");
        let value = kv.value.as_deref().unwrap_or("");
        let number = || {
            value.parse::<u64>().map_err(|_| {
                err(
                    "",
                    ExternalDataProblem::BadKey(format!("{key} = {value:?} is not a number")),
                )
            })
        };
        match key {
            "location" => location = Some(value.to_string()),
            "offset" => offset = number()?,
            "length" => length = Some(number()?),
            _ => {}
        }
    }
    let location = location.ok_or_else(|| {
        err(
            "",
            ExternalDataProblem::BadKey("no location key".to_string()),
        )
    })?;
    let folder = folder.ok_or_else(|| err(&location, ExternalDataProblem::NoModelFolder))?;
    let rel = Path::new(&location);
    let confined = rel
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !confined || location.is_empty() {
        return Err(err(&location, ExternalDataProblem::OutsideModelFolder));
    }
    let path = folder.join(rel);
    // a symbolic link must not lead out of the folder either
    let unreadable =
        |e: std::io::Error| err(&location, ExternalDataProblem::Unreadable(e.to_string()));
    let real = path.canonicalize().map_err(unreadable)?;
    let real_folder = folder.canonicalize().map_err(unreadable)?;
    if !real.starts_with(&real_folder) {
        return Err(err(&location, ExternalDataProblem::OutsideModelFolder));
    }
    let mut file = File::open(&real).map_err(unreadable)?;
    let file_len = file.metadata().map_err(unreadable)?.len();
    let length = length.unwrap_or(file_len.saturating_sub(offset));
    let end = offset.checked_add(length);
    if end.is_none_or(|e| e > file_len) {
        return Err(err(
            &location,
            ExternalDataProblem::OutOfRange {
                offset,
                length,
                file_len,
            },
        ));
    }
    let mut data = vec![0u8; length as usize];
    file.seek(SeekFrom::Start(offset)).map_err(unreadable)?;
    file.read_exact(&mut data).map_err(unreadable)?;
    Ok(data)
}

/// One element's little-endian bytes (`dtype.size()` of them) as i64: floats truncated and
/// saturated (NaN to 0), u64 past i64::MAX wrapped.
fn i64_of(dtype: DType, b: &[u8]) -> i64 {
    let w = word(b);
    match dtype {
        DType::Bool | DType::U8 => w[0] as i64,
        DType::I8 => w[0] as i8 as i64,
        DType::I16 => i16::from_le_bytes([w[0], w[1]]) as i64,
        DType::U16 => u16::from_le_bytes([w[0], w[1]]) as i64,
        DType::I32 => i32::from_le_bytes([w[0], w[1], w[2], w[3]]) as i64,
        DType::U32 => u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as i64,
        DType::I64 | DType::U64 => i64::from_le_bytes(w),
        DType::F16 | DType::F32 | DType::F64 => {
            let f = f64_of(dtype, b);
            if f.is_nan() { 0 } else { f as i64 }
        }
    }
}

/// One element's little-endian bytes as f64.
fn f64_of(dtype: DType, b: &[u8]) -> f64 {
    let w = word(b);
    match dtype {
        DType::F16 => half::f16::from_le_bytes([w[0], w[1]]).to_f64(),
        DType::F32 => f32::from_le_bytes([w[0], w[1], w[2], w[3]]) as f64,
        DType::F64 => f64::from_le_bytes(w),
        DType::U64 => u64::from_le_bytes(w) as f64,
        _ => i64_of(dtype, b) as f64,
    }
}

/// Up to 8 bytes zero-extended to 8 (an element is never wider).
fn word(b: &[u8]) -> [u8; 8] {
    let mut w = [0u8; 8];
    let k = b.len().min(8);
    w[..k].copy_from_slice(&b[..k]);
    w
}

fn push_i64(data: &mut Vec<u8>, dtype: DType, v: i64) {
    match dtype {
        DType::Bool => data.push((v != 0) as u8),
        DType::I8 | DType::U8 => data.push(v as u8),
        DType::I16 | DType::U16 => data.extend_from_slice(&(v as u16).to_le_bytes()),
        DType::I32 | DType::U32 => data.extend_from_slice(&(v as u32).to_le_bytes()),
        DType::I64 | DType::U64 => data.extend_from_slice(&v.to_le_bytes()),
        DType::F16 => data.extend_from_slice(&half::f16::from_f64(v as f64).to_le_bytes()),
        DType::F32 => data.extend_from_slice(&(v as f32).to_le_bytes()),
        DType::F64 => data.extend_from_slice(&(v as f64).to_le_bytes()),
    }
}

fn push_f64(data: &mut Vec<u8>, dtype: DType, v: f64) {
    match dtype {
        DType::F16 => data.extend_from_slice(&half::f16::from_f64(v).to_le_bytes()),
        DType::F32 => data.extend_from_slice(&(v as f32).to_le_bytes()),
        DType::F64 => data.extend_from_slice(&v.to_le_bytes()),
        DType::Bool => data.push((v != 0.0) as u8),
        DType::U64 => data.extend_from_slice(&(v as u64).to_le_bytes()),
        // Rust's `as` saturates and sends NaN to 0 (tg's float-to-integer rule), then wraps
        _ => push_i64(data, dtype, dtype.saturate_float(v) as i64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_overflow_is_an_error() {
        assert!(matches!(
            checked_shape("w", &[1 << 40, 1 << 40], DType::F32),
            Err(Error::DimOverflow { .. })
        ));
        assert!(matches!(
            checked_shape("w", &[-1, 3], DType::F32),
            Err(Error::DimOverflow { .. })
        ));
        assert_eq!(checked_shape("w", &[2, 0], DType::F32).unwrap(), vec![2, 0]);
    }

    #[test]
    fn reads_past_the_end_are_none() {
        let t = HostTensor::from_i64s(DType::I32, &[2], &[7, -8]);
        assert_eq!((t.get_i64(1), t.get_f64(1)), (Some(-8), Some(-8.0)));
        assert_eq!((t.get_i64(2), t.get_f64(usize::MAX)), (None, None));
        let empty = HostTensor::zeros(DType::I64, &[0]);
        assert_eq!(empty.get_i64(0), None);
        // data shorter than the shape claims: the getters and lists stop at the data
        let short = HostTensor {
            data: vec![1, 0, 0, 0],
            ..HostTensor::zeros(DType::I32, &[3])
        };
        assert_eq!((short.get_i64(1), short.to_i64s()), (None, vec![1]));
    }

    #[test]
    fn decodes_typed_fields_and_refuses_short_data() {
        let p = TensorProto {
            dims: vec![3],
            data_type: Some(dtype::to_onnx(DType::I8)),
            int32_data: vec![-1, 2, 3],
            ..Default::default()
        };
        let t = HostTensor::from_proto(&p, None, "x").unwrap();
        assert_eq!(t.to_i64s(), vec![-1, 2, 3]);
        let short = TensorProto {
            dims: vec![4],
            ..p.clone()
        };
        assert!(matches!(
            HostTensor::from_proto(&short, None, "x"),
            Err(Error::BadTensorData { .. })
        ));
    }

    #[test]
    fn external_data_is_confined() {
        let p = |loc: &str| TensorProto {
            dims: vec![1],
            data_type: Some(dtype::to_onnx(DType::F32)),
            data_location: Some(DataLocation::External as i32),
            external_data: vec![crate::proto::StringStringEntryProto {
                key: Some("location".into()),
                value: Some(loc.into()),
            }],
            ..Default::default()
        };
        let dir = std::env::temp_dir();
        for loc in ["../w.bin", "/etc/passwd", "a/../../w.bin"] {
            assert!(matches!(
                HostTensor::from_proto(&p(loc), Some(&dir), "w"),
                Err(Error::ExternalData {
                    problem: ExternalDataProblem::OutsideModelFolder,
                    ..
                })
            ));
        }
        assert!(matches!(
            HostTensor::from_proto(&p("no-such-file.bin"), Some(&dir), "w"),
            Err(Error::ExternalData {
                problem: ExternalDataProblem::Unreadable(_),
                ..
            })
        ));
        assert!(matches!(
            HostTensor::from_proto(&p("w.bin"), None, "w"),
            Err(Error::ExternalData {
                problem: ExternalDataProblem::NoModelFolder,
                ..
            })
        ));
    }
}

/// A value of test data or of a model's input or output: a tensor, a sequence, or an
/// optional value.
#[derive(Clone, Debug, PartialEq)]
pub enum HostValue {
    /// A tensor.
    Tensor(HostTensor),
    /// A sequence.
    Sequence(Vec<HostValue>),
    /// An optional value.
    Optional(Option<Box<HostValue>>),
}

impl HostValue {
    /// Decodes a serialized value of `kind` (`TensorProto`, `SequenceProto` or
    /// `OptionalProto`); `what` names it for errors.
    pub fn decode(bytes: &[u8], kind: &crate::model::ValueKind, what: &str) -> Result<HostValue> {
        use crate::model::ValueKind;
        use crate::proto::{OptionalProto, SequenceProto};
        let malformed = |e: prost::DecodeError| Error::Malformed {
            what: what.to_string(),
            message: e.to_string(),
        };
        Ok(match kind {
            ValueKind::Tensor => HostValue::Tensor(HostTensor::decode(bytes, what)?),
            ValueKind::Sequence(_) => {
                let s = SequenceProto::decode(bytes).map_err(malformed)?;
                HostValue::from_sequence(&s, what)?
            }
            ValueKind::Optional(_) => {
                let o = OptionalProto::decode(bytes).map_err(malformed)?;
                HostValue::from_optional(&o, what)?
            }
        })
    }

    fn from_sequence(s: &crate::proto::SequenceProto, what: &str) -> Result<HostValue> {
        let mut items = Vec::new();
        for t in &s.tensor_values {
            items.push(HostValue::Tensor(HostTensor::from_proto(t, None, what)?));
        }
        for inner in &s.sequence_values {
            items.push(HostValue::from_sequence(inner, what)?);
        }
        for o in &s.optional_values {
            items.push(HostValue::from_optional(o, what)?);
        }
        Ok(HostValue::Sequence(items))
    }

    fn from_optional(o: &crate::proto::OptionalProto, what: &str) -> Result<HostValue> {
        let inner = if let Some(t) = &o.tensor_value {
            Some(HostValue::Tensor(HostTensor::from_proto(t, None, what)?))
        } else if let Some(s) = &o.sequence_value {
            Some(HostValue::from_sequence(s, what)?)
        } else if let Some(inner) = &o.optional_value {
            Some(HostValue::from_optional(inner, what)?)
        } else {
            None
        };
        Ok(HostValue::Optional(inner.map(Box::new)))
    }
}
