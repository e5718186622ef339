//! Resize (and the older Upsample): every mode (nearest with its four rounding rules,
//! linear, cubic with `cubic_coeff_a` and `exclude_outside`) and coordinate transformation
//! (half_pixel, half_pixel_symmetric, pytorch_half_pixel, align_corners, asymmetric,
//! tf_crop_and_resize with its extrapolation value), `axes` and `keep_aspect_ratio_policy`.
//!
//! Resizing is separable: each resized axis is one weighted sum of gathers along that axis,
//! whose source positions and weights the host computes from the sizes (they depend on
//! nothing else), so the device work is gathers and multiply-adds that fuse.

use tg_onnx_format::{DType, OpType, Result};
use tg_ops::DynTensor;
use tg_ops::untyped::indexing::Index;

use crate::value::{At, NodeCtx, Value};

type R<T> = std::result::Result<T, tg_runtime::Error>;

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Nearest,
    Linear,
    Cubic,
}

/// One output axis's taps: for each tap, the source positions and weights per output
/// element, and which outputs fall outside the crop (tf_crop_and_resize).
struct Taps {
    index: Vec<Vec<i64>>,
    weight: Vec<Vec<f32>>,
    outside: Vec<bool>,
}

struct Params {
    mode: Mode,
    coord: String,
    nearest: String,
    a: f64,
    exclude_outside: bool,
}

fn source(p: &Params, i: usize, n: usize, m: usize, scale: f64, roi: (f64, f64)) -> f64 {
    let (i, nf, mf) = (i as f64, n as f64, m as f64);
    match p.coord.as_str() {
        "asymmetric" => i / scale,
        "pytorch_half_pixel" => {
            if m > 1 {
                (i + 0.5) / scale - 0.5
            } else {
                0.0
            }
        }
        "align_corners" => {
            // the resized length before flooring (n * scale), as ONNX's reference computes it
            let len = nf * scale;
            if m == 1 || len <= 1.0 {
                0.0
            } else {
                i * (nf - 1.0) / (len - 1.0)
            }
        }
        "tf_crop_and_resize" => {
            if m > 1 {
                roi.0 * (nf - 1.0) + i * (roi.1 - roi.0) * (nf - 1.0) / (mf - 1.0)
            } else {
                0.5 * (roi.0 + roi.1) * (nf - 1.0)
            }
        }
        "half_pixel_symmetric" => {
            let adjustment = mf / (nf * scale);
            let center = nf / 2.0;
            let offset = center * (1.0 - adjustment);
            offset + (i + 0.5) / scale - 0.5
        }
        _ => (i + 0.5) / scale - 0.5,
    }
}

fn taps(p: &Params, n: usize, m: usize, scale: f64, roi: (f64, f64)) -> Taps {
    let count = match p.mode {
        Mode::Nearest => 1,
        Mode::Linear => 2,
        Mode::Cubic => 4,
    };
    let mut t = Taps {
        index: vec![Vec::with_capacity(m); count],
        weight: vec![Vec::with_capacity(m); count],
        outside: Vec::with_capacity(m),
    };
    let last = n as i64 - 1;
    for i in 0..m {
        let x = source(p, i, n, m, scale, roi);
        t.outside
            .push(p.coord == "tf_crop_and_resize" && (x < 0.0 || x > (n as f64 - 1.0)));
        match p.mode {
            Mode::Nearest => {
                let r = match p.nearest.as_str() {
                    "round_prefer_ceil" => (x + 0.5).floor(),
                    "floor" => x.floor(),
                    "ceil" => x.ceil(),
                    _ => {
                        if x.fract() == 0.5 || x.fract() == -0.5 {
                            x.floor()
                        } else {
                            x.round()
                        }
                    }
                };
                t.index[0].push((r as i64).clamp(0, last));
                t.weight[0].push(1.0);
            }
            Mode::Linear => {
                let x = if p.coord == "tf_crop_and_resize" {
                    x
                } else {
                    x.clamp(0.0, (n - 1) as f64)
                };
                let f = x.floor();
                let w1 = x - f;
                t.index[0].push((f as i64).clamp(0, last));
                t.index[1].push((f as i64 + 1).clamp(0, last));
                t.weight[0].push((1.0 - w1) as f32);
                t.weight[1].push(w1 as f32);
            }
            Mode::Cubic => {
                let f = x.floor();
                let s = x - f;
                let a = p.a;
                let c0 = ((a * (s + 1.0) - 5.0 * a) * (s + 1.0) + 8.0 * a) * (s + 1.0) - 4.0 * a;
                let c1 = ((a + 2.0) * s - (a + 3.0)) * s * s + 1.0;
                let c2 = ((a + 2.0) * (1.0 - s) - (a + 3.0)) * (1.0 - s) * (1.0 - s) + 1.0;
                let c3 = ((a * (2.0 - s) - 5.0 * a) * (2.0 - s) + 8.0 * a) * (2.0 - s) - 4.0 * a;
                let mut ws = [c0, c1, c2, c3];
                let base = f as i64 - 1;
                if p.exclude_outside {
                    for (k, w) in ws.iter_mut().enumerate() {
                        let j = base + k as i64;
                        if j < 0 || j > last {
                            *w = 0.0;
                        }
                    }
                    let sum: f64 = ws.iter().sum();
                    if sum != 0.0 {
                        ws.iter_mut().for_each(|w| *w /= sum);
                    }
                }
                for (k, w) in ws.iter().enumerate() {
                    t.index[k].push((base + k as i64).clamp(0, last));
                    t.weight[k].push(*w as f32);
                }
            }
        }
    }
    t
}

pub(crate) fn resize(c: &mut NodeCtx) -> Result<Vec<Value>> {
    let x = c.t(0)?;
    let r = x.ndim();
    let upsample = c.node.op == OpType::Upsample;
    let mode = match c.node.string_or("mode", "nearest")?.as_str() {
        "nearest" => Mode::Nearest,
        "linear" | "bilinear" | "trilinear" => Mode::Linear,
        "cubic" | "bicubic" => Mode::Cubic,
        other => {
            return Err(c
                .node
                .bad_attr("mode", format!("{other:?} is not a resize mode")));
        }
    };
    if c.node.int_or("antialias", 0)? != 0 && mode != Mode::Nearest {
        return Err(c
            .node
            .bad_attr("antialias", "antialiased resizing is not supported"));
    }
    let opset10 = !upsample && c.node.since < 11;
    let coord = if upsample || opset10 {
        "asymmetric".to_string()
    } else {
        c.node
            .string_or("coordinate_transformation_mode", "half_pixel")?
    };
    let p = Params {
        mode,
        coord,
        nearest: if upsample || opset10 {
            "floor".to_string()
        } else {
            c.node.string_or("nearest_mode", "round_prefer_floor")?
        },
        a: c.node.float_or("cubic_coeff_a", -0.75)? as f64,
        exclude_outside: c.node.int_or("exclude_outside", 0)? != 0,
    };
    let axes: Vec<usize> = match c.node.ints("axes")? {
        Some(a) => a
            .iter()
            .map(|&k| super::axis(c, k, r))
            .collect::<Result<_>>()?,
        None => (0..r).collect(),
    };
    let (roi, scales, sizes) = if upsample {
        let s = if c.node.since >= 9 {
            c.host(1)?.to_f64s()
        } else {
            c.node
                .floats("scales")?
                .unwrap_or_default()
                .iter()
                .map(|&v| v as f64)
                .collect()
        };
        (None, Some(s), None)
    } else if opset10 {
        (None, Some(c.host(1)?.to_f64s()), None)
    } else {
        let roi = c
            .opt_host(1)?
            .map(|h| h.to_f64s())
            .filter(|v| !v.is_empty());
        let scales = c
            .opt_host(2)?
            .map(|h| h.to_f64s())
            .filter(|v| !v.is_empty());
        let sizes = c.opt_ints(3)?.filter(|v| !v.is_empty());
        (roi, scales, sizes)
    };
    let shape = x.shape().to_vec();
    let k = axes.len();
    // per resized axis: output size and scale
    let mut out = shape.clone();
    let mut scale = vec![1.0f64; r];
    match (scales, sizes) {
        (Some(s), _) => {
            // scales are input 1 of Upsample and of opset-10 Resize, else input 2
            let input = if upsample || opset10 { 1 } else { 2 };
            if s.len() != k {
                return Err(if upsample && c.node.since < 9 {
                    c.node
                        .bad_attr("scales", format!("{} scales for {k} axes", s.len()))
                } else {
                    c.node.element_count(&c.node.input_label(input), k, s.len())
                });
            }
            if let Some(&bad) = s.iter().find(|&&v| !(v.is_finite() && v > 0.0)) {
                return Err(c
                    .node
                    .input_value(input, bad, "scales must be positive and finite"));
            }
            for (j, &a) in axes.iter().enumerate() {
                scale[a] = s[j];
                out[a] = (shape[a] as f64 * s[j]).floor() as usize;
            }
        }
        (None, Some(sz)) => {
            c.node.expect_count(3, k, sz.len())?;
            if let Some(&bad) = sz.iter().find(|&&v| v < 0) {
                return Err(c
                    .node
                    .input_value(3, bad as f64, "sizes cannot be negative"));
            }
            let policy = c.node.string_or("keep_aspect_ratio_policy", "stretch")?;
            let ratios: Vec<f64> = axes
                .iter()
                .zip(&sz)
                .map(|(&a, &m)| m as f64 / shape[a] as f64)
                .collect();
            let common = match policy.as_str() {
                "not_larger" => ratios.iter().copied().fold(f64::INFINITY, f64::min),
                "not_smaller" => ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                "stretch" => f64::NAN,
                other => {
                    return Err(c.node.bad_attr(
                        "keep_aspect_ratio_policy",
                        format!("{other:?} is not stretch, not_larger or not_smaller"),
                    ));
                }
            };
            for (j, &a) in axes.iter().enumerate() {
                if common.is_nan() {
                    scale[a] = ratios[j];
                    out[a] = sz[j].max(0) as usize;
                } else {
                    scale[a] = common;
                    out[a] = (common * shape[a] as f64 + 0.5).floor() as usize;
                }
            }
        }
        (None, None) => return Err(c.bad("Resize needs scales or sizes")),
    }
    // the output's sizes, checked before the taps are built on the host
    let dims: Vec<i64> = out
        .iter()
        .map(|&d| i64::try_from(d).unwrap_or(i64::MAX))
        .collect();
    c.node.checked_shape(&dims, x.dtype())?;
    let extrapolation = c.node.float_or("extrapolation_value", 0.0)? as f64;
    let work = if x.dtype().is_float() {
        x.dtype()
    } else {
        DType::F32
    };
    let mut y = x.cast(work);
    for (j, &a) in axes.iter().enumerate() {
        let roi_a = match &roi {
            Some(v) if v.len() == 2 * k => (v[j], v[j + k]),
            Some(v) if v.len() == 2 * r => (v[a], v[a + r]),
            _ => (0.0, 1.0),
        };
        if out[a] == shape[a] && scale[a] == 1.0 && p.coord != "tf_crop_and_resize" {
            continue;
        }
        let t = taps(&p, shape[a], out[a], scale[a], roi_a);
        y = (|| -> R<DynTensor> {
            let along: Vec<isize> = (0..r)
                .map(|q| if q == a { out[a] as isize } else { 1 })
                .collect();
            let mut acc: Option<DynTensor> = None;
            for (idx, w) in t.index.iter().zip(&t.weight) {
                let mut index: Vec<Index> = (0..r).map(|_| Index::full()).collect();
                index[a] = Index::Tensor(DynTensor::from_slice(&[idx.len()], idx)?);
                let g = y.index(&index)?;
                let term = if p.mode == Mode::Nearest {
                    g
                } else {
                    g.mul(
                        &DynTensor::from_slice(&[w.len()], w)?
                            .cast(work)
                            .reshape(&along)?,
                    )?
                };
                acc = Some(match acc {
                    None => term,
                    Some(s) => s.add(&term)?,
                });
            }
            let mut v = acc.ok_or(tg_runtime::Error::Argument {
                op: "Resize",
                message: "no taps".into(),
            })?;
            if t.outside.iter().any(|&o| o) {
                let mask =
                    DynTensor::from_slice(&[t.outside.len()], &t.outside)?.reshape(&along)?;
                v = mask.where_(v.full_like(extrapolation), &v)?;
            }
            Ok(v)
        })()
        .at(c)?;
    }
    let y = if x.dtype().is_float() {
        y
    } else {
        y.round().at(c)?.cast(x.dtype())
    };
    Ok(vec![c.out(y)])
}
