//! The lazy graph of primitive ops.

pub mod gradient;
pub mod lazy;
pub mod node;
pub mod sorted;
pub(crate) mod walk;
