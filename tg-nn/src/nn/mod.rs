//! Layers with tinygrad's defaults, the [`Module`] trait that names their tensors, attention
//! and gradient clipping. Layers compose tg-ops' ops, so they fuse, differentiate and run on
//! any device like the rest of the library; their parameters are buffers of their own
//! (`DynTensor::parameter`) that optimizers update in place.

mod attention;
mod clip;
mod conv;
mod dropout;
mod embedding;
pub mod init;
mod linear;
pub mod models;
mod module;
mod norm;
mod sequential;

pub use attention::{SelfAttention, TypedSelfAttention, scaled_dot_product_attention};
pub use clip::{clip_grad_norm, clip_grad_value};
pub use conv::{Conv2d, ConvOptions, ConvTranspose2d};
pub use dropout::{Dropout, dropout};
pub use embedding::{Embedding, TypedEmbedding};
pub use linear::{Linear, TypedLinear};
pub use models::{DigitsCnn, Mlp};
pub use module::{Inspector, Module, Role, Visitor, child, child_ref, visit_typed};
pub use norm::{BatchNorm2d, GroupNorm, LayerNorm, RMSNorm, TypedLayerNorm, TypedRMSNorm};
pub use sequential::{Func, Layer, Sequential};
