//! numpy's `.npy` files (through the `npyz` crate) as [`HostTensor`]s, for the `tg-onnx`
//! tool's `run` command.

use std::io::{Read, Write};
use std::path::Path;

use half::f16;
use npyz::WriterBuilder;
use tg_onnx_format::{DType, Error, HostTensor, Result};

fn data_error(path: &Path, message: impl Into<String>) -> Error {
    Error::Data {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// Reads a C-order `.npy` file of one of tg's dtypes.
pub fn read(path: &Path) -> Result<HostTensor> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| Error::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    let file = npyz::NpyFile::new(&bytes[..]).map_err(|e| data_error(path, e.to_string()))?;
    if file.order() != npyz::Order::C && file.shape().len() > 1 {
        return Err(data_error(path, "Fortran-order arrays are not supported"));
    }
    let shape: Vec<usize> = file.shape().iter().map(|&d| d as usize).collect();
    let descr = file.dtype().descr();
    let kind = descr.trim_start_matches(['<', '|', '=']);
    if descr.starts_with('>') {
        return Err(data_error(
            path,
            format!("big-endian dtype {descr} is not supported"),
        ));
    }
    macro_rules! read_as {
        ($t:ty, $dt:expr) => {{
            let v: Vec<$t> = file
                .into_vec()
                .map_err(|e| data_error(path, e.to_string()))?;
            let mut data = Vec::with_capacity(v.len() * $dt.size());
            for x in v {
                data.extend_from_slice(&x.to_le_bytes());
            }
            HostTensor {
                dtype: $dt,
                shape,
                data,
                exotic: None,
            }
        }};
    }
    let t = match kind {
        "b1" => {
            let v: Vec<bool> = file
                .into_vec()
                .map_err(|e| data_error(path, e.to_string()))?;
            HostTensor {
                dtype: DType::Bool,
                shape,
                data: v.into_iter().map(u8::from).collect(),
                exotic: None,
            }
        }
        "i1" => read_as!(i8, DType::I8),
        "u1" => read_as!(u8, DType::U8),
        "i2" => read_as!(i16, DType::I16),
        "u2" => read_as!(u16, DType::U16),
        "i4" => read_as!(i32, DType::I32),
        "u4" => read_as!(u32, DType::U32),
        "i8" => read_as!(i64, DType::I64),
        "u8" => read_as!(u64, DType::U64),
        "f2" => read_as!(f16, DType::F16),
        "f4" => read_as!(f32, DType::F32),
        "f8" => read_as!(f64, DType::F64),
        _ => return Err(data_error(path, format!("dtype {descr} is not supported"))),
    };
    if t.data.len() != t.numel() * t.dtype.size() {
        return Err(data_error(path, "the data does not fill the shape"));
    }
    Ok(t)
}

/// Writes a tensor as a C-order `.npy` file.
pub fn write(path: &Path, t: &HostTensor) -> Result<()> {
    let io = |e: std::io::Error| Error::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let mut out = Vec::new();
    let shape: Vec<u64> = t.shape.iter().map(|&d| d as u64).collect();
    macro_rules! write_as {
        ($t:ty, $n:expr) => {{
            let mut w = npyz::WriteOptions::<$t>::new()
                .default_dtype()
                .shape(&shape)
                .writer(&mut out)
                .begin_nd()
                .map_err(io)?;
            for c in t.data.chunks_exact($n) {
                w.push(&<$t>::from_le_bytes(c.try_into().unwrap_or_default()))
                    .map_err(io)?;
            }
            w.finish().map_err(io)?;
        }};
    }
    match t.dtype {
        DType::Bool => {
            let mut w = npyz::WriteOptions::<bool>::new()
                .default_dtype()
                .shape(&shape)
                .writer(&mut out)
                .begin_nd()
                .map_err(io)?;
            for &b in &t.data {
                w.push(&(b != 0)).map_err(io)?;
            }
            w.finish().map_err(io)?;
        }
        DType::I8 => write_as!(i8, 1),
        DType::U8 => write_as!(u8, 1),
        DType::I16 => write_as!(i16, 2),
        DType::U16 => write_as!(u16, 2),
        DType::I32 => write_as!(i32, 4),
        DType::U32 => write_as!(u32, 4),
        DType::I64 => write_as!(i64, 8),
        DType::U64 => write_as!(u64, 8),
        DType::F16 => write_as!(f16, 2),
        DType::F32 => write_as!(f32, 4),
        DType::F64 => write_as!(f64, 8),
    }
    std::fs::File::create(path)
        .and_then(|mut f| f.write_all(&out))
        .map_err(io)
}
