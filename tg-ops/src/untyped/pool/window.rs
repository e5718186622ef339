//! The sliding-window primitive (`pool`) and the padding arithmetic around it.
//!
//! `pool` turns each window into trailing axes of a view: `(..., i1, i2)` with kernel
//! `(k1, k2)` becomes `(..., o1, o2, k1, k2)`. It only moves data (reshape, expand, shrink,
//! permute), so a reduction over the window axes is one fused kernel that reads the input in
//! place. Pooling reduces the window axes; convolution multiplies them by a weight first.

use super::options::{Sizes, Window};
use crate::untyped::DynTensor;
use tg_core::decide;
use tg_core::shape::window;
use tg_runtime::{Lazy, Result, Scalar};

/// `ceil(a / b)` for `b > 0` and any sign of `a` (Python's `-(-a // b)`).
impl DynTensor {
    /// The sliding windows of the last `kernel.len()` axes as new trailing axes:
    /// `(..., i1, .., in)` becomes `(..., o1, .., on, k1, .., kn)`, window `(o, k)` holding
    /// element `o * stride + k * dilation` of each axis, `o = ceil((i - dilation * (k - 1)) /
    /// stride)` (tinygrad's `_pool`). `stride` and `dilation` take one value for all axes or
    /// one per axis. A window larger than its axis is an error.
    ///
    /// The view never copies: it is composed as tinygrad composes it, by repeating each axis
    /// enough times that a reshape lines the windows up, then shrinking to every `stride`-th
    /// one (windows that do not overlap are a plain reshape).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[5], &[0i32, 1, 2, 3, 4]).unwrap();
    /// let w = t.pool(&[3], 1, 1).unwrap();
    /// assert_eq!(w.shape(), &[3, 3]);
    /// assert_eq!(w.to_vec::<i32>().unwrap(), vec![0, 1, 2, 1, 2, 3, 2, 3, 4]);
    /// let d = t.pool(&[2], 2, 2).unwrap(); // dilation 2: elements 0 and 2, then 2 and 4
    /// assert_eq!(d.to_vec::<i32>().unwrap(), vec![0, 2, 2, 4]);
    /// ```
    pub fn pool(
        &self,
        kernel: &[usize],
        stride: impl Into<Sizes>,
        dilation: impl Into<Sizes>,
    ) -> Result<DynTensor> {
        let dims = kernel.len();
        let w = Window::new(
            "pool",
            kernel.to_vec(),
            stride.into().resolve("pool", "stride", dims)?,
            dilation.into().resolve("pool", "dilation", dims)?,
        )?;
        self.pool_window("pool", &w)
    }

    pub(crate) fn pool_window(&self, op: &'static str, w: &Window) -> Result<DynTensor> {
        let dims = w.kernel.len();
        let zero = vec![(0, 0); dims];
        let out_shape = decide(|ck| window::pool(ck, op, self.shape(), w, &zero, false))?;
        let lead = self.ndim() - dims;
        let out = &out_shape[lead..];
        let apart = (0..dims).all(|a| w.kernel[a] <= w.stride[a] && w.dilation[a] == 1);
        let x = if apart {
            windows_apart(&self.lazy, lead, out, &w.kernel, &w.stride)?
        } else {
            windows_overlapping(&self.lazy, lead, out, w)?
        };
        // (..., k1, o1, k2, o2, ...) -> (..., o1, o2, ..., k1, k2, ...)
        let mut perm: Vec<usize> = (0..lead).collect();
        perm.extend((0..dims).map(|a| lead + 2 * a + 1));
        perm.extend((0..dims).map(|a| lead + 2 * a));
        let windows = x.permute(&perm)?;
        let taps: usize = w.kernel.iter().product();
        let windows = DynTensor::wrap(windows);
        if apart || !self.dtype().is_float() || taps > MAX_TAPS {
            return Ok(windows);
        }
        // overlapping windows differentiate by their own rule (see `scatter_windows`)
        let (input, w) = (self.shape().to_vec(), w.clone());
        Ok(windows.with_gradient(&[self], move |g| {
            Ok(vec![Some(scatter_windows(g, &input, &w)?)])
        }))
    }

    /// `stride - 1` zeros between neighbours along each of the last `stride.len()` axes: an
    /// axis of `k` becomes `k * s - (s - 1)`.
    pub(crate) fn interleave_zeros(&self, stride: &[usize]) -> Result<DynTensor> {
        let dims = stride.len();
        let lead = self.ndim() - dims;
        let spatial = &self.shape()[lead..];
        let mut split: Vec<isize> = self.shape()[..lead].iter().map(|&s| s as isize).collect();
        let mut pads = vec![(0isize, 0isize); lead];
        for a in 0..dims {
            split.extend([spatial[a] as isize, 1]);
            pads.extend([(0, 0), (0, stride[a] as isize - 1)]);
        }
        let mut merged: Vec<isize> = split[..lead].to_vec();
        merged.extend((0..dims).map(|a| (spatial[a] * stride[a]) as isize));
        let spaced = self.reshape(&split)?.pad(&pads, 0)?.reshape(&merged)?;
        let mut keep: Vec<Option<usize>> = self.shape()[..lead].iter().map(|&s| Some(s)).collect();
        keep.extend((0..dims).map(|a| Some(spatial[a] * stride[a] - (stride[a] - 1))));
        spaced.shrink_to(&keep)
    }

    /// Pads the last `pads.len()` axes by `(before, after)` with `value` (negative amounts
    /// cut), leaving the leading axes alone.
    pub(crate) fn pad_spatial(
        &self,
        pads: &[(isize, isize)],
        value: impl Into<Scalar>,
    ) -> Result<DynTensor> {
        let mut all = vec![(0isize, 0isize); self.ndim().saturating_sub(pads.len())];
        all.extend_from_slice(pads);
        self.pad(&all, value)
    }
}

/// Kernel taps up to which overlapping windows differentiate by `scatter_windows` (a sum of
/// one shifted view per tap); larger kernels keep the gradient through the ops.
const MAX_TAPS: usize = 64;

/// The gradient of overlapping windows' input (of shape `input`) given the windows' gradient
/// `g` `(..., *out, *kernel)`: each tap's values spread by the stride and shifted to where
/// the tap reads, summed over the taps, so every input element adds what the windows read
/// from it. Through the ops (the repeated, reshaped input of `windows_overlapping`) the same
/// sum is a reduction over the repeats whose summands are recomputed per repeat: a max pool
/// 3x3 stride 2 over (8,64,56,56) took 108 ms to differentiate on lavapipe, and 7 s to
/// compile.
fn scatter_windows(g: &DynTensor, input: &[usize], w: &Window) -> Result<DynTensor> {
    let dims = w.kernel.len();
    let lead = input.len() - dims;
    let out = g.shape()[lead..lead + dims].to_vec();
    let mut total: Option<DynTensor> = None;
    let taps: usize = w.kernel.iter().product();
    for t in 0..taps {
        // the tap's position in the kernel, last axis fastest
        let mut tap = vec![0; dims];
        let mut rest = t;
        for a in (0..dims).rev() {
            tap[a] = rest % w.kernel[a];
            rest /= w.kernel[a];
        }
        let mut keep: Vec<(usize, usize)> = g.shape().iter().map(|&s| (0, s)).collect();
        for a in 0..dims {
            keep[lead + dims + a] = (tap[a], tap[a] + 1);
        }
        let head: Vec<isize> = g.shape()[..lead + dims]
            .iter()
            .map(|&s| s as isize)
            .collect();
        let spread = g
            .shrink(&keep)?
            .reshape(&head)?
            .interleave_zeros(&w.stride)?;
        // window o's tap reads element o * s + tap * d of the axis
        let mut pads = vec![(0isize, 0isize); lead];
        for a in 0..dims {
            let before = tap[a] * w.dilation[a];
            let reach = before + out[a] * w.stride[a] - (w.stride[a] - 1);
            pads.push((before as isize, input[lead + a] as isize - reach as isize));
        }
        let placed = spread.pad(&pads, 0)?;
        total = Some(match total {
            Some(sum) => sum.add(&placed)?,
            None => placed,
        });
    }
    match total {
        Some(t) => Ok(t),
        None => DynTensor::zeros(input, g.dtype()),
    }
}

/// Windows that do not overlap (kernel <= stride, no dilation): cut or pad each axis to
/// `o * s`, split it into `(o, s)` and keep the first `k` of each row.
fn windows_apart(
    x: &Lazy,
    lead: usize,
    out: &[usize],
    kernel: &[usize],
    stride: &[usize],
) -> Result<Lazy> {
    let shape = x.shape().to_vec();
    let (head, sizes) = shape.split_at(lead);
    let mut ranges: Vec<(usize, usize)> = shape.iter().map(|&s| (0, s)).collect();
    let mut pads = vec![(0, 0); shape.len()];
    for (a, (&o, &s)) in out.iter().zip(stride).enumerate() {
        let want = o * s;
        if want <= sizes[a] {
            ranges[lead + a] = (0, want);
        } else {
            pads[lead + a] = (0, want - sizes[a]);
        }
    }
    let x = x.shrink(&ranges)?.pad(&pads)?;
    let mut split = head.to_vec();
    for (&o, &s) in out.iter().zip(stride) {
        split.extend([o, s]);
    }
    let mut keep: Vec<(usize, usize)> = head.iter().map(|&s| (0, s)).collect();
    for (&o, &k) in out.iter().zip(kernel) {
        keep.extend([(0, o), (0, k)]);
    }
    // (..., o1, k1, o2, k2) -> (..., k1, o1, k2, o2)
    let x = x.reshape(&split)?.shrink(&keep)?;
    let mut perm: Vec<usize> = (0..lead).collect();
    for a in 0..out.len() {
        perm.extend([lead + 2 * a + 1, lead + 2 * a]);
    }
    x.permute(&perm)
}

/// Overlapping or dilated windows: repeat each axis `r` times so that rows of length
/// `i * f + d` start one dilation step further into the input each; column `o * s` of row
/// `k` is then element `k * d + o * s`.
fn windows_overlapping(x: &Lazy, lead: usize, out: &[usize], w: &Window) -> Result<Lazy> {
    let shape = x.shape().to_vec();
    let (head, sizes) = shape.split_at(lead);
    let dims = out.len();
    // f scales the input so that a row is long enough for o * s columns
    let row: Vec<usize> = (0..dims)
        .map(|a| {
            let (i, o, s, d) = (sizes[a], out[a], w.stride[a], w.dilation[a]);
            let f = (o * s).saturating_sub(d).div_ceil(i).max(1);
            i * f + d
        })
        .collect();
    // each axis (i) -> (r, i) -> r * i, cut to k * row
    let mut up = head.to_vec();
    let mut wide = head.to_vec();
    let mut flat = head.to_vec();
    for a in 0..dims {
        let r = (w.kernel[a] * row[a]).div_ceil(sizes[a]);
        up.extend([1, sizes[a]]);
        wide.extend([r, sizes[a]]);
        flat.push(r * sizes[a]);
    }
    let x = x.reshape(&up)?.expand(&wide)?.reshape(&flat)?;
    let mut cut: Vec<(usize, usize)> = head.iter().map(|&s| (0, s)).collect();
    cut.extend((0..dims).map(|a| (0, w.kernel[a] * row[a])));
    let mut rows = head.to_vec();
    for (&k, &r) in w.kernel.iter().zip(&row) {
        rows.extend([k, r]);
    }
    let x = x.shrink(&cut)?.reshape(&rows)?;
    // keep o * s columns of each row, split them into (o, s) and keep the first of each
    let mut cols: Vec<(usize, usize)> = head.iter().map(|&s| (0, s)).collect();
    let mut split = head.to_vec();
    let mut first: Vec<(usize, usize)> = head.iter().map(|&s| (0, s)).collect();
    let mut merged = head.to_vec();
    for ((&k, &o), &s) in w.kernel.iter().zip(out).zip(&w.stride) {
        cols.extend([(0, k), (0, o * s)]);
        split.extend([k, o, s]);
        first.extend([(0, k), (0, o), (0, 1)]);
        merged.extend([k, o]);
    }
    x.shrink(&cols)?
        .reshape(&split)?
        .shrink(&first)?
        .reshape(&merged)
}

/// The pads of `ceil_mode`: each `after` pad grown so the floor rule gives the ceiling
/// output (tg-core's rule).
pub(crate) fn ceil_mode_pads(
    sizes: &[usize],
    pads: &[(isize, isize)],
    w: &Window,
) -> Vec<(isize, isize)> {
    let extent = w.extent();
    (0..pads.len())
        .map(|a| {
            let after = window::ceil_mode_after(sizes[a], pads[a], extent[a], w.stride[a]);
            (pads[a].0, after)
        })
        .collect()
}
