//! The one error type of tg. Device, memory, compile and I/O boundaries return it; shape and
//! argument errors that only a run can see return it from the `try_` forms of the ops.
//!
//! One variant per kind of mistake, with the values involved as fields, so that callers and
//! tests match on what went wrong instead of on message text. `Display` writes the message a
//! user reads. A broken invariant of tg itself is [`Error::Internal`], never a shape error.

use std::sync::Arc;

use crate::dtype::DType;

/// Everything that can go wrong in tg, with enough context to act on it.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    /// No Vulkan loader could be opened, or it reported no device.
    #[error("no Vulkan available: {reason}. {hint}")]
    NoVulkan {
        /// What failed (the loader, instance creation, enumeration).
        reason: String,
        /// What to install or set to fix it.
        hint: String,
    },

    /// `TG_DEVICE` named a device that is not there.
    #[error("TG_DEVICE={wanted:?} matches no Vulkan device; available: {available}")]
    DeviceNotFound {
        /// The value of `TG_DEVICE`.
        wanted: String,
        /// The devices that are there, one per index.
        available: String,
    },

    /// A Vulkan call failed.
    #[error("Vulkan call {call} failed: {result}")]
    Vulkan {
        /// The Vulkan function.
        call: &'static str,
        /// The `VkResult` it returned.
        result: String,
    },

    /// The Khronos validation layer reported problems during a call.
    #[error("Vulkan validation reported {} message(s):\n{}", messages.len(), messages.join("\n"))]
    Validation {
        /// The layer's messages, in order.
        messages: Vec<String>,
    },

    /// A buffer larger than the device can bind as one storage buffer.
    #[error(
        "buffer of {bytes} bytes exceeds this device's maximum storage-buffer range of {max} bytes"
    )]
    BufferTooLarge {
        /// Bytes asked for.
        bytes: u64,
        /// `maxStorageBufferRange`.
        max: u64,
    },

    /// Device memory could not be allocated, or a request is larger than the memory heap
    /// tg allocates from. Checked by tg before the driver sees the request: on Linux a
    /// driver's allocation can succeed by overcommit and fail later.
    #[error(
        "out of device memory: {bytes} bytes asked, the heap holds {heap} bytes ({in_use} in use by tg): {reason}"
    )]
    OutOfMemory {
        /// Bytes asked for.
        bytes: u64,
        /// Size of the heap the buffer would come from.
        heap: u64,
        /// Bytes tg's live buffers hold in that heap.
        in_use: u64,
        /// The driver's or allocator's answer, or tg's own check.
        reason: String,
    },

    /// shaderc rejected generated GLSL; a bug in tg's codegen, so the source is kept.
    #[error("shader compilation failed: {message}\n--- source ---\n{source_text}")]
    Compile {
        /// shaderc's message.
        message: String,
        /// The GLSL that failed.
        source_text: String,
    },

    /// A kernel's SPIR-V is in no installed bundle, and this build cannot compile it (the
    /// `compiler` feature is off, or `TG_BUNDLE_ONLY` is set). Record a bundle on a machine
    /// with the compiler, running the same program on a device with the same features.
    #[error(
        "kernel {kernel} is not in the SPIR-V bundle (key {key}; {entries} kernel(s) installed{}): {hint}",
        if *compiler { "" } else { ", no compiler in this build" }
    )]
    KernelNotInBundle {
        /// The kernel's name (what `TG_DEBUG=1` prints), or the caller of `compile_glsl`.
        kernel: String,
        /// The bundle key that missed, 32 hex digits (what `tg-bundle list` prints).
        key: String,
        /// Kernels in the installed bundles together.
        entries: usize,
        /// Whether this build has the compiler (then `TG_BUNDLE_ONLY` refused to use it).
        compiler: bool,
        /// What to do about it.
        hint: &'static str,
    },

    /// Bytes given as a bundle are not one: another file, a truncated copy, a flipped bit.
    #[error("not a valid tg SPIR-V bundle ({origin}): {reason}")]
    BundleInvalid {
        /// Where the bytes came from (a path, `TG_BUNDLE`, `include_bytes!`).
        origin: String,
        /// What did not check out.
        reason: String,
    },

    /// A bundle of another format version: made by an older or newer tg.
    #[error(
        "SPIR-V bundle {origin} has format version {found}; this tg reads version {supported}: record it again with this tg's tg-bundle"
    )]
    BundleVersion {
        /// Where the bytes came from.
        origin: String,
        /// The file's version.
        found: u32,
        /// The version this tg reads and writes.
        supported: u32,
    },

    /// The device lacks a feature that an operation needs (f64, i64, ...).
    #[error("{what} needs the device feature {feature}, which {device} does not have")]
    Unsupported {
        /// What needed it.
        what: String,
        /// The Vulkan feature's name.
        feature: &'static str,
        /// The device's name.
        device: String,
    },

    /// An op was given tensors (or buffers, pipelines) of two devices: copy one with `.to`.
    #[error("{op}: one operand is on {first}, another on {second}; move one with .to(&device)")]
    DeviceMismatch {
        /// The op.
        op: &'static str,
        /// One device ("name #id").
        first: String,
        /// The other.
        second: String,
    },

    /// A tensor's device was closed (its last handle dropped) before the tensor was computed.
    #[error("{device} is closed: keep a handle to a device while its tensors are used")]
    DeviceClosed {
        /// The device ("name #id").
        device: String,
    },

    /// `Device::close` found the device still held.
    #[error(
        "{device} is still in use: {handles} other handle(s) and {buffers} buffer(s) of realized tensors hold it"
    )]
    DeviceInUse {
        /// The device ("name #id").
        device: String,
        /// Other handles to it.
        handles: usize,
        /// Its buffers still alive (realized tensors, imported buffers).
        buffers: usize,
    },

    /// An axis outside `-rank..rank`.
    #[error("{op}: axis {axis} is out of range for shape {shape:?} (rank {})", shape.len())]
    AxisOutOfRange {
        /// The op that was given the axis.
        op: &'static str,
        /// The axis as given (negative axes count from the end).
        axis: isize,
        /// The shape it indexes.
        shape: Vec<usize>,
    },

    /// An axis listed twice where each may appear once.
    #[error("{op}: axis {axis} is listed twice in {axes:?}")]
    DuplicateAxis {
        /// The op.
        op: &'static str,
        /// The repeated axis.
        axis: isize,
        /// The whole list as given.
        axes: Vec<isize>,
    },

    /// Shapes that do not broadcast together (numpy's rule: equal, or one of them 1).
    #[error("{op}: shapes {lhs:?} and {rhs:?} do not broadcast")]
    Broadcast {
        /// The op.
        op: &'static str,
        /// The first shape.
        lhs: Vec<usize>,
        /// The second shape (or the target of an expand).
        rhs: Vec<usize>,
    },

    /// Two shapes whose element counts must agree and do not (reshape, from_slice).
    #[error(
        "{op}: {from:?} has {from_numel} element(s), {to:?} has {to_numel}",
        from_numel = numel_text(from),
        to_numel = numel_text(to)
    )]
    NumelMismatch {
        /// The op.
        op: &'static str,
        /// The shape of what is there (for data given on the host, its length as `[len]`).
        from: Vec<usize>,
        /// The shape asked for.
        to: Vec<usize>,
    },

    /// A shape whose element count or byte size does not fit in 64 bits.
    #[error("{op}: the shape {shape:?} has more elements than 2^64 bytes can hold")]
    SizeOverflow {
        /// The op that built the shape.
        op: &'static str,
        /// The shape, as asked for.
        shape: Vec<usize>,
    },

    /// A tensor with more elements than tg can index in one kernel.
    #[error("{op}: {shape:?} has {numel} elements; tg indexes at most {max} per tensor")]
    TooManyElements {
        /// The op (or `realize`).
        op: &'static str,
        /// The shape.
        shape: Vec<usize>,
        /// Its element count.
        numel: u64,
        /// The limit.
        max: u64,
    },

    /// One item per axis was expected (a permutation, pad pairs, shrink ranges) and the count
    /// is not the rank.
    #[error("{op}: {given} {what} for shape {shape:?} of rank {}", shape.len())]
    RankMismatch {
        /// The op.
        op: &'static str,
        /// What was given, plural (`"axes given"`, `"(before, after) pairs"`).
        what: &'static str,
        /// How many were given.
        given: usize,
        /// The tensor's shape.
        shape: Vec<usize>,
    },

    /// A tensor of too low a rank for the op (`t`, `diagonal`, `tril` need two axes).
    #[error("{op}: needs rank {min} or more, shape {shape:?} has rank {}", shape.len())]
    RankTooLow {
        /// The op.
        op: &'static str,
        /// The least rank it takes.
        min: usize,
        /// The tensor's shape.
        shape: Vec<usize>,
    },

    /// Any other shape an op cannot work with.
    #[error("{op}: {message}")]
    Shape {
        /// The op.
        op: &'static str,
        /// What is wrong, naming the shapes.
        message: String,
    },

    /// An op was given an argument it cannot work with.
    #[error("{op}: {message}")]
    Argument {
        /// The op.
        op: &'static str,
        /// What is wrong, naming the value.
        message: String,
    },

    /// A dtype that an op does not allow.
    #[error("{op}: dtype {dtype} is not supported: {message}")]
    DType {
        /// The op.
        op: &'static str,
        /// The dtype it was given.
        dtype: DType,
        /// What it takes instead.
        message: String,
    },

    /// Two dtypes that must agree and do not (operands of a primitive, a bitcast's sizes).
    #[error("{op}: dtypes {lhs} and {rhs} do not fit together: {message}")]
    DTypeMismatch {
        /// The op.
        op: &'static str,
        /// The first dtype (or the source of a conversion).
        lhs: DType,
        /// The second dtype (or the target).
        rhs: DType,
        /// What the op needs.
        message: String,
    },

    /// Reading or writing a cache or data file.
    #[error("I/O error on {path}: {message}")]
    Io {
        /// The file or folder.
        path: String,
        /// The operating system's message.
        message: String,
    },

    /// A broken invariant inside tg: a bug to report, never the caller's mistake.
    #[error("internal error in tg ({context}): {message}; please report this")]
    Internal {
        /// The component where the invariant broke.
        context: &'static str,
        /// What was found.
        message: String,
    },

    /// A failure shared between threads that waited for the same result.
    #[error("{0}")]
    Shared(Arc<Error>),
}

impl From<tg_core::RuleError<usize>> for Error {
    /// A shape rule's error (tg-core) as the variant of the same kind.
    fn from(e: tg_core::RuleError<usize>) -> Self {
        use tg_core::RuleError as R;
        match e {
            R::AxisOutOfRange {
                op, axis, shape, ..
            } => Error::AxisOutOfRange { op, axis, shape },
            R::DuplicateAxis { op, axis, axes } => Error::DuplicateAxis { op, axis, axes },
            R::Broadcast { op, lhs, rhs, .. } => Error::Broadcast { op, lhs, rhs },
            R::NumelMismatch { op, from, to } => Error::NumelMismatch { op, from, to },
            R::SizeOverflow { op, shape } => Error::SizeOverflow { op, shape },
            R::RankMismatch {
                op,
                what,
                given,
                shape,
            } => Error::RankMismatch {
                op,
                what,
                given,
                shape,
            },
            R::RankTooLow { op, min, shape } => Error::RankTooLow { op, min, shape },
            R::Shape { op, message } => Error::Shape { op, message },
            R::Argument { op, message } => Error::Argument { op, message },
            R::DType { op, dtype, message } => Error::DType { op, dtype, message },
        }
    }
}

fn numel_text(shape: &[usize]) -> String {
    match shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)) {
        Some(n) => n.to_string(),
        None => "more than 2^64".into(),
    }
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

    /// A broken invariant of `context`.
    pub fn internal(context: &'static str, message: impl Into<String>) -> Self {
        Error::Internal {
            context,
            message: message.into(),
        }
    }

    /// The error itself, looking through [`Error::Shared`].
    pub fn root(&self) -> &Error {
        match self {
            Error::Shared(e) => e.root(),
            e => e,
        }
    }
}

/// The element count of `shape`, or [`Error::SizeOverflow`] naming `op` when it does not fit.
pub fn checked_numel(op: &'static str, shape: &[usize]) -> Result<usize> {
    shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| Error::SizeOverflow {
            op,
            shape: shape.to_vec(),
        })
}
