//! interpolate: resizing the trailing axes by gathering at computed source positions.

use tg_runtime::{DType, Error, Result};

use crate::untyped::DynTensor;
use crate::untyped::indexing::select::counter;
use crate::untyped::pad_modes::PadMode;

/// How `interpolate` computes a value between source elements (torch's modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpolation {
    /// Linear along each resized axis (bilinear for two, trilinear for three).
    Linear,
    /// The source element at `floor(i * in / out)` (torch's legacy `nearest`).
    Nearest,
    /// The source element at `floor((i + 0.5) * in / out)` (torch's `nearest-exact`).
    NearestExact,
}

impl DynTensor {
    /// Resizes the last `size.len()` axes to `size` (the leading axes are batch axes), as
    /// tinygrad's and torch's `interpolate`. `Linear` samples at the pixel centres
    /// (`(i + 0.5) * in / out - 0.5`, clamped to the input), or, with `align_corners`, so
    /// that the corner elements line up (`i * (in - 1) / (out - 1)`); the nearest modes take
    /// one source element. The result has this tensor's dtype (integers truncate after
    /// interpolating in f32, as tinygrad's cast does).
    ///
    /// Unlike tinygrad, an output size of 1 with `align_corners` reads the first element
    /// (torch's rule; tinygrad divides by zero there), and nearest positions are clamped to
    /// the input (tinygrad's f32 rounding could step one past it and read 0).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[1, 2], &[0.0f32, 1.0]).unwrap();
    /// let up = t.interpolate(&[4], Interpolation::Linear, false).unwrap();
    /// assert_eq!(up.to_vec::<f32>().unwrap(), vec![0.0, 0.25, 0.75, 1.0]);
    /// let near = t.interpolate(&[3], Interpolation::Nearest, false).unwrap();
    /// assert_eq!(near.to_vec::<f32>().unwrap(), vec![0.0, 0.0, 1.0]);
    /// ```
    pub fn interpolate(
        &self,
        size: &[usize],
        mode: Interpolation,
        align_corners: bool,
    ) -> Result<DynTensor> {
        if size.is_empty() || size.len() > self.ndim() {
            return Err(Error::Shape {
                op: "interpolate",
                message: format!(
                    "size {size:?} must name 1 to {} trailing axes of shape {:?}",
                    self.ndim(),
                    self.shape()
                ),
            });
        }
        if align_corners && mode != Interpolation::Linear {
            return Err(Error::Argument {
                op: "interpolate",
                message: "align_corners applies to Linear only".into(),
            });
        }
        let r = self.ndim();
        let mut x = self.clone();
        for (k, &out) in size.iter().enumerate().rev() {
            let a = r - size.len() + k;
            let n = self.shape()[a];
            if n == 0 && out > 0 {
                return Err(Error::Shape {
                    op: "interpolate",
                    message: format!(
                        "cannot resize the empty axis {a} of shape {:?} to {out}",
                        self.shape()
                    ),
                });
            }
            let mut along = vec![1isize; r];
            along[a] = out as isize;
            let mut target: Vec<isize> = x.shape().iter().map(|&s| s as isize).collect();
            target[a] = out as isize;
            let place = |t: DynTensor| -> Result<DynTensor> { t.reshape(&along)?.expand(&target) };
            x = match mode {
                Interpolation::Linear => {
                    let (low, high, frac) = linear_positions(n, out, align_corners)?;
                    let (lo, hi) = match linear_by_views(&x, a, n, out, align_corners)? {
                        Some(views) => views,
                        None => (
                            x.gather(a as isize, &place(low)?)?,
                            x.gather(a as isize, &place(high)?)?,
                        ),
                    };
                    lo.lerp(&hi, &place(frac)?)?
                }
                _ => {
                    let scale = n as f64 / out.max(1) as f64;
                    let offset = if mode == Interpolation::NearestExact {
                        0.5
                    } else {
                        0.0
                    };
                    if let Some(view) = nearest_by_view(&x, a, n, out, scale, offset)? {
                        x = view;
                        continue;
                    }
                    let pos = counter(out, DType::F32)?
                        .add(offset)?
                        .mul(scale)?
                        .cast(DType::I32);
                    let pos = pos.minimum(n.saturating_sub(1) as i32)?;
                    x.gather(a as isize, &place(pos)?)?
                }
            };
        }
        Ok(x.cast(self.dtype()))
    }
}

/// Nearest resizing of axis `a` (of `n`) to `out` as a view, where the positions the device
/// computes (`int((i + offset) * scale)` in f32, clamped) repeat each element `out / n` times
/// or take every `n / out`-th: an expand or a strided shrink instead of a gather, which reads
/// the axis once per output (a 2x upsample of (8,64,28,28): 33 ms on lavapipe). The
/// positions are computed here with the device's f32 arithmetic, so the view is taken only
/// where it reads exactly what the gather would.
fn nearest_by_view(
    x: &DynTensor,
    a: usize,
    n: usize,
    out: usize,
    scale: f64,
    offset: f64,
) -> Result<Option<DynTensor>> {
    if n == 0 || out == 0 {
        return Ok(None);
    }
    let (scale, offset) = (scale as f32, offset as f32);
    let pos = |i: usize| ((((i as f32) + offset) * scale) as i64).min(n as i64 - 1);
    let mut shape: Vec<isize> = x.shape().iter().map(|&s| s as isize).collect();
    if out.is_multiple_of(n) {
        let r = out / n;
        if (0..out).all(|i| pos(i) == (i / r) as i64) {
            let mut split = shape.clone();
            split.insert(a + 1, 1);
            let mut wide = split.clone();
            wide[a + 1] = r as isize;
            shape[a] = out as isize;
            return Ok(Some(x.reshape(&split)?.expand(&wide)?.reshape(&shape)?));
        }
    } else if n.is_multiple_of(out) {
        let r = n / out;
        let first = pos(0);
        if first < r as i64 && (0..out).all(|i| pos(i) == (i * r) as i64 + first) {
            let mut split = shape.clone();
            split[a] = out as isize;
            split.insert(a + 1, r as isize);
            let picked = x.reshape(&split)?;
            let mut ranges: Vec<(usize, usize)> = picked.shape().iter().map(|&s| (0, s)).collect();
            ranges[a + 1] = (first as usize, first as usize + 1);
            shape[a] = out as isize;
            return Ok(Some(picked.shrink(&ranges)?.reshape(&shape)?));
        }
    }
    Ok(None)
}

/// The source positions below and above each output position of linear resizing, as
/// `linear_positions` computes them on the device (integer arithmetic, so exactly).
fn linear_positions_host(n: usize, out: usize, align_corners: bool) -> Vec<(i64, i64)> {
    let (n, o) = (n as i64, out as i64);
    (0..o)
        .map(|i| {
            if align_corners && out <= 1 {
                return (0, 0);
            }
            let (num, den) = if align_corners {
                (i * (n - 1), o - 1)
            } else {
                ((2 * i + 1) * n - o, 2 * o)
            };
            let num = num.max(0).min((n - 1).max(0) * den);
            (num / den, (num + den - 1) / den)
        })
        .collect()
}

/// Axis `a` of `x` read at `clamp(q + shift, 0, n - 1)` for every `q`: the edge replicated
/// on one side by `shift`, as much cut from the other.
fn shifted(x: &DynTensor, a: usize, shift: i64) -> Result<DynTensor> {
    let mut pads = vec![(0isize, 0isize); x.ndim()];
    pads[a] = (-shift as isize, shift as isize);
    x.pad_with(&pads, PadMode::Replicate)
}

/// Linear resizing of axis `a` (of `n`) by a whole ratio `out / n` reads, for output `q r +
/// j`, the source elements `q + s_j` and `q + t_j` (clamped) for shifts fixed per phase `j`:
/// the values below and above each output as `r` shifted views of the axis, interleaved,
/// instead of two gathers that read the axis once per output (a bilinear 2x upsample of
/// (8,64,28,28): 50 ms on lavapipe). The positions are checked here against the device's
/// integer formula, so the views read exactly what the gathers would.
fn linear_by_views(
    x: &DynTensor,
    a: usize,
    n: usize,
    out: usize,
    align_corners: bool,
) -> Result<Option<(DynTensor, DynTensor)>> {
    if n < 2 || out <= n || !out.is_multiple_of(n) {
        return Ok(None);
    }
    let r = out / n;
    let pos = linear_positions_host(n, out, align_corners);
    let clamp = |v: i64| v.clamp(0, n as i64 - 1);
    // the shifts of each phase, read off q = 1 (n >= 2), then checked at every q
    let mut shifts = Vec::with_capacity(r);
    for j in 0..r {
        let (lo, hi) = pos[r + j];
        let (s, t) = (lo - 1, hi - 1);
        if s.unsigned_abs() as usize >= n || t.unsigned_abs() as usize >= n {
            return Ok(None);
        }
        let fits = (0..n).all(|q| {
            let (l, h) = pos[q * r + j];
            l == clamp(q as i64 + s) && h == clamp(q as i64 + t)
        });
        if !fits {
            return Ok(None);
        }
        shifts.push((s, t));
    }
    let mut merged: Vec<isize> = x.shape().iter().map(|&s| s as isize).collect();
    merged[a] = out as isize;
    let interleave = |views: Vec<DynTensor>| -> Result<DynTensor> {
        DynTensor::stack(&views, a as isize + 1)?.reshape(&merged)
    };
    let lows = shifts
        .iter()
        .map(|&(s, _)| shifted(x, a, s))
        .collect::<Result<Vec<_>>>()?;
    let highs = shifts
        .iter()
        .map(|&(_, t)| shifted(x, a, t))
        .collect::<Result<Vec<_>>>()?;
    Ok(Some((interleave(lows)?, interleave(highs)?)))
}

/// For linear resizing of an axis of `n` to `out`: the source positions below and above each
/// output position (i32) and the weight of the upper one (f32), in integer arithmetic as
/// tinygrad computes them: position `num / den`, clamped to `0..=n - 1`.
fn linear_positions(
    n: usize,
    out: usize,
    align_corners: bool,
) -> Result<(DynTensor, DynTensor, DynTensor)> {
    let i = counter(out, DType::I32)?;
    let (n, o) = (n as i64, out as i64);
    if align_corners && out <= 1 {
        let zero = DynTensor::zeros(&[out], DType::I32)?;
        return Ok((zero.clone(), zero, DynTensor::zeros(&[out], DType::F32)?));
    }
    let (num, den) = if align_corners {
        (i.mul(n - 1)?, o - 1)
    } else {
        (i.mul(2)?.add(1)?.mul(n)?.sub(o)?, 2 * o)
    };
    let num = num.maximum(0)?.minimum((n - 1).max(0) * den)?;
    let low = num.idiv(den)?;
    let high = num.add(den - 1)?.idiv(den)?;
    let frac = num.modulo(den)?.cast(DType::F32).div(den as f64)?;
    Ok((low, high, frac))
}
