//! tg: a tensor DSL for Rust. Shapes are checked at compile time, the graph is lazy and fuses
//! into kernels, and the kernels run as SPIR-V compute shaders on any Vulkan 1.2 device,
//! including Mesa's lavapipe on the CPU.
//!
//! ```
//! use tg::prelude::*;
//! let a = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 2.0, 3.0, 4.0]).unwrap();
//! assert_eq!(a.to_vec().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
//! ```

pub use tg_gguf as gguf;
pub use tg_macros::{kernel, tensor};
pub use tg_nn::{data, optim, replay, state};
pub use tg_onnx::{self as onnx, onnx_kernel};
pub use tg_ops::*;
pub use tg_runtime as runtime;

/// Layers, the [`Module`](nn::Module) trait and its derive (`use tg::nn::Module;` brings
/// both: `#[derive(Module)]` writes a struct's `visit`, `inspect` and `set_training` from its
/// fields).
pub mod nn {
    pub use tg_macros::Module;
    pub use tg_nn::nn::*;
}

/// What the macros' expansions name; not an API.
#[doc(hidden)]
pub mod __private {
    pub use tg_nn::replay::KernelState;
    pub use tg_ops::__private::*;
}

/// Everything a user of tg needs in scope: `use tg::prelude::*;`.
pub mod prelude {
    pub use tg_macros::{kernel, tensor};
    pub use tg_ops::prelude::*;
}
