//! The arguments of the sliding-window ops: sizes that may be given once for every spatial
//! axis, padding in tinygrad's three forms, and the pooling options.

pub use tg_core::shape::window::{Padding, Sizes, Window};
use tg_runtime::Result;

/// The options of a pooling op, built from the kernel size; the spatial axes are the last
/// `kernel.len()` axes of the input.
///
/// ```
/// use tg_ops::untyped::pool::{Padding, Pool};
/// let p = Pool::new([3, 3]).stride(2).padding(1).ceil_mode(true);
/// assert_eq!(p.kernel, vec![3, 3]);
/// assert_eq!(p.padding, Padding::Uniform(1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pool {
    /// Window size per spatial axis (its length is the number of spatial axes).
    pub kernel: Vec<usize>,
    /// The step between windows; `None` is the kernel size (tinygrad's and torch's default).
    pub stride: Option<Sizes>,
    /// Step between a window's elements.
    pub dilation: Sizes,
    /// Padding of the spatial axes (zeros for avg, the lowest value for max).
    pub padding: Padding,
    /// Output sizes round up, so a last partial window is kept (it never starts in the end
    /// padding).
    pub ceil_mode: bool,
    /// Whether `avg_pool2d` divides by the whole window, padding included.
    pub count_include_pad: bool,
}

impl Pool {
    /// Windows of size `kernel` with stride = kernel, no dilation, no padding, floor sizes,
    /// padding counted in averages.
    pub fn new(kernel: impl Into<Sizes>) -> Pool {
        Pool {
            kernel: kernel.into().0,
            stride: None,
            dilation: Sizes::from(1),
            padding: Padding::default(),
            ceil_mode: false,
            count_include_pad: true,
        }
    }
    /// The stride (the kernel's by default).
    pub fn stride(mut self, stride: impl Into<Sizes>) -> Pool {
        self.stride = Some(stride.into());
        self
    }
    /// The dilation.
    pub fn dilation(mut self, dilation: impl Into<Sizes>) -> Pool {
        self.dilation = dilation.into();
        self
    }
    /// The padding.
    pub fn padding(mut self, padding: impl Into<Padding>) -> Pool {
        self.padding = padding.into();
        self
    }
    /// Output sizes rounded up (torch's `ceil_mode`).
    pub fn ceil_mode(mut self, ceil_mode: bool) -> Pool {
        self.ceil_mode = ceil_mode;
        self
    }
    /// Whether avg_pool2d's divisor counts the padding.
    pub fn count_include_pad(mut self, count_include_pad: bool) -> Pool {
        self.count_include_pad = count_include_pad;
        self
    }

    /// The kernel, stride (the kernel's by default) and dilation, one per spatial axis, checked.
    pub(crate) fn window(&self, op: &'static str) -> Result<Window> {
        let dims = self.kernel.len();
        let stride = match &self.stride {
            Some(s) => s.resolve(op, "stride", dims)?,
            None => self.kernel.clone(),
        };
        Ok(Window::new(
            op,
            self.kernel.clone(),
            stride,
            self.dilation.resolve(op, "dilation", dims)?,
        )?)
    }
}
