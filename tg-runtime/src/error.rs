//! The one error type of tg. Device, memory, compile and I/O boundaries return it; shape and
//! argument errors that only a run can see return it from the `try_` forms of the ops.

use std::sync::Arc;

/// Everything that can go wrong in tg, with enough context to act on it.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    /// No Vulkan loader could be opened, or it reported no device.
    #[error("no Vulkan available: {reason}. {hint}")]
    NoVulkan { reason: String, hint: String },

    /// `TG_DEVICE` named a device that is not there.
    #[error("TG_DEVICE={wanted:?} matches no Vulkan device; available: {available}")]
    DeviceNotFound { wanted: String, available: String },

    /// A Vulkan call failed.
    #[error("Vulkan call {call} failed: {result}")]
    Vulkan { call: &'static str, result: String },

    /// The Khronos validation layer reported problems during a call.
    #[error("Vulkan validation reported {} message(s):\n{}", messages.len(), messages.join("\n"))]
    Validation { messages: Vec<String> },

    /// A buffer larger than the device can bind as one storage buffer.
    #[error(
        "buffer of {bytes} bytes exceeds this device's maximum storage-buffer range of {max} bytes"
    )]
    BufferTooLarge { bytes: u64, max: u64 },

    /// Device memory could not be allocated.
    #[error("out of device memory allocating {bytes} bytes: {reason}")]
    OutOfMemory { bytes: u64, reason: String },

    /// shaderc rejected generated GLSL; a bug in tg's codegen, so the source is kept.
    #[error("shader compilation failed: {message}\n--- source ---\n{source_text}")]
    Compile {
        message: String,
        source_text: String,
    },

    /// The device lacks a feature that an operation needs (f64, i64, ...).
    #[error("{what} needs the device feature {feature}, which {device} does not have")]
    Unsupported {
        what: String,
        feature: &'static str,
        device: String,
    },

    /// An op was given shapes it cannot work with.
    #[error("{op}: {message}")]
    Shape { op: &'static str, message: String },

    /// An op was given an argument it cannot work with.
    #[error("{op}: {message}")]
    Argument { op: &'static str, message: String },

    /// A dtype that an op does not allow.
    #[error("{op}: dtype {dtype} is not supported: {message}")]
    DType {
        op: &'static str,
        dtype: String,
        message: String,
    },

    /// Reading or writing a cache or data file.
    #[error("I/O error on {path}: {message}")]
    Io { path: String, message: String },

    /// A failure shared between threads that waited for the same result.
    #[error("{0}")]
    Shared(Arc<Error>),
}

/// tg's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Wraps an `ash` result code with the name of the call that returned it.
    pub fn vk(call: &'static str, result: ash::vk::Result) -> Self {
        Error::Vulkan {
            call,
            result: format!("{result:?}"),
        }
    }

    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl AsRef<std::path::Path>, err: std::io::Error) -> Self {
        Error::Io {
            path: path.as_ref().display().to_string(),
            message: err.to_string(),
        }
    }
}
