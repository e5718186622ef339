//! Convolution: `conv2d` (direct, or Winograd F(4x4, 3x3), or tinygrad's channel-packed
//! IMAGE layout), and `conv_transpose2d`.
//!
//! As in tinygrad, the "2d" ops take any number of spatial axes (1-D, 2-D, 3-D ...): the
//! input is `(batch, channels, *spatial)` and the weight `(out_channels, in_channels /
//! groups, *kernel)`. The direct form is the sliding-window view `pool` times the weight,
//! summed over channels and kernel: one fused reduction that never stores the windows.

mod direct;
mod gradient;
mod transpose;
mod winograd;

pub(crate) use gradient::with_conv_gradient;

use super::pool::{Padding, Sizes};
use crate::untyped::DynTensor;
use tg_core::decide;
use tg_core::shape::window;
use tg_runtime::{DType, Result};

/// How `conv2d` computes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ConvAlgorithm {
    /// The window view times the weight, summed: one fused reduction.
    #[default]
    Direct,
    /// Winograd F(4x4, 3x3) for 3x3 (3x3x3, 3 ...) float kernels with stride 1 and
    /// dilation 1 (tinygrad's `WINO`); any other convolution computes directly. Fewer
    /// multiplications, in about five kernels; results differ from the direct form by
    /// rounding (about 1e-6 relative in f32; f16 is transformed in f32).
    Winograd,
    /// tinygrad's IMAGE layout for mobile GPUs (see `DynTensor::image_conv2d`), for 2-D float
    /// convolutions; any other computes directly. The result equals the direct form's.
    Image,
}

/// The options of `conv2d` and `conv_transpose2d`.
///
/// ```
/// use tg_ops::prelude::*;
/// let c = Conv::new().groups(2).stride(2).padding(Padding::PerAxis(vec![1, 0]));
/// assert_eq!(c.groups, 2);
/// assert_eq!(c.algorithm, ConvAlgorithm::Direct);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conv {
    /// Channel groups: input and output channels split into `groups` independent
    /// convolutions (`groups == channels` is a depthwise convolution).
    pub groups: usize,
    /// Step between windows: one for every spatial axis, or one per axis.
    pub stride: Sizes,
    /// Step between a window's elements: one for every spatial axis, or one per axis.
    pub dilation: Sizes,
    /// Zero padding of the input (negative amounts cut); for `conv_transpose2d` the padding
    /// that is taken off the output, as torch's.
    pub padding: Padding,
    /// `conv_transpose2d` only: extra size added at the end of each output axis.
    pub output_padding: Sizes,
    /// The dtype the sum accumulates in and the result has (tinygrad's `dtype=`); `None`
    /// sums as `sum` does.
    pub acc: Option<DType>,
    /// How the convolution is computed (the results agree).
    pub algorithm: ConvAlgorithm,
}

impl Default for Conv {
    fn default() -> Self {
        Conv {
            groups: 1,
            stride: Sizes::from(1),
            dilation: Sizes::from(1),
            padding: Padding::default(),
            output_padding: Sizes::from(0),
            acc: None,
            algorithm: ConvAlgorithm::Direct,
        }
    }
}

impl Conv {
    /// One group, stride 1, no dilation, no padding, direct.
    pub fn new() -> Conv {
        Conv::default()
    }
    /// Groups of input channels, each with its own output channels.
    pub fn groups(mut self, groups: usize) -> Conv {
        self.groups = groups;
        self
    }
    /// The stride.
    pub fn stride(mut self, stride: impl Into<Sizes>) -> Conv {
        self.stride = stride.into();
        self
    }
    /// The dilation.
    pub fn dilation(mut self, dilation: impl Into<Sizes>) -> Conv {
        self.dilation = dilation.into();
        self
    }
    /// The padding.
    pub fn padding(mut self, padding: impl Into<Padding>) -> Conv {
        self.padding = padding.into();
        self
    }
    /// The extra size of a transposed convolution's output (less than the stride).
    pub fn output_padding(mut self, output_padding: impl Into<Sizes>) -> Conv {
        self.output_padding = output_padding.into();
        self
    }
    /// The dtype the products are summed in (and the result has).
    pub fn acc(mut self, dtype: DType) -> Conv {
        self.acc = Some(dtype);
        self
    }
    /// The algorithm.
    pub fn algorithm(mut self, algorithm: ConvAlgorithm) -> Conv {
        self.algorithm = algorithm;
        self
    }
}

/// The sizes of a convolution, checked: input `(bs, groups * cin, *spatial)`, weight
/// `(cout, cin, *kernel)`.
pub(crate) struct ConvShapes {
    pub bs: usize,
    pub cout: usize,
    pub cin: usize,
    pub kernel: Vec<usize>,
}

impl ConvShapes {
    pub fn new(
        op: &'static str,
        x: &DynTensor,
        w: &DynTensor,
        bias: Option<&DynTensor>,
        c: &Conv,
    ) -> Result<ConvShapes> {
        // channels, groups, bias and every window's fit: tg-core's rule, which `#[kernel]`
        // applies to a body's symbolic shapes
        decide(|ck| {
            window::conv(
                ck,
                op,
                x.shape(),
                w.shape(),
                bias.map(|b| b.shape()),
                c.groups,
                &c.stride,
                &c.dilation,
                &c.padding,
            )
        })?;
        let (cout, cin) = (w.shape()[0], w.shape()[1]);
        Ok(ConvShapes {
            bs: x.shape()[0],
            cout,
            cin,
            kernel: w.shape()[2..].to_vec(),
        })
    }

    pub fn dims(&self) -> usize {
        self.kernel.len()
    }
}

impl DynTensor {
    /// The convolution of `self` `(batch, channels, *spatial)` with `weight` `(out_channels,
    /// channels / groups, *kernel)` plus `bias` `(out_channels,)`: torch's and tinygrad's
    /// `conv2d` (a cross-correlation), for any number of spatial axes.
    ///
    /// `c` gives groups, stride, dilation, padding (any of the `Padding` forms, negative
    /// amounts cut), the accumulation dtype and the algorithm. Products are formed in the
    /// operands' promoted dtype and summed as `sum` sums them, so integer inputs give their
    /// accumulation dtype (i8 gives i32) and f16 accumulates in f32 (tinygrad).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[1, 1, 3, 3], &[0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]).unwrap();
    /// let w = DynTensor::ones(&[1, 1, 2, 2], DType::F32).unwrap();
    /// let y = x.conv2d(&w, None, &Conv::new()).unwrap();
    /// assert_eq!(y.to_vec::<f32>().unwrap(), vec![8.0, 12.0, 20.0, 24.0]);
    /// let s = x.conv2d(&w, None, &Conv::new().stride(2).padding(1)).unwrap();
    /// assert_eq!(s.to_vec::<f32>().unwrap(), vec![0.0, 3.0, 9.0, 24.0]);
    /// ```
    pub fn conv2d(
        &self,
        weight: &DynTensor,
        bias: Option<&DynTensor>,
        c: &Conv,
    ) -> Result<DynTensor> {
        match c.algorithm {
            ConvAlgorithm::Winograd if winograd::applies(self, weight, c) => {
                self.conv2d_winograd(weight, bias, c)
            }
            ConvAlgorithm::Image
                if self.ndim() == 4 && self.dtype().is_float() && weight.dtype().is_float() =>
            {
                self.image_conv2d(weight, bias, c)
            }
            _ => self.conv2d_direct(weight, bias, c),
        }
    }

    /// `self + bias` with the bias along axis 1.
    pub(crate) fn add_channel_bias(&self, bias: Option<&DynTensor>) -> Result<DynTensor> {
        let Some(b) = bias else {
            return Ok(self.clone());
        };
        let mut shape = vec![1isize, -1];
        shape.resize(self.ndim(), 1);
        self.add(&b.reshape(&shape)?)
    }

    /// The sum over `axes` in `acc`, or as `sum` sums.
    pub(crate) fn sum_in(&self, axes: &[isize], acc: Option<DType>) -> Result<DynTensor> {
        match acc {
            Some(dt) => self.sum_as(Some(axes), false, dt),
            None => self.sum(Some(axes), false),
        }
    }
}
