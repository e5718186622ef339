//! ONNX's element type codes (`TensorProto.DataType`) and tg's dtypes.

use tg_core::DType;

use crate::error::{Error, Result};
use crate::exotic::Exotic;
use crate::proto::tensor_proto::DataType;

/// The tg dtype of an ONNX element type code; `tensor` names the value for the error.
pub fn from_onnx(code: i32, tensor: &str) -> Result<DType> {
    let dt = DataType::try_from(code).ok();
    Ok(match dt {
        Some(DataType::Float) => DType::F32,
        Some(DataType::Uint8) => DType::U8,
        Some(DataType::Int8) => DType::I8,
        Some(DataType::Uint16) => DType::U16,
        Some(DataType::Int16) => DType::I16,
        Some(DataType::Int32) => DType::I32,
        Some(DataType::Int64) => DType::I64,
        Some(DataType::Bool) => DType::Bool,
        Some(DataType::Float16) => DType::F16,
        Some(DataType::Double) => DType::F64,
        Some(DataType::Uint32) => DType::U32,
        Some(DataType::Uint64) => DType::U64,
        _ => {
            return Err(Error::UnsupportedDType {
                tensor: tensor.to_string(),
                code,
                name: dt
                    .map(|d| d.as_str_name().to_string())
                    .unwrap_or_else(|| "unknown".to_string()),
            });
        }
    })
}

/// The storage dtype of an ONNX element type code, and its exotic type when tg holds it in a
/// wider dtype (see [`crate::exotic`]).
pub fn elem_from_onnx(code: i32, tensor: &str) -> Result<(DType, Option<Exotic>)> {
    match from_onnx(code, tensor) {
        Ok(d) => Ok((d, None)),
        Err(e) => match Exotic::from_onnx(code) {
            Some(x) => Ok((x.storage(), Some(x))),
            None => Err(e),
        },
    }
}

/// The ONNX element type code of a tg dtype.
pub fn to_onnx(dtype: DType) -> i32 {
    (match dtype {
        DType::F32 => DataType::Float,
        DType::U8 => DataType::Uint8,
        DType::I8 => DataType::Int8,
        DType::U16 => DataType::Uint16,
        DType::I16 => DataType::Int16,
        DType::I32 => DataType::Int32,
        DType::I64 => DataType::Int64,
        DType::Bool => DataType::Bool,
        DType::F16 => DataType::Float16,
        DType::F64 => DataType::Double,
        DType::U32 => DataType::Uint32,
        DType::U64 => DataType::Uint64,
    }) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_dtype() {
        for d in DType::ALL {
            assert_eq!(from_onnx(to_onnx(d), "t").unwrap(), d);
        }
    }

    #[test]
    fn refuses_strings_and_bfloat16() {
        for code in [DataType::String as i32, DataType::Bfloat16 as i32, 99] {
            assert!(matches!(
                from_onnx(code, "t"),
                Err(Error::UnsupportedDType { code: c, .. }) if c == code
            ));
        }
    }
}
