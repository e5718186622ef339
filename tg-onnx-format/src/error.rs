//! Every way an ONNX model or a call of it can be wrong: one variant per kind of mistake, with
//! the names and values involved as fields, so that tests (and callers) match on them.

use std::path::PathBuf;

use tg_core::DType;

use crate::model::Dim;

/// The result of loading, checking or running a model.
pub type Result<T> = std::result::Result<T, Error>;

/// Why an external-data reference cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExternalDataProblem {
    /// The location is absolute, or climbs out of the model's folder (`..`).
    OutsideModelFolder,
    /// The model was read from bytes, so there is no folder to resolve the location in.
    NoModelFolder,
    /// The file does not exist or cannot be read.
    Unreadable(String),
    /// `offset + length` runs past the end of the file.
    OutOfRange {
        /// The `offset` key (0 when absent).
        offset: u64,
        /// The `length` key (the rest of the file when absent).
        length: u64,
        /// The file's size.
        file_len: u64,
    },
    /// A key's value is not a number, or the `location` key is missing.
    BadKey(String),
}

/// What went wrong. Fields name the node (its name, or `OpType#index` when it has none), the op,
/// the tensor, and the shapes, dtypes or values at fault.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A model file could not be read.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// The bytes are not a valid protobuf message of the expected kind (a truncated or
    /// corrupted file).
    #[error("malformed {what}: {message}")]
    Malformed {
        /// What was being decoded (`model`, `tensor input_0.pb`).
        what: String,
        /// The decoder's message.
        message: String,
    },
    /// The model has no graph.
    #[error("the model has no graph")]
    NoGraph,
    /// The model imports no version of the default domain, or one tg does not implement.
    #[error("opset {version} of domain {domain:?} is not supported (tg implements {min}..={max})")]
    UnsupportedOpset {
        /// The domain (`""` is the default domain).
        domain: String,
        /// The version the model imports (0 when it imports none).
        version: i64,
        /// The oldest version tg implements.
        min: u32,
        /// The newest.
        max: u32,
    },
    /// A node of an operator tg does not implement (another domain, an op whose meaning tg's
    /// op set cannot express, or one left out: see the README).
    #[error("node {node}: operator {domain}{op_type} (opset {opset}) is not supported{}", reason_suffix(.reason))]
    UnsupportedOp {
        /// The node.
        node: String,
        /// Its op type.
        op_type: String,
        /// Its domain, with a trailing `.` when not the default one.
        domain: String,
        /// The opset version the model imports for that domain.
        opset: i64,
        /// Why, when tg knows (the op is not defined at that opset, a mode is left out).
        reason: Option<String>,
    },
    /// An element type tg does not compute in (strings, bfloat16, the 8-, 4- and 2-bit
    /// floats and integers, complex numbers).
    #[error("{tensor}: element type {name} (ONNX type {code}) is not supported")]
    UnsupportedDType {
        /// The tensor or value.
        tensor: String,
        /// ONNX's `TensorProto.DataType` code.
        code: i32,
        /// Its name.
        name: String,
    },
    /// A graph input or output that is not a tensor (a sequence, map, optional or sparse
    /// tensor).
    #[error("{name}: {kind} values are not supported, only tensors")]
    UnsupportedValueKind {
        /// The value.
        name: String,
        /// What it is.
        kind: String,
    },
    /// A dimension is negative, or the element count or byte size of a shape overflows.
    #[error("{tensor}: dimensions {dims:?} overflow or are negative")]
    DimOverflow {
        /// The tensor.
        tensor: String,
        /// Its dimensions as written.
        dims: Vec<i64>,
    },
    /// A tensor's stored data does not fit its shape and type.
    #[error("{tensor}: {message}")]
    BadTensorData {
        /// The tensor.
        tensor: String,
        /// What does not fit.
        message: String,
    },
    /// A tensor stored outside the model file that cannot be read.
    #[error("{tensor}: external data {location:?}: {problem:?}")]
    ExternalData {
        /// The tensor.
        tensor: String,
        /// The `location` key as written.
        location: String,
        /// Why.
        problem: ExternalDataProblem,
    },
    /// A node reads a value no earlier node, input or initializer defines (the graph is not
    /// topologically sorted, or names a value that does not exist).
    #[error("node {node} ({op_type}): input {input:?} is not defined before it")]
    UndefinedValue {
        /// The node.
        node: String,
        /// Its op type.
        op_type: String,
        /// The value's name.
        input: String,
    },
    /// A value defined twice (two nodes' outputs, or an output and an input or initializer).
    #[error("value {name:?} is defined twice")]
    DuplicateValue {
        /// The value.
        name: String,
    },
    /// A graph output no node, input or initializer defines.
    #[error("graph output {name:?} is not defined")]
    UndefinedOutput {
        /// The output.
        name: String,
    },
    /// An attribute that is missing, of the wrong type, or of a value the op does not take.
    #[error("node {node} ({op_type}): attribute {attribute}: {message}")]
    Attribute {
        /// The node.
        node: String,
        /// Its op type.
        op_type: String,
        /// The attribute.
        attribute: String,
        /// What is wrong with it.
        message: String,
    },
    /// A node with fewer inputs or outputs than its op needs, or more than it takes.
    #[error("node {node} ({op_type}): {message}")]
    Arity {
        /// The node.
        node: String,
        /// Its op type.
        op_type: String,
        /// What is wrong.
        message: String,
    },
    /// A node's input of a shape or dtype the op does not take, or an input that must be
    /// known without running the model (a shape, the condition of `If`) and is not.
    #[error("node {node} ({op_type}): {message} (inputs {shapes:?}, dtypes {dtypes:?})")]
    NodeInput {
        /// The node.
        node: String,
        /// Its op type.
        op_type: String,
        /// What is wrong.
        message: String,
        /// The shapes of the node's inputs.
        shapes: Vec<Vec<usize>>,
        /// Their dtypes.
        dtypes: Vec<DType>,
    },
    /// A node input read on the host (a scalar such as CumSum's axis, Range's bounds, TopK's
    /// `k` or a Loop's condition; a list such as Pad's pads or Slice's starts) holding another
    /// number of elements than the op takes: an empty tensor where a scalar belongs, a list
    /// shorter than the axes it covers.
    #[error("node {node} ({op_type}): {value:?} holds {found} elements where {expected} are taken")]
    ElementCount {
        /// The node.
        node: String,
        /// Its op type.
        op_type: String,
        /// The value read (the input's name, or a body output's for a Loop's condition).
        value: String,
        /// How many elements the op takes.
        expected: usize,
        /// How many it holds.
        found: usize,
    },
    /// A number read from a node's input on the host that the op cannot take: Range's step
    /// of 0, OneHot's depth below 1, TopK's `k` past its axis, a negative split size.
    #[error("node {node} ({op_type}): {value:?} is {found}: {message}")]
    InputValue {
        /// The node.
        node: String,
        /// Its op type.
        op_type: String,
        /// The input's name.
        value: String,
        /// The number as read (an integer past 2^53 rounded).
        found: f64,
        /// What the op takes.
        message: String,
    },
    /// An axis (an attribute or an input) outside `-rank..rank` of the tensor it applies to.
    #[error("node {node} ({op_type}): axis {axis} is out of range for rank {rank}")]
    Axis {
        /// The node.
        node: String,
        /// Its op type.
        op_type: String,
        /// The axis as written.
        axis: i64,
        /// The rank it must fit.
        rank: usize,
    },
    /// A tg op refused a node's inputs (its rules for shapes, dtypes and arguments); `source`
    /// is the `tg::Error`, which names the op and the shapes.
    #[error("node {node} ({op_type}) with inputs {shapes:?} of {dtypes:?}: {source}")]
    Op {
        /// The node.
        node: String,
        /// Its op type.
        op_type: String,
        /// The shapes of the node's inputs.
        shapes: Vec<Vec<usize>>,
        /// Their dtypes.
        dtypes: Vec<DType>,
        /// The tg error (`tg_runtime::Error`; downcast to match it).
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The device failed while computing the model (out of memory, a lost device, a dtype the
    /// device lacks); `source` is the `tg::Error`.
    #[error("device: {source}")]
    Device {
        /// The tg error (`tg_runtime::Error`).
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// `run` was not given a value for a model input.
    #[error("input {name:?} is missing")]
    MissingInput {
        /// The input.
        name: String,
    },
    /// `run` was given a value for a name that is not a model input.
    #[error("{name:?} is not an input of the model (inputs: {inputs:?})")]
    UnknownInput {
        /// The name given.
        name: String,
        /// The model's inputs.
        inputs: Vec<String>,
    },
    /// `run` was given an input twice.
    #[error("input {name:?} is given twice")]
    RepeatedInput {
        /// The input.
        name: String,
    },
    /// An input of another element type than the model declares.
    #[error("input {name:?}: the model takes {expected}, got {found}")]
    InputDType {
        /// The input.
        name: String,
        /// The declared type.
        expected: DType,
        /// The type given.
        found: DType,
    },
    /// An input whose shape does not fit the declared one (rank, a fixed size, or a symbolic
    /// size that another input fixed differently).
    #[error("input {name:?}: the model takes {expected:?}, got {found:?}{}", symbol_suffix(.symbol))]
    InputShape {
        /// The input.
        name: String,
        /// The declared dimensions.
        expected: Vec<Dim>,
        /// The shape given.
        found: Vec<usize>,
        /// The symbol and the size an earlier input bound it to, when that is the conflict.
        symbol: Option<(String, usize)>,
    },
    /// A test-data or `.npy` file of a form tg does not read.
    #[error("{path}: {message}")]
    Data {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// An invariant of the importer broke: a bug in tg, not in the model.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// A device or tg error, boxed (what `onnx_kernel!` functions return for a failure of
    /// tg's own).
    pub fn device(e: impl std::error::Error + Send + Sync + 'static) -> Error {
        Error::Device {
            source: Box::new(e),
        }
    }
}

fn reason_suffix(reason: &Option<String>) -> String {
    reason
        .as_ref()
        .map(|r| format!(": {r}"))
        .unwrap_or_default()
}

fn symbol_suffix(symbol: &Option<(String, usize)>) -> String {
    symbol
        .as_ref()
        .map(|(s, v)| format!(" ({s} is {v} in an earlier input)"))
        .unwrap_or_default()
}
