//! The lazy graph of primitive ops.

pub mod lazy;
pub mod node;
