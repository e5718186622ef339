//! Convolution layers: `Conv2d` and `ConvTranspose2d` over tg-ops' `conv2d` and
//! `conv_transpose2d`, with tinygrad's initialisation.

use tg_ops::{Conv, DynTensor};
use tg_runtime::{Error, Result};

use super::init;
use super::module::{Inspector, Module, Visitor, inspect_weight_bias, visit_weight_bias};

/// The options both convolution layers take (tinygrad's keyword arguments).
#[derive(Clone, Debug)]
pub struct ConvOptions {
    /// Step between windows (both axes).
    pub stride: usize,
    /// Zero padding on every side.
    pub padding: usize,
    /// Spacing of the kernel's taps.
    pub dilation: usize,
    /// Channel groups; both channel counts must divide by it.
    pub groups: usize,
    /// Whether the layer has a bias.
    pub bias: bool,
    /// Extra size added to one side of a transposed convolution's output.
    pub output_padding: usize,
}

impl Default for ConvOptions {
    fn default() -> Self {
        ConvOptions {
            stride: 1,
            padding: 0,
            dilation: 1,
            groups: 1,
            bias: true,
            output_padding: 0,
        }
    }
}

impl ConvOptions {
    fn conv(&self) -> Conv {
        Conv::new()
            .stride(self.stride)
            .padding(self.padding)
            .dilation(self.dilation)
            .groups(self.groups)
    }
}

fn check_groups(op: &'static str, cin: usize, cout: usize, groups: usize) -> Result<()> {
    if groups == 0 || !cin.is_multiple_of(groups) || !cout.is_multiple_of(groups) {
        return Err(Error::Argument {
            op,
            message: format!(
                "{cin} input and {cout} output channels do not divide into {groups} groups"
            ),
        });
    }
    Ok(())
}

/// A 2-D convolution: weight `(out, in / groups, k, k)` kaiming-uniform, bias uniform in
/// `±1/sqrt(in / groups * k * k)`.
pub struct Conv2d {
    /// `(out_channels, in_channels / groups, k, k)`.
    pub weight: DynTensor,
    /// `(out_channels,)`.
    pub bias: Option<DynTensor>,
    /// Stride, padding, dilation, groups.
    pub options: ConvOptions,
}

impl Conv2d {
    /// A layer from `cin` to `cout` channels with a square `kernel`.
    pub fn new(cin: usize, cout: usize, kernel: usize, options: ConvOptions) -> Result<Conv2d> {
        check_groups("Conv2d", cin, cout, options.groups)?;
        let shape = [cout, cin / options.groups, kernel, kernel];
        let fan_in = shape[1..].iter().product();
        Ok(Conv2d {
            weight: init::weight(&shape)?,
            bias: init::bias_if(options.bias, cout, fan_in)?,
            options,
        })
    }

    /// The layer applied to `x` `(batch, cin, h, w)`.
    pub fn forward(&self, x: &DynTensor) -> Result<DynTensor> {
        x.conv2d(&self.weight, self.bias.as_ref(), &self.options.conv())
    }
}

impl Module for Conv2d {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        visit_weight_bias(f, &mut self.weight, self.bias.as_mut())
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        inspect_weight_bias(f, &self.weight, self.bias.as_ref())
    }
}

/// A 2-D transposed convolution: weight `(in, out / groups, k, k)` kaiming-uniform, bias
/// uniform in `±1/sqrt(out / groups * k * k)` (tinygrad's fan-in of that weight).
pub struct ConvTranspose2d {
    /// `(in_channels, out_channels / groups, k, k)`.
    pub weight: DynTensor,
    /// `(out_channels,)`.
    pub bias: Option<DynTensor>,
    /// Stride, padding, dilation, groups, output padding.
    pub options: ConvOptions,
}

impl ConvTranspose2d {
    /// A layer from `cin` to `cout` channels with a square `kernel`.
    pub fn new(
        cin: usize,
        cout: usize,
        kernel: usize,
        options: ConvOptions,
    ) -> Result<ConvTranspose2d> {
        check_groups("ConvTranspose2d", cin, cout, options.groups)?;
        let shape = [cin, cout / options.groups, kernel, kernel];
        let fan_in = shape[1..].iter().product();
        Ok(ConvTranspose2d {
            weight: init::weight(&shape)?,
            bias: init::bias_if(options.bias, cout, fan_in)?,
            options,
        })
    }

    /// The layer applied to `x` `(batch, cin, h, w)`.
    pub fn forward(&self, x: &DynTensor) -> Result<DynTensor> {
        let c = self
            .options
            .conv()
            .output_padding(self.options.output_padding);
        x.conv_transpose2d(&self.weight, self.bias.as_ref(), &c)
    }
}

impl Module for ConvTranspose2d {
    fn visit(&mut self, f: &mut Visitor<'_>) -> Result<()> {
        visit_weight_bias(f, &mut self.weight, self.bias.as_mut())
    }

    fn inspect(&self, f: &mut Inspector<'_>) -> Result<()> {
        inspect_weight_bias(f, &self.weight, self.bias.as_ref())
    }
}
