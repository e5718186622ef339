//! Feeding data to training: host arrays of samples ([`HostArray`]), a loader that batches
//! them per epoch with seeded shuffles ([`DataLoader`]), its PRNG ([`SplitMix64`]), and the
//! UCI handwritten digits ([`digits`]).

mod digits;
mod host;
mod loader;
mod rng;

pub use digits::{Digits, SPLIT_SEED, TRAIN_LEN, digits};
pub use host::HostArray;
pub use loader::{Batches, DataLoader};
pub use rng::{SplitMix64, permutation};
