//! Errors of GGUF reading and of the models built on it: one variant per kind of mistake, with
//! the values involved. A damaged file is always one of these, never a panic.

use crate::GgmlType;

/// What went wrong reading or using a GGUF file.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The file could not be opened, mapped or read.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// The system's message.
        message: String,
    },
    /// The file does not start with `GGUF`.
    #[error("not a GGUF file: magic {found:02x?} (expected \"GGUF\")")]
    BadMagic {
        /// The first four bytes.
        found: [u8; 4],
    },
    /// A GGUF version other than 2 and 3 (1 had 32-bit counts; a byte-swapped file reads as a
    /// huge version).
    #[error("GGUF version {version} is not supported (2 and 3 are)")]
    UnsupportedVersion {
        /// The version field.
        version: u32,
    },
    /// The file ends inside something it declares.
    #[error("truncated file: {what} needs {needed} bytes at offset {offset}, the file has {len}")]
    Truncated {
        /// What was being read (`"header"`, `"metadata key #3"`, `"tensor info #2"`, ...).
        what: String,
        /// Where it starts.
        offset: u64,
        /// Bytes it needs.
        needed: u64,
        /// The file's length.
        len: u64,
    },
    /// A count (tensors, keys, array items, string bytes, dimensions) that cannot fit the file
    /// or overflows.
    #[error("{what}: count {count} is impossible (at most {limit})")]
    CountTooLarge {
        /// What was counted.
        what: String,
        /// The count read.
        count: u64,
        /// The most the rest of the file could hold.
        limit: u64,
    },
    /// A string that is not UTF-8.
    #[error("{what}: the string at offset {offset} is not UTF-8")]
    InvalidString {
        /// Where it was read.
        what: String,
        /// Its offset.
        offset: u64,
    },
    /// A metadata value type id the format does not define.
    #[error("metadata key {key:?}: unknown value type {type_id}")]
    UnknownValueType {
        /// The key.
        key: String,
        /// The type id read.
        type_id: u32,
    },
    /// A key that appears twice.
    #[error("metadata key {key:?} appears twice")]
    DuplicateKey {
        /// The key.
        key: String,
    },
    /// `general.alignment` that is zero, not a power of two, or not a u32.
    #[error("general.alignment {alignment} is not a power of two")]
    BadAlignment {
        /// The value read.
        alignment: u64,
    },
    /// A tensor type id ggml does not define (its block size is unknown, so its bytes cannot
    /// even be located).
    #[error("tensor {tensor:?}: unknown ggml type {type_id}")]
    UnknownTensorType {
        /// The tensor.
        tensor: String,
        /// The type id read.
        type_id: u32,
    },
    /// A known ggml type tg does not decode (IQ, ternary, Q2_K, Q3_K, ...).
    #[error(
        "tensor {tensor:?}: type {ty:?} is not supported by tg (F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q4_K, Q5_K, Q6_K are)"
    )]
    UnsupportedTensorType {
        /// The tensor.
        tensor: String,
        /// Its type.
        ty: GgmlType,
    },
    /// A tensor whose dimensions are impossible: rank 0 or above 4, a zero dimension, an element
    /// count or byte size that overflows, or rows that are not whole blocks.
    #[error("tensor {tensor:?}: dimensions {dims:?}: {message}")]
    TensorShape {
        /// The tensor.
        tensor: String,
        /// Its dimensions as the file gives them (innermost first).
        dims: Vec<u64>,
        /// What is wrong.
        message: String,
    },
    /// A tensor whose bytes lie past the end of the file.
    #[error(
        "tensor {tensor:?}: {bytes} bytes at data offset {offset} end past the data section ({data_len} bytes)"
    )]
    TensorOutOfBounds {
        /// The tensor.
        tensor: String,
        /// Its offset within the data section.
        offset: u64,
        /// Its size in bytes.
        bytes: u64,
        /// The data section's length.
        data_len: u64,
    },
    /// A tensor offset that is not a multiple of the file's alignment.
    #[error(
        "tensor {tensor:?}: data offset {offset} is not a multiple of the alignment {alignment}"
    )]
    Misaligned {
        /// The tensor.
        tensor: String,
        /// Its offset.
        offset: u64,
        /// The file's alignment.
        alignment: u64,
    },
    /// Two tensors with one name.
    #[error("tensor {tensor:?} appears twice")]
    DuplicateTensor {
        /// The name.
        tensor: String,
    },
    /// Two tensors whose bytes overlap.
    #[error("tensors {first:?} and {second:?} overlap in the data section")]
    OverlappingTensors {
        /// One tensor.
        first: String,
        /// The other.
        second: String,
    },
    /// A tensor a model needs is not in the file.
    #[error("tensor {tensor:?} is missing")]
    MissingTensor {
        /// The name.
        tensor: String,
    },
    /// A tensor whose shape is not what the model's hyperparameters say.
    #[error("tensor {tensor:?} has shape {found:?}, the model needs {expected:?}")]
    WrongShape {
        /// The tensor.
        tensor: String,
        /// Its logical shape (outermost first).
        found: Vec<usize>,
        /// What the model expects.
        expected: Vec<usize>,
    },
    /// A metadata key a model needs is not in the file.
    #[error("metadata key {key:?} is missing")]
    MissingKey {
        /// The key.
        key: String,
    },
    /// A metadata value of another type or out of range.
    #[error("metadata key {key:?}: {message}")]
    BadValue {
        /// The key.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// Something the file asks for that tg does not implement (an architecture, a RoPE
    /// scaling, a tokenizer model).
    #[error("not supported: {what}")]
    Unsupported {
        /// What.
        what: String,
    },
    /// Text or token ids the tokenizer cannot handle.
    #[error("tokenizer: {message}")]
    Tokenizer {
        /// What is wrong.
        message: String,
    },
    /// A bad argument of the API (a prompt longer than the context, an empty prompt, ...).
    #[error("{op}: {message}")]
    Argument {
        /// The call.
        op: &'static str,
        /// What is wrong.
        message: String,
    },
    /// A broken invariant inside tg-gguf: a bug to report, never the file's or the caller's
    /// mistake.
    #[error("internal error in tg-gguf ({context}): {message}; please report this")]
    Internal {
        /// The component where the invariant broke.
        context: &'static str,
        /// What was found.
        message: String,
    },
    /// An error of tg's runtime (device, memory, kernels).
    #[error(transparent)]
    Runtime(#[from] tg_runtime::Error),
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
