//! From a fused subgraph to GLSL: lowering to straight-line instructions over symbolic
//! indices, then rendering.

pub mod glsl;
pub mod lower;
pub mod program;
pub mod symbolic;
