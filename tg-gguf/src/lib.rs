//! GGUF files for tg: the container (header, metadata, tensor table, through a memory map,
//! every damage a typed [`Error`] naming the tensor), host dequantization of every supported
//! type, and [`QTensor`]: a tensor kept in its quantized form on the device whose f32 values
//! are a lazy tg expression over the packed bytes, so the kernel that reads them (a
//! matrix-vector product) unpacks them as it goes, as it would apply a cast.
//!
//! Supported types: F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K.

mod decode;
mod error;
mod file;
mod ggml_type;
pub mod host;
pub mod layout;
mod metadata;
pub mod npy;
mod qtensor;

pub use error::{Error, Result};
pub use file::{DEFAULT_ALIGNMENT, GgufFile, MAX_DIMS, TensorInfo};
pub use ggml_type::{GgmlType, QK_K};
pub use layout::Layout;
pub use metadata::{Metadata, Value};
pub use qtensor::QTensor;
pub mod llm;
