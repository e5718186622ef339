//! tinygrad's IMAGE path: `image_conv2d` and `image_dot` with the channel-packed layout that
//! tinygrad uses on mobile GPUs (Qualcomm Adreno), where 2-D images with 4-channel texels
//! (RGBA) are read through the texture cache.
//!
//! Input and weight are laid out as "images": the input NHWC with channels in groups of 4
//! (one texel), the weight as `(cout / 4, kh, cin / 4, kw, 4, 4)`. Channel counts that are not
//! multiples of 4 are padded with zeros (and the padded outputs cut off), except depthwise
//! convolutions over a multiple of 4 groups, which pack the groups instead. Here the images
//! are ordinary buffers (the layout, not the texture hardware): results equal the direct
//! form. See docs/ops.md for what backing them with Vulkan storage images would take.

use super::DynTensor;
use super::conv::{Conv, ConvShapes};
use super::pool::{Padding, Window};
use tg_runtime::{DType, Error, Result};

fn isz(v: &[usize]) -> Vec<isize> {
    v.iter().map(|&s| s as isize).collect()
}

impl DynTensor {
    /// `conv2d` through tinygrad's channel-packed IMAGE layout, for 2-D float convolutions
    /// (`self` `(bs, cin, h, w)`). The packed input and weight are stored (two kernels), then
    /// one fused reduction reads them; the result has the direct form's values and dtype
    /// (tinygrad returns f32 for f16 inputs; tg casts back, so the option is a drop-in).
    ///
    /// tinygrad also aligns the image rows to 64 bytes and pads against bank conflicts, with
    /// never-read padding; those affect only real images and are left out.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[1, 1, 2, 2], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// let w = DynTensor::from_slice(&[2, 1, 1, 1], &[1.0f32, -1.0]).unwrap();
    /// let y = x.image_conv2d(&w, None, &Conv::new()).unwrap();
    /// assert_eq!(y.to_vec::<f32>().unwrap(), vec![1.0, 2.0, 3.0, 4.0, -1.0, -2.0, -3.0, -4.0]);
    /// ```
    pub fn image_conv2d(
        &self,
        weight: &DynTensor,
        bias: Option<&DynTensor>,
        c: &Conv,
    ) -> Result<DynTensor> {
        const OP: &str = "image_conv2d";
        let s = ConvShapes::new(OP, self, weight, bias, c)?;
        if s.dims() != 2 {
            return Err(Error::Shape {
                op: OP,
                message: format!(
                    "images are 2-D: input {:?} has {} spatial axes",
                    self.shape(),
                    s.dims()
                ),
            });
        }
        if let Some(dtype) = [self.dtype(), weight.dtype()]
            .into_iter()
            .find(|d| !d.is_float())
        {
            return Err(Error::DType {
                op: OP,
                dtype,
                message: "images hold floats".into(),
            });
        }
        let plain = self.dtype().least_upper(weight.dtype());
        let out_dtype = c.acc.unwrap_or(plain);
        let (bs, groups, (h, w)) = (s.bs, c.groups, (s.kernel[0], s.kernel[1]));
        let (mut cin, mut rcout) = (s.cin, s.cout / groups);
        let (x, wt) = (
            self.cast(plain),
            weight
                .cast(plain)
                .reshape(&isz(&[groups, rcout, cin, h, w]))?,
        );

        // negative padding cuts the input first; the rest pads the windows below
        let pads = c.padding.resolve(OP, 2)?;
        let cut: Vec<(isize, isize)> = pads.iter().map(|&(b, a)| (b.min(0), a.min(0))).collect();
        let grow = Padding::Pairs(pads.iter().map(|&(b, a)| (b.max(0), a.max(0))).collect());
        let mut x = x.pad_spatial(&cut, 0)?;
        let (iy, ix) = (x.shape()[2], x.shape()[3]);

        // channel counts to multiples of 4 (a texel), unless depthwise over 4k groups
        let mut wt = wt;
        if cin % 4 != 0 && !(cin == 1 && groups % 4 == 0) {
            let padded = cin.next_multiple_of(4);
            wt = wt.pad_to(&[None, None, Some(padded), None, None])?;
            x = x
                .reshape(&isz(&[bs, groups, cin, iy, ix]))?
                .pad_to(&[None, None, Some(padded), None, None])?
                .reshape(&isz(&[bs, groups * padded, iy, ix]))?;
            cin = padded;
        }
        let mut added = 0;
        if rcout % 4 != 0 && !(rcout == 1 && groups % 4 == 0) {
            added = 4 - rcout % 4;
            rcout += added;
            wt = wt.pad_to(&[None, Some(rcout), None, None, None])?;
        }
        let cout = groups * rcout;

        // the images: input NHWC, weight packed 4x4 per texel pair
        let x = x.permute(&[0, 2, 3, 1])?;
        let cin_last = iy == 1 && ix == 1;
        let wt = if cin == 1 {
            wt.reshape(&isz(&[cout / 4, 4, h, w]))?
                .permute(&[0, 2, 3, 1])?
        } else if cin_last {
            wt.reshape(&isz(&[cout / 4, 4, cin / 4, 4, h, w]))?
                .permute(&[0, 4, 2, 5, 1, 3])?
        } else {
            wt.reshape(&isz(&[cout / 4, 4, cin / 4, 4, h, w]))?
                .permute(&[0, 4, 2, 5, 3, 1])?
        };
        let (x, wt) = (x.contiguous(), wt.contiguous());

        // read them back as (bs, oy, ox, *group, 1, 1, rcin_hi, rcin_lo, h, w) and the weight
        // broadcast against it
        let (rcin_hi, rcin_lo) = if cin >= 4 { (cin / 4, 4) } else { (1, 1) };
        let group_shape = if cin == 1 {
            [groups / 4, 4]
        } else {
            [groups, 1]
        };
        let rcout_expand = if rcout >= 4 { [rcout / 4, 4] } else { [1, 1] };
        let x = x.reshape(&isz(&[bs, iy, ix, groups, rcin_hi, rcin_lo]))?;
        let wt = if cin_last {
            wt.reshape(&isz(&[cout / 4, h, rcin_hi, w, 4, rcin_lo]))?
        } else {
            wt.reshape(&isz(&[cout / 4, h, rcin_hi, w, rcin_lo, 4]))?
                .permute(&[0, 1, 2, 3, 5, 4])?
        };
        let window = Window::new(
            OP,
            vec![h, w],
            c.stride.resolve(OP, "stride", 2)?,
            c.dilation.resolve(OP, "dilation", 2)?,
        )?;
        let x = x
            .permute(&[0, 3, 4, 5, 1, 2])?
            .pad_spatial(&grow.resolve(OP, 2)?, 0)?
            .pool_window(OP, &window)?; // (bs, groups, rcin_hi, rcin_lo, oy, ox, h, w)
        let (oy, ox) = (x.shape()[4], x.shape()[5]);
        let mut xs = isz(&[bs, oy, ox]);
        xs.extend(isz(&group_shape));
        xs.extend(isz(&[1, 1, rcin_hi, rcin_lo, h, w]));
        let x = x.permute(&[0, 4, 5, 1, 2, 3, 6, 7])?.reshape(&xs)?;
        let mut ws = isz(&[1, 1, 1]);
        ws.extend(isz(&group_shape));
        ws.extend(isz(&rcout_expand));
        ws.extend(isz(&[rcin_hi, rcin_lo, h, w]));
        let wt = wt.permute(&[0, 4, 2, 5, 1, 3])?.reshape(&ws)?;

        let y = x.mul(&wt)?.cast(DType::F32).sum_as(
            Some(&[-4, -3, -2, -1]),
            false,
            c.acc.unwrap_or(DType::F32),
        )?;
        let y = y.reshape(&isz(&[bs, oy, ox, groups, rcout]))?;
        let y = if added > 0 {
            y.shrink_to(&[None, None, None, None, Some(rcout - added)])?
        } else {
            y
        };
        let y = y
            .reshape(&isz(&[bs, oy, ox, groups * (rcout - added)]))?
            .permute(&[0, 3, 1, 2])?
            .cast(out_dtype);
        crate::untyped::conv::with_conv_gradient(self, weight, &y, c)?.add_channel_bias(bias)
    }

    /// The matrix product `self @ w` computed as a 1x1 `image_conv2d` (tinygrad's
    /// `image_dot`): `(.., m, k) @ (.., k, n)` is the conv of a `(k, m, 1)` image with `n`
    /// 1x1 filters. Leading axes of `w` are groups and must equal the trailing batch axes of
    /// `self`. Floats only; the result equals `dot`'s (its dtype is the operands' promoted
    /// dtype, or `acc`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = DynTensor::from_slice(&[2, 2], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// let b = DynTensor::from_slice(&[2, 2], &[5.0f32, 6.0, 7.0, 8.0]).unwrap();
    /// assert_eq!(a.image_dot(&b, None).unwrap().to_vec::<f32>().unwrap(), vec![19.0, 22.0, 43.0, 50.0]);
    /// ```
    pub fn image_dot(&self, w: &DynTensor, acc: Option<DType>) -> Result<DynTensor> {
        const OP: &str = "image_dot";
        let err = |what: String| Error::Shape {
            op: OP,
            message: format!(
                "cannot multiply {:?} by {:?}: {what}",
                self.shape(),
                w.shape()
            ),
        };
        if self.ndim() == 0 || w.ndim() < 2 {
            return Err(err(
                "needs a matrix or vector and a matrix (with optional group axes)".into(),
            ));
        }
        let (nx, nw) = (self.ndim(), w.ndim());
        let (cin, cout) = (w.shape()[nw - 2], w.shape()[nw - 1]);
        if self.shape()[nx - 1] != cin {
            return Err(err(format!(
                "inner dimensions differ: {} vs {cin}",
                self.shape()[nx - 1]
            )));
        }
        let batch = &self.shape()[..nx.saturating_sub(2)];
        let wbatch = &w.shape()[..nw - 2];
        if wbatch.len() > batch.len() || batch[batch.len() - wbatch.len()..] != *wbatch {
            return Err(err(format!(
                "group axes {wbatch:?} are not the trailing batch axes of {batch:?}"
            )));
        }
        let (bs, groups): (usize, usize) = (batch.iter().product(), wbatch.iter().product());
        // (.., m, k) -> (bs / groups, groups * k, m, 1); (.., k, n) -> (groups * n, k, 1, 1)
        let cx = if nx > 1 {
            self.transpose(-1, -2)?
        } else {
            self.clone()
        };
        let cx = cx.reshape(
            &isz(&[bs / groups.max(1), groups * cin])
                .into_iter()
                .chain([-1, 1])
                .collect::<Vec<_>>(),
        )?;
        let cw = w
            .transpose(-1, -2)?
            .reshape(&isz(&[groups * cout, cin, 1, 1]))?;
        let conv = Conv {
            groups,
            acc,
            ..Conv::default()
        };
        let y = cx.image_conv2d(&cw, None, &conv)?;
        let y = if nx > 1 {
            let mut shape = isz(batch);
            shape.extend([cout as isize, -1]);
            y.reshape(&shape)?.transpose(-1, -2)?
        } else {
            y.reshape(&[cout as isize])?
        };
        Ok(y)
    }
}
