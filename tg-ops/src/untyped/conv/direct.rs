//! The direct convolution: windows times weight, summed.

use super::gradient::with_conv_gradient;
use super::{Conv, ConvShapes};
use crate::untyped::DynTensor;
use crate::untyped::pool::Window;
use tg_runtime::Result;
use tg_runtime::kernel::{LANES, MAX_ELEMENTS};

fn isz(v: &[usize]) -> Vec<isize> {
    v.iter().map(|&s| s as isize).collect()
}

impl DynTensor {
    /// `conv2d` computed directly, whatever `c.algorithm` says (tinygrad's `conv2d`
    /// composition): the padded input's windows `(bs, groups, cin, *out, *kernel)` broadcast
    /// against the weight `(groups, rcout, cin, *kernel)`, summed over `cin` and the kernel.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[1, 2, 3], &[1i32, 2, 3, 10, 20, 30]).unwrap();
    /// let w = DynTensor::from_slice(&[2, 1, 2], &[1i32, 1, 1, -1]).unwrap();
    /// let y = x.conv2d_direct(&w, None, &Conv::new().groups(2)).unwrap(); // depthwise 1-D
    /// assert_eq!(y.to_vec::<i32>().unwrap(), vec![3, 5, -10, -10]);
    /// ```
    pub fn conv2d_direct(
        &self,
        weight: &DynTensor,
        bias: Option<&DynTensor>,
        c: &Conv,
    ) -> Result<DynTensor> {
        const OP: &str = "conv2d";
        let s = ConvShapes::new(OP, self, weight, bias, c)?;
        let dims = s.dims();
        let w = Window::new(
            OP,
            s.kernel.clone(),
            c.stride.resolve(OP, "stride", dims)?,
            c.dilation.resolve(OP, "dilation", dims)?,
        )?;
        let mut pads = c.padding.resolve(OP, dims)?;
        let trip = s.cin * s.kernel.iter().product::<usize>();
        let last = self.shape()[self.ndim() - 1];
        if dims > 1
            && s.kernel.iter().all(|&k| k == 1)
            && w.stride.iter().all(|&st| st == 1)
            && pads.iter().all(|&p| p == (0, 0))
            && !last.is_multiple_of(LANES)
            && tile_columns(last, trip) == 0
        {
            return self.pointwise(weight, bias, c, &s);
        }
        let x = self.pad_spatial(&pads, 0)?.pool_window(OP, &w)?;
        let out = x.shape()[2..2 + dims].to_vec();
        // columns computed past the output's last axis and cut off after, so that axis is a
        // whole number of the vectors kernels store and the scheduler can block the
        // convolution in tiles (see `tile_columns`); the input's zero padding grows to give
        // each of them a window
        let mut extra = out.last().map_or(0, |&n| tile_columns(n, trip));
        let x = if extra > 0 {
            pads[dims - 1].1 += (extra * w.stride[dims - 1]) as isize;
            let padded = self.pad_spatial(&pads, 0)?;
            // the wider output's buffer and padded input must still be indexable, or the
            // columns would turn a convolution that fits into one that does not
            let columns = out[dims - 1] + extra;
            let wide_out = s.bs * s.cout * out[..dims - 1].iter().product::<usize>() * columns;
            if fits_index(wide_out) && fits_index(padded.numel()) {
                padded.pool_window(OP, &w)?
            } else {
                extra = 0;
                x
            }
        } else {
            x
        };
        let computed = x.shape()[2..2 + dims].to_vec();
        let (g, rcout) = (c.groups, s.cout / c.groups);
        // (bs, g, cin, 1, *out, *k) -> (bs, g, rcout, *out, cin, *k)
        let mut split = isz(&[s.bs, g, s.cin, 1]);
        split.extend(isz(&computed));
        split.extend(isz(&s.kernel));
        let mut wide = split.clone();
        wide[3] = rcout as isize;
        let mut order: Vec<isize> = vec![0, 1, 3];
        order.extend((0..dims).map(|a| 4 + a as isize));
        order.push(2);
        order.extend((0..dims).map(|a| (4 + dims + a) as isize));
        let x = x.reshape(&split)?.expand(&wide)?.permute(&order)?;
        // (g, rcout, 1 per out axis, cin, *k)
        let mut wshape = isz(&[1, g, rcout]);
        wshape.extend(std::iter::repeat_n(1, dims));
        wshape.push(s.cin as isize);
        wshape.extend(isz(&s.kernel));
        let axes: Vec<isize> = (0..=dims).map(|a| -1 - a as isize).collect();
        // products in the accumulator where it holds them exactly (DType::product_dtype),
        // the result in the dtype the sum gives
        let dt = x.dtype().least_upper(weight.dtype());
        let pdt = dt.product_dtype(c.acc.unwrap_or(dt.sum_acc_dtype()));
        let y = x
            .cast(pdt)
            .mul(&weight.cast(pdt).reshape(&wshape)?)?
            .sum_in(&axes, c.acc)?
            .cast(c.acc.unwrap_or(dt.sum_dtype()));
        let mut shape = isz(&[s.bs, s.cout]);
        shape.extend(isz(&computed));
        let mut y_out = y.reshape(&shape)?;
        if extra > 0 {
            let mut keep: Vec<(usize, usize)> = shape.iter().map(|&n| (0, n as usize)).collect();
            keep[1 + dims].1 = out[dims - 1];
            // a buffer of its own: fused into a reader of the cut view, the sum would be
            // planned over the cut shape again
            y_out = y_out.contiguous().shrink(&keep)?;
        }
        let y_out = with_conv_gradient(self, weight, &y_out, c)?;
        y_out.add_channel_bias(bias)
    }
}

impl DynTensor {
    /// A pointwise convolution (a 1 x 1 kernel, stride 1, no padding) over several spatial
    /// axes, as one over their flattened length: the same sums, read along the whole image
    /// (6 x 6 -> 36) in vectors, where rows of 6 are read element by element. Taken where the
    /// last axis is not whole vectors and too short to widen (`tile_columns`): the output
    /// returns to its spatial shape, whose rows of 6 the scheduler does not tile either way,
    /// while a widened row (14 -> 16) is tiled, and flattening it would lose that.
    fn pointwise(
        &self,
        weight: &DynTensor,
        bias: Option<&DynTensor>,
        c: &Conv,
        s: &ConvShapes,
    ) -> Result<DynTensor> {
        let spatial = &self.shape()[2..];
        let flat = spatial.iter().product::<usize>();
        let x = self.reshape(&[s.bs as isize, self.shape()[1] as isize, flat as isize])?;
        let w = weight.reshape(&[s.cout as isize, weight.shape()[1] as isize, 1])?;
        let line = Conv {
            stride: 1.into(),
            dilation: 1.into(),
            padding: Default::default(),
            ..c.clone()
        };
        let y = x.conv2d_direct(&w, bias, &line)?;
        let mut shape = vec![s.bs as isize, s.cout as isize];
        shape.extend(spatial.iter().map(|&n| n as isize));
        y.reshape(&shape)
    }
}

/// Whether a buffer of `numel` elements is indexable by the 32-bit indices kernels form.
fn fits_index(numel: usize) -> bool {
    numel as u64 <= MAX_ELEMENTS
}

/// Output columns a direct convolution computes past its output's last axis of `n` columns
/// (each output summing `trip` products), so that axis is a whole number of the
/// [`LANES`]-wide vectors kernels store. The scheduler blocks a reduction in tiles of rows
/// times whole vectors of columns (`tg_runtime::kernel::tile_axes`) only where the last axis
/// is such a number; otherwise each invocation computes 4 outputs alone, loading every
/// input and weight value for them. ResNet-50's 7x7 and 14x14 stages were 60% of its time
/// that way. At most a quarter more columns are computed (7 -> 8, 14 -> 16; not 5 -> 8),
/// and only for sums long enough to be tiled (the scheduler's threshold is 16 products).
fn tile_columns(n: usize, trip: usize) -> usize {
    let extra = n.next_multiple_of(LANES) - n;
    if trip >= 16 && 4 * extra <= n {
        extra
    } else {
        0
    }
}
