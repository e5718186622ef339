//! Winograd F(4x4, 3x3) convolution (Lavin and Gray, arXiv:1509.09308), as tinygrad's
//! `_conv2d_winograd`, for any number of spatial axes.
//!
//! The input is cut into overlapping 6-wide tiles (stride 4), the tiles and the 3-wide
//! kernels are transformed (`Bt d B`, `G g Gt`), multiplied elementwise and summed over input
//! channels, and the 6-wide products are transformed back into 4-wide output tiles (`At m
//! A`). Per output element and input channel that is 36/16 = 2.25 multiplications in the
//! summed product instead of 9 (2-D).

use super::{Conv, ConvShapes};
use crate::untyped::DynTensor;
use crate::untyped::pool::Window;
use tg_runtime::{BinaryOp, DType, Error, Lazy, Result};

const G: [[f64; 3]; 6] = [
    [1.0 / 4.0, 0.0, 0.0],
    [-1.0 / 6.0, -1.0 / 6.0, -1.0 / 6.0],
    [-1.0 / 6.0, 1.0 / 6.0, -1.0 / 6.0],
    [1.0 / 24.0, 1.0 / 12.0, 1.0 / 6.0],
    [1.0 / 24.0, -1.0 / 12.0, 1.0 / 6.0],
    [0.0, 0.0, 1.0],
];
const BT: [[f64; 6]; 6] = [
    [4.0, 0.0, -5.0, 0.0, 1.0, 0.0],
    [0.0, -4.0, -4.0, 1.0, 1.0, 0.0],
    [0.0, 4.0, -4.0, -1.0, 1.0, 0.0],
    [0.0, -2.0, -1.0, 2.0, 1.0, 0.0],
    [0.0, 2.0, -1.0, -2.0, 1.0, 0.0],
    [0.0, 4.0, 0.0, -5.0, 0.0, 1.0],
];
const AT: [[f64; 6]; 4] = [
    [1.0, 1.0, 1.0, 1.0, 1.0, 0.0],
    [0.0, 1.0, -1.0, 2.0, -2.0, 0.0],
    [0.0, 1.0, 1.0, 4.0, 4.0, 0.0],
    [0.0, 1.0, -1.0, 8.0, -8.0, 1.0],
];

/// Why the Winograd form cannot compute this convolution, if it cannot.
fn unsupported(x: &DynTensor, w: &DynTensor, c: &Conv) -> Option<String> {
    if x.ndim() < 3 || w.ndim() != x.ndim() {
        return None; // the shape check reports it
    }
    let dims = x.ndim() - 2;
    if w.shape()[2..].iter().any(|&k| k != 3) {
        return Some(format!(
            "the kernel {:?} is not 3 on every axis",
            &w.shape()[2..]
        ));
    }
    let ones =
        |s: &super::Sizes| s.0.iter().all(|&v| v == 1) && (s.0.len() == 1 || s.0.len() == dims);
    if !ones(&c.stride) || !ones(&c.dilation) {
        return Some(format!(
            "stride {:?} and dilation {:?} must be 1",
            c.stride.0, c.dilation.0
        ));
    }
    if !x.dtype().is_float() || !w.dtype().is_float() {
        return Some(format!(
            "{} and {} are not both floats",
            x.dtype(),
            w.dtype()
        ));
    }
    None
}

/// Whether `conv2d` takes the Winograd path (well-formed shapes it can compute).
pub(super) fn applies(x: &DynTensor, w: &DynTensor, c: &Conv) -> bool {
    x.ndim() >= 3 && w.ndim() == x.ndim() && unsupported(x, w, c).is_none()
}

/// The vector `values` as a constant of shape `[n]` along `axis` (1 elsewhere, rank `rank`):
/// a sum of padded scalar constants, which the kernel that reads it selects by index, so no
/// buffer is made.
fn const_column(values: &[f64], dtype: DType, axis: usize, rank: usize) -> Result<Lazy> {
    let n = values.len();
    let mut col = Lazy::constant(0.0, dtype, &[n])?;
    for (j, &v) in values.iter().enumerate().filter(|(_, v)| **v != 0.0) {
        col = col.binary(
            BinaryOp::Add,
            &Lazy::constant(v, dtype, &[1])?.pad(&[(j, n - 1 - j)])?,
        )?;
    }
    let mut shape = vec![1; rank];
    shape[axis] = n;
    col.reshape(&shape)
}

/// `mat` applied along axis `axis`: `sum_k mat[:, k] * x[k]`, with column `k` of `mat` a
/// constant vector broadcast against slice `k` of `x` (tinygrad's stacked-CONST columns).
/// Elementwise, so it fuses with its input.
fn apply_matrix<const K: usize>(x: &DynTensor, mat: &[[f64; K]], axis: usize) -> Result<DynTensor> {
    let rank = x.ndim();
    let mut out_shape = x.shape().to_vec();
    out_shape[axis] = mat.len();
    let mut acc: Option<Lazy> = None;
    for k in 0..K {
        let column: Vec<f64> = mat.iter().map(|row| row[k]).collect();
        let mut r: Vec<(usize, usize)> = x.shape().iter().map(|&s| (0, s)).collect();
        r[axis] = (k, k + 1);
        let slice = x.lazy().shrink(&r)?.expand(&out_shape)?;
        let term = const_column(&column, x.dtype(), axis, rank)?
            .expand(&out_shape)?
            .binary(BinaryOp::Mul, &slice)?;
        acc = Some(match acc {
            Some(a) => a.binary(BinaryOp::Add, &term)?,
            None => term,
        });
    }
    match acc {
        Some(a) => Ok(DynTensor::from_lazy(a)),
        None => Ok(DynTensor::zeros(&out_shape, x.dtype())?),
    }
}

/// `mat` applied along each of the first `dims` axes: the separable transform
/// `kron(mat, .., mat)`.
fn transform<const K: usize>(x: &DynTensor, mat: &[[f64; K]], dims: usize) -> Result<DynTensor> {
    (0..dims).try_fold(x.clone(), |acc, a| apply_matrix(&acc, mat, a))
}

fn isz(v: &[usize]) -> Vec<isize> {
    v.iter().map(|&s| s as isize).collect()
}

impl DynTensor {
    /// `conv2d` by Winograd F(4x4, 3x3): for float inputs, 3-wide kernels on every spatial
    /// axis, stride 1, dilation 1 (any groups and padding); other convolutions are an error
    /// here (`conv2d` with `ConvAlgorithm::Winograd` computes them directly instead).
    ///
    /// The transformed weight and input tiles are stored (two kernels), multiplied and summed
    /// over channels (one), and transformed back (one). f32 and f64 are transformed in their
    /// own dtype, f16 in f32 (tinygrad transforms f16 in f16, which loses about two digits);
    /// the result has the direct form's dtype and matches its values to rounding (about
    /// 1e-6 relative in f32).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[1, 1, 5], &[1.0f32, 2.0, 3.0, 4.0, 5.0]).unwrap();
    /// let w = DynTensor::from_slice(&[1, 1, 3], &[1.0f32, 0.0, -1.0]).unwrap();
    /// let y = x.conv2d_winograd(&w, None, &Conv::new().padding(1)).unwrap();
    /// let v: Vec<f32> = y.to_vec().unwrap();
    /// assert!(v.iter().zip([-2.0, -2.0, -2.0, -2.0, 4.0]).all(|(a, b)| (a - b).abs() < 1e-5));
    /// ```
    pub fn conv2d_winograd(
        &self,
        weight: &DynTensor,
        bias: Option<&DynTensor>,
        c: &Conv,
    ) -> Result<DynTensor> {
        const OP: &str = "conv2d_winograd";
        let s = ConvShapes::new(OP, self, weight, bias, c)?;
        if let Some(why) = unsupported(self, weight, c) {
            return Err(Error::Argument {
                op: OP,
                message: format!("Winograd F(4x4, 3x3) needs {why}"),
            });
        }
        let dims = s.dims();
        let (g, rcout) = (c.groups, s.cout / c.groups);
        // f16 is transformed in f32: the transforms' constants and sums lose too much in f16
        let plain = self.dtype().least_upper(weight.dtype());
        let out_dtype = c.acc.unwrap_or(plain);
        let compute = plain.least_upper(DType::F32);
        let weight_in = weight;
        let (x, weight) = (self.cast(compute), weight.cast(compute));
        let pads = c.padding.resolve(OP, dims)?;
        let sizes = &self.shape()[2..];
        let out: Vec<isize> = (0..dims)
            .map(|a| sizes[a] as isize + pads[a].0 + pads[a].1 - 2)
            .collect();
        if out.iter().any(|&o| o < 1) {
            return Err(Error::Shape {
                op: OP,
                message: format!(
                    "padding {pads:?} leaves no output for input {:?} and a 3-wide kernel",
                    self.shape()
                ),
            });
        }
        // pad the end so the output is a whole number of 4-wide tiles
        let tiled: Vec<(isize, isize)> = (0..dims)
            .map(|a| (pads[a].0, pads[a].1 + (-out[a]).rem_euclid(4)))
            .collect();
        let six = Window::new(OP, vec![6; dims], vec![4; dims], vec![1; dims])?;
        let d = x.pad_spatial(&tiled, 0)?.pool_window(OP, &six)?; // (bs, cin_, *tiles, *6)
        let tiles = d.shape()[2..2 + dims].to_vec();
        // tile axes first: (*6, bs, cin_, *tiles)
        let n = d.ndim();
        let mut front: Vec<isize> = (n - dims..n).map(|a| a as isize).collect();
        front.extend((0..n - dims).map(|a| a as isize));
        let d = d.permute(&front)?;
        // (cout, cin, *3) -> (*3, cout, cin)
        let n = weight.ndim();
        let mut front: Vec<isize> = (2..n).map(|a| a as isize).collect();
        front.extend([0, 1]);
        let gw = weight.permute(&front)?;

        let mut gshape = vec![6isize; dims];
        gshape.extend(isz(&[1, g, rcout, s.cin]));
        gshape.extend(std::iter::repeat_n(1, dims));
        let gf = transform(&gw, &G, dims)?.contiguous().reshape(&gshape)?;
        let mut dshape = vec![6isize; dims];
        dshape.extend(isz(&[s.bs, g, 1, s.cin]));
        dshape.extend(isz(&tiles));
        let df = transform(&d, &BT, dims)?.contiguous().reshape(&dshape)?;

        // (*6, bs, g, rcout, cin, *tiles) summed over cin, then back to (*4, bs, g, rcout, *tiles)
        let m = gf
            .mul(&df)?
            .sum_in(&[-1 - dims as isize], c.acc.map(|a| a.least_upper(compute)))?;
        let y = transform(&m, &AT, dims)?;
        // (bs, g, rcout, t1, 4, t2, 4, ...) -> (bs, cout, *out)
        let mut order: Vec<isize> = (dims..dims + 3).map(|a| a as isize).collect();
        for a in 0..dims {
            order.extend([(dims + 3 + a) as isize, a as isize]);
        }
        let mut merged = isz(&[s.bs, s.cout]);
        merged.extend(tiles.iter().map(|&t| 4 * t as isize));
        let mut keep = vec![Some(s.bs), Some(s.cout)];
        keep.extend(out.iter().map(|&o| Some(o as usize)));
        let y = y
            .permute(&order)?
            .reshape(&merged)?
            .shrink_to(&keep)?
            .cast(out_dtype);
        let y = super::gradient::with_conv_gradient(self, weight_in, &y, c)?;
        Ok(y.add_channel_bias(bias)?.contiguous())
    }
}
