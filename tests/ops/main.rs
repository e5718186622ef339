//! The op library against numpy, scipy and torch fixtures (`fixtures/`, made by
//! `scripts/gen_ops_*.py`), the typed API's shapes and dtypes, the errors, and kernel counts:
//! one test binary with one module per op family, so a fresh build links it once.

mod attention;
mod by_name;
mod conv;
mod creation;
mod devices;
mod display;
mod einsum;
mod elementwise;
mod extra;
mod gather;
mod hash;
mod indexing;
mod linalg;
mod loss;
mod matmul;
mod movement;
mod norm;
mod pool;
mod reduce;
mod scan_sort;
mod sizes;
mod stats;

use tg::prelude::DynTensor;

/// Deterministic values in [-1, 1) of `shape` (a multiplicative hash of the index and `seed`),
/// realized: inputs for tests that compare two ways of computing the same op.
pub(crate) fn random(shape: &[usize], seed: u32) -> DynTensor {
    let n: usize = shape.iter().product();
    let data: Vec<f32> = (0..n as u32)
        .map(|i| {
            ((i.wrapping_mul(2654435761) ^ seed.wrapping_mul(40503)) >> 8) as f32 / 8388608.0 - 1.0
        })
        .collect();
    let t = DynTensor::from_slice(shape, &data).unwrap();
    t.realize().unwrap();
    t
}
