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
