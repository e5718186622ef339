//! The arguments of the sliding-window ops: sizes that may be given once for every spatial
//! axis, padding in tinygrad's three forms, and the pooling options.

use tg_runtime::{Error, Result};

/// Sizes of the spatial axes (stride, dilation, output padding): one value for every axis,
/// or one per axis, first spatial axis first (tinygrad's `make_tuple`).
///
/// ```
/// use tg_ops::untyped::pool::Sizes;
/// assert_eq!(Sizes::from(2).resolve("pool", "stride", 3).unwrap(), vec![2, 2, 2]);
/// assert_eq!(Sizes::from([1, 2]).resolve("pool", "stride", 2).unwrap(), vec![1, 2]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sizes(pub Vec<usize>);

impl Sizes {
    /// One size per spatial axis; a single value stands for all `dims` axes.
    pub fn resolve(&self, op: &'static str, what: &str, dims: usize) -> Result<Vec<usize>> {
        match self.0.len() {
            1 => Ok(vec![self.0[0]; dims]),
            n if n == dims => Ok(self.0.clone()),
            n => Err(Error::Argument {
                op,
                message: format!("{what} {:?} has {n} values for {dims} spatial axes", self.0),
            }),
        }
    }
}

impl From<usize> for Sizes {
    fn from(v: usize) -> Self {
        Sizes(vec![v])
    }
}

impl From<&[usize]> for Sizes {
    fn from(v: &[usize]) -> Self {
        Sizes(v.to_vec())
    }
}

impl<const N: usize> From<[usize; N]> for Sizes {
    fn from(v: [usize; N]) -> Self {
        Sizes(v.to_vec())
    }
}

impl<const N: usize> From<&[usize; N]> for Sizes {
    fn from(v: &[usize; N]) -> Self {
        Sizes(v.to_vec())
    }
}

impl From<Vec<usize>> for Sizes {
    fn from(v: Vec<usize>) -> Self {
        Sizes(v)
    }
}

/// Padding of the spatial axes. A negative amount cuts that many elements instead.
///
/// tinygrad (and torch) tell the forms apart by the length of one list; here each is its own
/// variant, so a list of two values for a 1-D op is never read as the other form.
///
/// ```
/// use tg_ops::untyped::pool::Padding;
/// // torch's flat order: the LAST axis first, (before, after) for each
/// assert_eq!(Padding::Flat(vec![1, 2, 3, 4]).resolve("conv2d", 2).unwrap(), vec![(3, 4), (1, 2)]);
/// assert_eq!(Padding::PerAxis(vec![1, 2]).resolve("conv2d", 2).unwrap(), vec![(1, 1), (2, 2)]);
/// assert_eq!(Padding::from(1).resolve("conv2d", 2).unwrap(), vec![(1, 1), (1, 1)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Padding {
    /// The same amount before and after every spatial axis (tinygrad's `int` form).
    Uniform(isize),
    /// One amount per spatial axis, first axis first, on both sides (`(pad_h, pad_w)`).
    PerAxis(Vec<isize>),
    /// `(before, after)` for each spatial axis starting from the LAST one, flattened:
    /// `[left, right, top, bottom, front, back]` (torch's `F.pad` order, tinygrad's
    /// `2 * dims` form).
    Flat(Vec<isize>),
    /// One `(before, after)` pair per spatial axis, first axis first.
    Pairs(Vec<(isize, isize)>),
}

impl Default for Padding {
    fn default() -> Self {
        Padding::Uniform(0)
    }
}

impl Padding {
    /// `(before, after)` for each of `dims` spatial axes, first axis first.
    pub fn resolve(&self, op: &'static str, dims: usize) -> Result<Vec<(isize, isize)>> {
        let wrong = |n: usize, want: usize| Error::Argument {
            op,
            message: format!("padding {self:?} has {n} values; {dims} spatial axes need {want}"),
        };
        Ok(match self {
            Padding::Uniform(p) => vec![(*p, *p); dims],
            Padding::PerAxis(v) if v.len() == dims => v.iter().map(|&p| (p, p)).collect(),
            Padding::PerAxis(v) => return Err(wrong(v.len(), dims)),
            Padding::Flat(v) if v.len() == 2 * dims => {
                v.chunks(2).rev().map(|c| (c[0], c[1])).collect()
            }
            Padding::Flat(v) => return Err(wrong(v.len(), 2 * dims)),
            Padding::Pairs(v) if v.len() == dims => v.clone(),
            Padding::Pairs(v) => return Err(wrong(v.len(), dims)),
        })
    }
}

impl From<isize> for Padding {
    fn from(p: isize) -> Self {
        Padding::Uniform(p)
    }
}

impl From<i32> for Padding {
    fn from(p: i32) -> Self {
        Padding::Uniform(p as isize)
    }
}

impl From<usize> for Padding {
    fn from(p: usize) -> Self {
        Padding::Uniform(p as isize)
    }
}

impl From<Vec<(isize, isize)>> for Padding {
    fn from(p: Vec<(isize, isize)>) -> Self {
        Padding::Pairs(p)
    }
}

impl<const N: usize> From<[(isize, isize); N]> for Padding {
    fn from(p: [(isize, isize); N]) -> Self {
        Padding::Pairs(p.to_vec())
    }
}

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
    pub kernel: Vec<usize>,
    /// The step between windows; `None` is the kernel size (tinygrad's and torch's default).
    pub stride: Option<Sizes>,
    pub dilation: Sizes,
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
    pub fn stride(mut self, stride: impl Into<Sizes>) -> Pool {
        self.stride = Some(stride.into());
        self
    }
    pub fn dilation(mut self, dilation: impl Into<Sizes>) -> Pool {
        self.dilation = dilation.into();
        self
    }
    pub fn padding(mut self, padding: impl Into<Padding>) -> Pool {
        self.padding = padding.into();
        self
    }
    pub fn ceil_mode(mut self, ceil_mode: bool) -> Pool {
        self.ceil_mode = ceil_mode;
        self
    }
    pub fn count_include_pad(mut self, count_include_pad: bool) -> Pool {
        self.count_include_pad = count_include_pad;
        self
    }

    /// The kernel, stride and dilation, one per spatial axis, checked.
    pub(crate) fn window(&self, op: &'static str) -> Result<Window> {
        let dims = self.kernel.len();
        let stride = match &self.stride {
            Some(s) => s.resolve(op, "stride", dims)?,
            None => self.kernel.clone(),
        };
        Window::new(
            op,
            self.kernel.clone(),
            stride,
            self.dilation.resolve(op, "dilation", dims)?,
        )
    }
}

/// A checked sliding window: kernel, stride and dilation per spatial axis, all nonzero.
#[derive(Clone, Debug)]
pub(crate) struct Window {
    pub kernel: Vec<usize>,
    pub stride: Vec<usize>,
    pub dilation: Vec<usize>,
}

impl Window {
    pub fn new(
        op: &'static str,
        kernel: Vec<usize>,
        stride: Vec<usize>,
        dilation: Vec<usize>,
    ) -> Result<Window> {
        let arg = |message: String| Error::Argument { op, message };
        if kernel.is_empty() {
            return Err(arg("the kernel needs at least one spatial axis".into()));
        }
        if stride.len() != kernel.len() || dilation.len() != kernel.len() {
            return Err(arg(format!(
                "kernel {kernel:?}, stride {stride:?} and dilation {dilation:?} differ in length"
            )));
        }
        for (what, v) in [
            ("kernel", &kernel),
            ("stride", &stride),
            ("dilation", &dilation),
        ] {
            if v.contains(&0) {
                return Err(arg(format!("{what} {v:?} has a zero")));
            }
        }
        Ok(Window {
            kernel,
            stride,
            dilation,
        })
    }

    /// The extent of one window on each axis: `dilation * (kernel - 1) + 1`.
    pub fn extent(&self) -> Vec<usize> {
        self.kernel
            .iter()
            .zip(&self.dilation)
            .map(|(&k, &d)| d * (k - 1) + 1)
            .collect()
    }
}
