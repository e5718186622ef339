//! ONNX models without a device: the protobuf schema (prost, generated and checked in), loading
//! a model file with its external data, checking every node against the operators tg
//! implements for the model's opset, and folding constant (shape) subgraphs on the host.
//!
//! This crate links no Vulkan and no shader compiler, so that `tg-onnx-macros` can read a
//! model while a crate compiles; `tg-onnx` turns a checked [`Model`] into tg ops.

pub mod attr;
pub mod dtype;
pub mod error;
pub mod exotic;
pub mod fold;
pub mod model;
pub mod op;
pub mod proto;
pub mod schema;
pub mod tensor;

pub use attr::{Attr, Attrs};
pub use error::{Error, ExternalDataProblem, Result};
pub use exotic::Exotic;
pub use model::{Dim, Graph, Model, Node, ValueInfo, ValueKind};
pub use op::OpType;
pub use tensor::{HostTensor, HostValue};
pub use tg_core::DType;
