//! The transposed convolution, as a convolution of the zero-interleaved input with the
//! flipped, transposed weight.

use super::Conv;
use crate::untyped::DynTensor;
use crate::untyped::pool::Padding;
use tg_runtime::{Error, Result};

impl DynTensor {
    /// The transposed convolution (the gradient of `conv2d` with respect to its input; torch's
    /// `conv_transpose2d`), for any number of spatial axes. `weight` has shape
    /// `(in_channels, out_channels / groups, *kernel)`, `bias` `(out_channels,)`.
    ///
    /// Each output axis has size
    /// `(i - 1) * stride - pad_before - pad_after + dilation * (k - 1) + output_padding + 1`.
    /// Composed as tinygrad composes it: `stride - 1` zeros go
    /// between input elements, then a stride-1 `conv2d` (so `c.algorithm` applies to it) with
    /// the kernel flipped and padded by `dilation * (k - 1) - padding`. `output_padding` is
    /// not checked against stride and dilation (torch requires it to be smaller than one of
    /// them; tinygrad does not).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[1, 1, 2], &[1.0f32, 2.0]).unwrap();
    /// let w = DynTensor::from_slice(&[1, 1, 2], &[1.0f32, 10.0]).unwrap();
    /// let y = x.conv_transpose2d(&w, None, &Conv::new().stride(2)).unwrap();
    /// assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.0, 10.0, 2.0, 20.0]);
    /// ```
    pub fn conv_transpose2d(
        &self,
        weight: &DynTensor,
        bias: Option<&DynTensor>,
        c: &Conv,
    ) -> Result<DynTensor> {
        const OP: &str = "conv_transpose2d";
        let shape_err = |what: String| Error::Shape {
            op: OP,
            message: format!(
                "input {:?} and weight {:?}: {what}",
                self.shape(),
                weight.shape()
            ),
        };
        if self.ndim() < 3 || weight.ndim() != self.ndim() {
            return Err(shape_err(
                "need (batch, channels, *spatial) and (channels, out_channels / groups, *kernel) of one rank, at least 3"
                    .into(),
            ));
        }
        let g = c.groups;
        if g == 0 || !weight.shape()[0].is_multiple_of(g) {
            return Err(shape_err(format!(
                "{} weight input channels do not split into {g} groups",
                weight.shape()[0]
            )));
        }
        if weight.shape()[0] != self.shape()[1] {
            return Err(shape_err(format!(
                "{} input channels, but the weight takes {}",
                self.shape()[1],
                weight.shape()[0]
            )));
        }
        let dims = self.ndim() - 2;
        let kernel = weight.shape()[2..].to_vec();
        let stride = c.stride.resolve(OP, "stride", dims)?;
        let dilation = c.dilation.resolve(OP, "dilation", dims)?;
        let out_pad = c.output_padding.resolve(OP, "output_padding", dims)?;
        let pads = c.padding.resolve(OP, dims)?;
        if stride.contains(&0) || self.shape()[2..].contains(&0) {
            return Err(shape_err(format!(
                "stride {stride:?} and spatial sizes must be nonzero"
            )));
        }
        // (cin, rcout, *k) -> (g, rcout, cin / g, *k) flipped -> (g * rcout, cin / g, *k)
        let spatial_axes: Vec<isize> = (3..3 + dims as isize).collect();
        let w = weight
            .unflatten(0, &[g as isize, -1])?
            .transpose(1, 2)?
            .flip(&spatial_axes)?
            .flatten(0, 1)?;
        let x = if stride.iter().any(|&s| s > 1) {
            self.interleave_zeros(&stride)?
        } else {
            self.clone()
        };
        let conv_pads: Vec<(isize, isize)> = (0..dims)
            .map(|a| {
                let reach = ((kernel[a] as isize) - 1) * dilation[a] as isize;
                (reach - pads[a].0, reach - pads[a].1 + out_pad[a] as isize)
            })
            .collect();
        let inner = Conv {
            groups: g,
            stride: 1.into(),
            dilation: dilation.into(),
            padding: Padding::Pairs(conv_pads),
            output_padding: 0.into(),
            acc: c.acc,
            algorithm: c.algorithm,
        };
        x.conv2d(&w, bias, &inner)
    }
}
