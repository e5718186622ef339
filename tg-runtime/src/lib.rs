//! tg-runtime: the lazy primitive-op graph, the scheduler that fuses it into kernels, GLSL
//! codegen, shaderc compilation with caches (the `compiler` feature) or SPIR-V bundles made on
//! a build machine, and the Vulkan device that runs the kernels.
//!
//! Shapes here are plain `Vec<usize>`: kernels, scheduler and codegen are compiled once, not
//! once per shape. The typed front end is tg-ops.

// The modules form a line, each using only those below it: dtype, ops, error, config, stats,
// compile, device, graph, kernel, target, schedule, codegen, prepare, tune, realize
// (`tests/runtime/layers.rs` holds the line and checks every `crate::` path against it;
// ARCHITECTURE, "Layers", says why each sits where it does). The crate root alone wires them
// together.
//
// The pipeline's inside (kernels, targets, the scheduler, codegen, kernel preparation) is
// public for tg's tools and tests (`realize::plan`, the GLSL snapshots, lowering's passes) but
// hidden from the docs: a user builds `Lazy` graphs and realizes them.
#[doc(hidden)]
pub mod codegen;
pub mod compile;
pub mod config;
pub mod device;
pub mod dtype;
pub mod error;
pub mod graph;
#[doc(hidden)]
pub mod kernel;
pub mod ops;
#[doc(hidden)]
pub mod prepare;
pub mod realize;
#[doc(hidden)]
pub mod schedule;
mod stats;
#[doc(hidden)]
pub mod target;
pub mod tune;

/// The `ash` tg is built with: an application that gives tg its Vulkan device
/// (`Device::from_raw`) or buffers uses these types.
pub use ash;
/// SPIR-V bundles (`compile::bundle`), at the path tools and applications name.
pub use compile::bundle;
pub use dtype::{DType, Element, Scalar};
pub use error::{Error, Result};
pub use graph::lazy::Lazy;
pub use ops::{BinaryOp, ReduceOp, TernaryOp, UnaryOp};
pub use realize::record::{Recording, record};
pub use realize::{Report, realize, realize_report, synchronize};
pub use stats::{Stats, process_stats, thread_stats};
