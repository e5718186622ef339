//! ONNX models on tg: [`OnnxModel`] loads and checks a model (`tg-onnx-format`), turns its
//! graph into tg ops when it first runs (so its elementwise chains fuse like any tg graph),
//! records the kernels of the first run per input shapes and replays them after.
//!
//! ```no_run
//! use tg_onnx::OnnxModel;
//! use tg_ops::{DType, DynTensor};
//! let model = OnnxModel::load("model.onnx")?;
//! let x = DynTensor::zeros(&[1, 3, 224, 224], DType::F32)?;
//! let outputs = model.run(&[("input", x)])?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod exec;
mod model;
pub mod npy;
mod ops;
pub mod testcase;
mod value;

pub use model::{OnnxModel, OnnxValue};
pub use tg_onnx_format::{
    DType, Dim, Error, ExternalDataProblem, HostTensor, HostValue, Model, OpType, Result,
    ValueInfo, ValueKind,
};
pub use tg_onnx_macros::onnx_kernel;

/// A host tensor uploaded as a device tensor (for inputs read from files).
pub fn to_device(h: &HostTensor) -> Result<tg_ops::DynTensor> {
    value::upload_buffer(h).map_err(|e| Error::Device {
        source: Box::new(e),
    })
}

/// A device tensor read back to the host.
pub fn to_host(t: &tg_ops::DynTensor) -> Result<HostTensor> {
    value::download(t).map_err(|e| Error::Device {
        source: Box::new(e),
    })
}
