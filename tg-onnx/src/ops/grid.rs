//! AffineGrid and GridSample. AffineGrid: the sampling grid of an affine transform, as `(N, H, W, 2)` (or `(N, D, H,
//! W, 3)`): the normalized coordinates of every output position (computed on the host
//! from the size) times each transform.

use tg_onnx_format::{DType, HostTensor, Result};
use tg_ops::DynTensor;
use tg_ops::untyped::elementwise::Operand;
use tg_ops::untyped::indexing::Index;

use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

/// Normalized coordinates along an axis of `n` positions in `[-1, 1]`.
fn coords(n: usize, align_corners: bool) -> Vec<f64> {
    (0..n)
        .map(|i| {
            if align_corners {
                if n == 1 {
                    -1.0
                } else {
                    -1.0 + 2.0 * i as f64 / (n - 1) as f64
                }
            } else {
                -1.0 + (2 * i + 1) as f64 / n as f64
            }
        })
        .collect()
}

pub(crate) fn affine_grid(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let theta = c.t(0)?;
    // a negative size, or a grid past tg's element limit, is refused before the host loop
    let size = c.ints(1)?;
    let size = c.node.checked_shape(&size, theta.dtype())?;
    let align = c.node.int_or("align_corners", 0)? != 0;
    let spatial = &size[2.min(size.len())..];
    let dims = spatial.len();
    if !(dims == 2 || dims == 3) || theta.ndim() != 3 {
        return Err(
            c.bad("AffineGrid takes (N, 2, 3) with a 4-D size or (N, 3, 4) with a 5-D size")
        );
    }
    // rows (x, y[, z], 1) for every position, x the fastest (the last spatial axis)
    let axes: Vec<Vec<f64>> = spatial.iter().map(|&n| coords(n, align)).collect();
    let count: usize = spatial.iter().product();
    let mut base = Vec::with_capacity(count * (dims + 1));
    for flat in 0..count {
        let mut rem = flat;
        let mut idx = vec![0; dims];
        for a in (0..dims).rev() {
            idx[a] = rem % spatial[a];
            rem /= spatial[a];
        }
        for a in (0..dims).rev() {
            base.push(axes[a][idx[a]]);
        }
        base.push(1.0);
    }
    let base = crate::value::upload(&HostTensor::from_f64s(
        DType::F32,
        &[count, dims + 1],
        &base,
    ))
    .at(c)?;
    let y = (|| -> R<DynTensor> {
        let g = base.cast(theta.dtype()).matmul(&theta.transpose(-1, -2)?)?;
        let mut shape = vec![size[0] as isize];
        shape.extend(spatial.iter().map(|&d| d as isize));
        shape.push(dims as isize);
        g.reshape(&shape)
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}

/// `GridSample`: each output position reads the input at the position the grid gives
/// (normalized to `[-1, 1]` per spatial axis, the last grid component along the last axis),
/// interpolated (nearest, linear, cubic) with ONNX's padding modes (zeros, border,
/// reflection). Every tap is a gather of the flattened spatial axes at a computed index, its
/// weight and validity computed elementwise, so the whole op fuses into a few kernels.
pub(crate) fn grid_sample(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let (x, grid) = (c.t(0)?, c.t(1)?);
    let dims = x.ndim().saturating_sub(2);
    if dims == 0 || grid.ndim() != dims + 2 || grid.shape()[grid.ndim() - 1] != dims {
        return Err(
            c.bad("GridSample takes (N, C, spatial...) and a grid (N, out..., spatial rank)")
        );
    }
    let mode = match c
        .node
        .string_or(
            "mode",
            if c.node.since >= 20 {
                "linear"
            } else {
                "bilinear"
            },
        )?
        .as_str()
    {
        "nearest" => 0,
        "linear" | "bilinear" => 1,
        "cubic" | "bicubic" => 2,
        other => {
            return Err(c
                .node
                .bad_attr("mode", format!("{other:?} is not a GridSample mode")));
        }
    };
    let padding = c.node.string_or("padding_mode", "zeros")?;
    if !matches!(padding.as_str(), "zeros" | "border" | "reflection") {
        return Err(c
            .node
            .bad_attr("padding_mode", format!("{padding:?} is not a padding mode")));
    }
    let align = c.node.int_or("align_corners", 0)? != 0;
    let sizes: Vec<usize> = x.shape()[2..].to_vec();
    let (n, ch) = (x.shape()[0], x.shape()[1]);
    let out: Vec<usize> = grid.shape()[1..grid.ndim() - 1].to_vec();
    let p: usize = out.iter().product();
    let s: usize = sizes.iter().product();
    let y = (|| -> R<DynTensor> {
        let g = grid
            .cast(DType::F32)
            .reshape(&[n as isize, p as isize, dims as isize])?;
        let data = x
            .cast(DType::F32)
            .reshape(&[n as isize, ch as isize, s as isize])?;
        // per spatial axis: the taps' integer positions (after padding) and weights, and
        // whether the tap lies inside (zeros padding)
        let mut axes: Vec<Vec<(DynTensor, DynTensor, Option<DynTensor>)>> = Vec::new();
        for (d, &size) in sizes.iter().enumerate() {
            let comp = g.index(&[Index::Ellipsis, Index::Int((dims - 1 - d) as isize)])?; // (n, p)
            let len = size as f64;
            let mut v = if align {
                comp.add(1.0)?.mul((len - 1.0) / 2.0)?
            } else {
                comp.add(1.0)?.mul(len)?.sub(1.0)?.div(2.0)?
            };
            if mode == 0 {
                v = v.round()?;
            }
            let (lo, hi) = if align {
                (0.0, len - 1.0)
            } else {
                (-0.5, len - 0.5)
            };
            v = match padding.as_str() {
                "border" => {
                    let out_of = v.lt(lo)?.logical_or(&v.gt(hi)?)?;
                    out_of.where_(
                        v.clamp(
                            Some(Operand::from(tg_runtime::Scalar::Float(0.0))),
                            Some(Operand::from(tg_runtime::Scalar::Float(len - 1.0))),
                        )?,
                        &v,
                    )?
                }
                "reflection" => reflect(&v, lo, hi)?,
                _ => v,
            };
            let floor = v.floor()?;
            let frac = v.sub(&floor)?;
            let taps: Vec<(DynTensor, DynTensor)> = match mode {
                0 => vec![(v.clone(), v.ones_like())],
                1 => vec![
                    (floor.clone(), frac.neg()?.add(1.0)?),
                    (floor.add(1.0)?, frac.clone()),
                ],
                _ => {
                    let a = -0.75;
                    let t = &frac;
                    let t1 = t.add(1.0)?;
                    let c0 = t1
                        .mul(a)?
                        .sub(5.0 * a)?
                        .mul(&t1)?
                        .add(8.0 * a)?
                        .mul(&t1)?
                        .sub(4.0 * a)?;
                    let c1 = t.mul(a + 2.0)?.sub(a + 3.0)?.mul(t)?.mul(t)?.add(1.0)?;
                    let u = t.neg()?.add(1.0)?;
                    let c2 = u.mul(a + 2.0)?.sub(a + 3.0)?.mul(&u)?.mul(&u)?.add(1.0)?;
                    let u2 = t.neg()?.add(2.0)?;
                    let c3 = u2
                        .mul(a)?
                        .sub(5.0 * a)?
                        .mul(&u2)?
                        .add(8.0 * a)?
                        .mul(&u2)?
                        .sub(4.0 * a)?;
                    vec![
                        (floor.sub(1.0)?, c0),
                        (floor.clone(), c1),
                        (floor.add(1.0)?, c2),
                        (floor.add(2.0)?, c3),
                    ]
                }
            };
            let mut per = Vec::new();
            for (pos, w) in taps {
                // the tap's integer position, padded as ONNX fetches it
                let i = pos.trunc()?;
                let (i, valid) = match padding.as_str() {
                    "border" => (
                        i.clamp(
                            Some(Operand::from(tg_runtime::Scalar::Float(0.0))),
                            Some(Operand::from(tg_runtime::Scalar::Float(len - 1.0))),
                        )?,
                        None,
                    ),
                    "reflection" => (reflect(&i, lo, hi)?.trunc()?, None),
                    _ => {
                        let ok = i.ge(0.0)?.logical_and(&i.le(len - 1.0)?)?;
                        (ok.where_(&i, i.zeros_like())?, Some(ok))
                    }
                };
                per.push((i.cast(DType::I64), w, valid));
            }
            axes.push(per);
        }
        // every combination of one tap per axis
        let strides = tg_onnx_format::fold::strides(&sizes);
        let mut combos: Vec<(DynTensor, DynTensor, Option<DynTensor>)> = vec![(
            DynTensor::zeros(&[n, p], DType::I64)?,
            DynTensor::ones(&[n, p], DType::F32)?,
            None,
        )];
        for (d, per) in axes.iter().enumerate() {
            let mut next = Vec::new();
            for (lin, w, valid) in &combos {
                for (i, wd, vd) in per {
                    let l = lin.add(&i.mul(strides[d] as i64)?)?;
                    let ww = w.mul(wd)?;
                    let v = match (valid, vd) {
                        (Some(a), Some(b)) => Some(a.logical_and(b)?),
                        (Some(a), None) => Some(a.clone()),
                        (None, Some(b)) => Some(b.clone()),
                        (None, None) => None,
                    };
                    next.push((l, ww, v));
                }
            }
            combos = next;
        }
        let mut acc: Option<DynTensor> = None;
        for (lin, w, valid) in combos {
            let idx = lin.reshape(&[n as isize, 1, p as isize])?.expand(&[
                n as isize,
                ch as isize,
                p as isize,
            ])?;
            let mut v = data
                .gather(2, &idx)?
                .mul(&w.reshape(&[n as isize, 1, p as isize])?)?;
            if let Some(ok) = valid {
                v = ok
                    .reshape(&[n as isize, 1, p as isize])?
                    .where_(&v, v.zeros_like())?;
            }
            acc = Some(match acc {
                None => v,
                Some(a) => a.add(&v)?,
            });
        }
        let acc = acc.ok_or(tg_runtime::Error::Argument {
            op: "GridSample",
            message: "no taps".into(),
        })?;
        let mut shape = vec![n as isize, ch as isize];
        shape.extend(out.iter().map(|&d| d as isize));
        Ok(acc.reshape(&shape)?.cast(x.dtype()))
    })()
    .at(c)?;
    Ok(vec![c.out(y)])
}

/// Reflects `v` into `[lo, hi]` by its nearer border until it lies inside (ONNX's rule).
fn reflect(v: &DynTensor, lo: f64, hi: f64) -> R<DynTensor> {
    let range = hi - lo;
    // below: near is lo (lo + r), far is hi (hi - r)
    let below = v.neg()?.add(lo)?;
    let k = below.div(range)?.trunc()?;
    let r = below.sub(&k.mul(range)?)?;
    let even = k.sub(&k.div(2.0)?.floor()?.mul(2.0)?)?.eq(0.0)?;
    let from_below = even.where_(r.add(lo)?, r.neg()?.add(hi)?)?;
    let above = v.sub(hi)?;
    let k = above.div(range)?.trunc()?;
    let r = above.sub(&k.mul(range)?)?;
    let even = k.sub(&k.div(2.0)?.floor()?.mul(2.0)?)?.eq(0.0)?;
    let from_above = even.where_(r.neg()?.add(hi)?, r.add(lo)?)?;
    v.lt(lo)?
        .where_(&from_below, v.gt(hi)?.where_(&from_above, v)?)
}
