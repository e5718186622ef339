//! Pooling: the sliding-window view `pool` and the ops built on it, `avg_pool2d`,
//! `max_pool2d` (with argmax indices) and `max_unpool2d`.
//!
//! As in tinygrad, the "2d" ops take any number of spatial axes: the last `kernel.len()`
//! axes of the input, all axes before them passing through. Each is a pad, the `pool` view
//! and a reduction over the window axes, so it runs as one fused kernel per reduction.

mod avg;
mod max;
mod options;
mod window;

pub(crate) use options::Window;
pub use options::{Padding, Pool, Sizes};
pub(crate) use window::ceil_mode_pads;

/// The last `dims` axes as negative axis numbers, for reductions over windows.
pub(crate) fn last_axes(dims: usize) -> Vec<isize> {
    (-(dims as isize)..0).collect()
}
