//! tg-runtime's tests, one binary with a module per subject (as the root package's
//! `tests/ops/`), so the crate links once. `device_free` opens no Vulkan (`scripts/test.sh`
//! runs `device_free::` with no driver to be found); the rest runs on the device. Tests that
//! need a process of their own (settings read when the device is created, figures counted
//! per process) run an `#[ignore]`d test of this binary in a child (`device_common::run_child`).

mod attention;
mod big_buffers;
mod buffer_lifetime;
mod bundle;
mod deep_graphs;
mod device_basic;
mod device_common;
mod device_compile;
mod device_free;
mod device_kernels;
mod device_pool;
mod device_select;
mod device_staging;
mod device_validation;
mod devices;
mod fusion;
mod gradient;
mod graphs;
mod inplace;
mod kernel_interface;
mod layers;
mod loop_budget;
mod multi_output;
mod primitives;
mod realize_cache;
mod replay;
mod replay_threads;
mod runs;
mod size_limits;
mod soak;
mod sorted;
mod texel_reads;
mod threads;
mod tune;
mod windows;
