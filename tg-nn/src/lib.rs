//! Training for tg: layers and the `Module` trait ([`nn`]), optimizers and learning-rate
//! schedules ([`optim`]), recorded training steps ([`replay`]), saving and loading named
//! tensors ([`state`], safetensors files), batching host data with seeded shuffles
//! ([`data`]), and the UCI handwritten digits for the training demo ([`data::digits`]).
//!
//! Errors are tg's [`tg_runtime::Error`]: file problems are `Error::Io`, tensors that do not
//! match what a caller expects are `Error::Argument` naming each tensor.

pub mod data;
pub mod nn;
pub mod optim;
pub mod replay;
pub mod state;
