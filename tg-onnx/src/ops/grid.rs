//! AffineGrid: the sampling grid of an affine transform, as `(N, H, W, 2)` (or `(N, D, H,
//! W, 3)`): the normalized coordinates of every output position (computed on the host
//! from the size) times each transform.

use tg_onnx_format::{DType, HostTensor, Result};
use tg_ops::DynTensor;

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
    let size: Vec<usize> = c
        .host(1)?
        .to_i64s()
        .iter()
        .map(|&v| v.max(0) as usize)
        .collect();
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
