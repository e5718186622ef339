//! Padding modes beyond a constant: reflect, replicate and circular, in numpy's grouped form
//! and torch's flat form. Each is made of views of the input (shrink, flip, expand, repeat)
//! joined by `cat`, so a padded tensor is one fused kernel.

use tg_core::decide;
use tg_core::shape::pad;
use tg_runtime::{Result, Scalar};

use super::DynTensor;

/// How `pad_with` fills the new elements.
#[derive(Clone, Copy, Debug)]
pub enum PadMode {
    /// One value everywhere (converted to the tensor's dtype); `DynTensor::pad`.
    Constant(Scalar),
    /// The mirror image without repeating the edge (`[1, 2, 3]` padded by 2 gives
    /// `[3, 2, 1, 2, 3, 2, 1]`); each pad must be smaller than its axis.
    Reflect,
    /// The edge element repeated; the axis must not be empty.
    Replicate,
    /// The other end of the axis, wrapping around (once at most: each pad at most the axis).
    Circular,
}

impl PadMode {
    /// `Constant` with any scalar (`PadMode::constant(f32::NEG_INFINITY)`).
    pub fn constant(value: impl Into<Scalar>) -> PadMode {
        PadMode::Constant(value.into())
    }
}

impl PadMode {
    /// The mode without its value, as the shape rule (tg-core) knows it.
    fn kind(&self) -> pad::PadMode {
        match self {
            PadMode::Constant(_) => pad::PadMode::Constant,
            PadMode::Reflect => pad::PadMode::Reflect,
            PadMode::Replicate => pad::PadMode::Replicate,
            PadMode::Circular => pad::PadMode::Circular,
        }
    }
}

impl DynTensor {
    /// Pads each axis by `(before, after)` in `mode` (numpy's grouped form, one pair per axis).
    /// A negative pad cuts instead: for circular padding before wrapping, for reflect and
    /// replicate after (they mirror or repeat the whole input first), as tinygrad does.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[3], &[1i32, 2, 3]).unwrap();
    /// let r = t.pad_with(&[(2, 1)], PadMode::Reflect).unwrap();
    /// assert_eq!(r.to_vec::<i32>().unwrap(), vec![3, 2, 1, 2, 3, 2]);
    /// let c = t.pad_with(&[(1, -1)], PadMode::Circular).unwrap();
    /// assert_eq!(c.to_vec::<i32>().unwrap(), vec![2, 1, 2]);
    /// ```
    pub fn pad_with(&self, pads: &[(isize, isize)], mode: PadMode) -> Result<DynTensor> {
        // the rule checks every mode's limits (reflect pads shorter than the axis, ...), so the
        // compositions below cannot fail on a shape
        decide(|ck| pad::pad(ck, "pad", self.shape(), pads, mode.kind()))?;
        match mode {
            PadMode::Constant(v) => self.pad(pads, v),
            PadMode::Circular => self.pad_circular(pads),
            PadMode::Reflect | PadMode::Replicate => {
                self.pad_mirror(pads, matches!(mode, PadMode::Reflect))
            }
        }
    }

    /// `pad_with` in torch's flat form: pairs from the LAST axis backwards,
    /// `[last_before, last_after, second_last_before, ...]`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[1, 2], &[1.0f32, 2.0]).unwrap();
    /// let p = t.pad_flat_with(&[1, 2], PadMode::Replicate).unwrap();
    /// assert_eq!(p.to_vec::<f32>().unwrap(), vec![1.0, 1.0, 2.0, 2.0, 2.0]);
    /// ```
    pub fn pad_flat_with(&self, pads: &[isize], mode: PadMode) -> Result<DynTensor> {
        let grouped = pad::group_flat_pads("pad", self.shape(), pads)?;
        self.pad_with(&grouped, mode)
    }

    /// Circular: cut where pads are negative, then tile each padded axis and keep the window.
    fn pad_circular(&self, pads: &[(isize, isize)]) -> Result<DynTensor> {
        let x = self.pad(&cuts(pads), 0)?;
        let grow: Vec<(usize, usize)> = pads
            .iter()
            .map(|&(b, a)| (b.max(0) as usize, a.max(0) as usize))
            .collect();
        let reps: Vec<usize> = grow
            .iter()
            .map(|&(b, a)| 1 + usize::from(b > 0) + usize::from(a > 0))
            .collect();
        let tiled = x.repeat(&reps)?;
        let window: Vec<(usize, usize)> = grow
            .iter()
            .zip(x.shape())
            .zip(tiled.shape())
            .map(|((&(b, a), &s), &t)| {
                (
                    if b == 0 { 0 } else { s - b },
                    if a == 0 { t } else { t - s + a },
                )
            })
            .collect();
        tiled.shrink(&window)
    }

    /// Reflect or replicate: per axis, the mirrored or repeated edge pieces joined around the
    /// input; negative pads cut afterwards.
    fn pad_mirror(&self, pads: &[(isize, isize)], reflect: bool) -> Result<DynTensor> {
        let mut x = self.clone();
        for (d, &(b, a)) in pads.iter().enumerate() {
            let (b, a) = (b.max(0) as usize, a.max(0) as usize);
            if b == 0 && a == 0 {
                continue;
            }
            let s = x.shape()[d];
            let piece = |from: usize, to: usize, len: usize| -> Result<DynTensor> {
                let mut r: Vec<(usize, usize)> = x.shape().iter().map(|&n| (0, n)).collect();
                r[d] = (from, to);
                let cut = x.shrink(&r)?;
                if reflect {
                    cut.flip(&[d as isize])
                } else {
                    let mut e: Vec<isize> = vec![-1; x.ndim()];
                    e[d] = len as isize;
                    cut.expand(&e)
                }
            };
            let mut parts = Vec::with_capacity(3);
            if b > 0 {
                parts.push(if reflect {
                    piece(1, b + 1, b)?
                } else {
                    piece(0, 1, b)?
                });
            }
            parts.push(x.clone());
            if a > 0 {
                parts.push(if reflect {
                    piece(s - 1 - a, s - 1, a)?
                } else {
                    piece(s - 1, s, a)?
                });
            }
            x = DynTensor::cat(&parts, d as isize)?;
        }
        x.pad(&cuts(pads), 0)
    }
}

/// The negative parts of `pads` (the cuts), as pads.
fn cuts(pads: &[(isize, isize)]) -> Vec<(isize, isize)> {
    pads.iter().map(|&(b, a)| (b.min(0), a.min(0))).collect()
}
