//! Linear algebra on the matrices in the last two axes (leading axes are a batch): QR by
//! Householder reflections, SVD by one-sided Jacobi rotations, and the Newton-Schulz
//! iteration towards the orthogonal polar factor.
//!
//! All are unrolled loops of matrix products and reductions, as tinygrad writes them: no
//! data-dependent control flow, so a batch of matrices runs as one graph. Each step's result
//! is made contiguous, one buffer per step, which keeps the graph from re-reading earlier
//! steps through every later one.

use tg_runtime::{DType, Error, Result};

use super::DynTensor;
use super::indexing::select::counter_along;

/// Checks for a batch of matrices and returns `(m, n)`.
fn matrix_dims(op: &'static str, x: &DynTensor) -> Result<(usize, usize)> {
    tg_core::shape::movement::require_rank(op, x.shape(), 2)?;
    Ok((x.shape()[x.ndim() - 2], x.shape()[x.ndim() - 1]))
}

/// `x` as floats (integers and bool as f32).
fn as_float(x: &DynTensor) -> DynTensor {
    if x.dtype().is_float() {
        x.clone()
    } else {
        x.cast(DType::F32)
    }
}

/// Keeps `rows` of axis -2 and `cols` of axis -1.
fn block(x: &DynTensor, rows: (usize, usize), cols: (usize, usize)) -> Result<DynTensor> {
    let mut ranges: Vec<(usize, usize)> = x.shape().iter().map(|&d| (0, d)).collect();
    let r = ranges.len();
    ranges[r - 2] = rows;
    ranges[r - 1] = cols;
    x.shrink(&ranges)
}

/// Keeps `cols` of the last axis.
fn columns(x: &DynTensor, cols: (usize, usize)) -> Result<DynTensor> {
    let rows = x.shape()[x.ndim() - 2];
    block(x, (0, rows), cols)
}

/// The `n x n` identity in `dtype`, broadcast over `batch`.
fn eye_batch(n: usize, batch: &[usize], dtype: DType) -> Result<DynTensor> {
    let mut shape = batch.to_vec();
    shape.extend([n, n]);
    DynTensor::eye(n, None, Some(dtype))?.broadcast_to(&shape)
}

/// Pads the last two axes by `rows` and `cols` zeros after the end.
fn pad_last2(x: &DynTensor, rows: usize, cols: usize) -> Result<DynTensor> {
    let mut pads = vec![(0isize, 0isize); x.ndim()];
    let r = pads.len();
    pads[r - 2] = (0, rows as isize);
    pads[r - 1] = (0, cols as isize);
    x.pad(&pads, 0)
}

/// `(x, y)` in `axis` order; `a.cat(b)` along the last axis, skipping empty pieces.
fn cat_last(parts: &[DynTensor]) -> Result<DynTensor> {
    DynTensor::cat(parts, -1)
}

/// One round of the parallel one-sided Jacobi method: each column of `left` is rotated with
/// the column of `right` at the same position so that the two become orthogonal; the same
/// rotations apply to `v_left`/`v_right`. Returns the rotated `(left, right, v_left, v_right)`.
fn jacobi_round(
    left: &DynTensor,
    right: &DynTensor,
    v_left: &DynTensor,
    v_right: &DynTensor,
) -> Result<(DynTensor, DynTensor, DynTensor, DynTensor)> {
    let gamma = left.mul(right)?.sum(Some(&[-2]), true)?;
    let alpha = left.square()?.sum(Some(&[-2]), true)?;
    let beta = right.square()?.sum(Some(&[-2]), true)?;
    // the rotation angle's tangent, the smaller root of t^2 + 2 tau t - 1 = 0
    let rot = gamma.ne(0.0)?;
    let tau = beta.sub(&alpha)?.div(&rot.where_(&gamma, 1.0)?.mul(2.0)?)?;
    let sign = tau.ne(0.0)?.where_(&tau.sign()?, 1.0)?;
    let t = sign.div(&tau.abs()?.add(&tau.square()?.add(1.0)?.sqrt()?)?)?;
    let t = rot.where_(&t, 0.0)?;
    let c = t.square()?.add(1.0)?.rsqrt()?;
    let s = c.mul(&t)?;
    let turn = |a: &DynTensor, b: &DynTensor| -> Result<(DynTensor, DynTensor)> {
        Ok((c.mul(a)?.sub(&s.mul(b)?)?, s.mul(a)?.add(&c.mul(b)?)?))
    };
    let (l, r) = turn(left, right)?;
    let (vl, vr) = turn(v_left, v_right)?;
    Ok((l, r, vl, vr))
}

/// The next round-robin pairing of columns `[top | bottom]` (pairs `top[k]`, `bottom[k]`):
/// the circle method, `top[0]` fixed and every other column one place on, so that `2h - 1`
/// rounds pair every column with every other once.
fn next_pairing(top: &DynTensor, bottom: &DynTensor) -> Result<DynTensor> {
    let h = top.shape()[top.ndim() - 1];
    if h < 2 {
        return cat_last(&[top.clone(), bottom.clone()]);
    }
    cat_last(&[
        columns(top, (0, 1))?,
        columns(bottom, (0, 1))?,
        columns(top, (1, h - 1))?,
        columns(bottom, (1, h))?,
        columns(top, (h - 1, h))?,
    ])
}

/// The permutation matrices `(..., k, num)` that sort the values `key` (`(..., k)`) in
/// descending order and keep the first `num`: entry `[i, r]` is 1 where value `i` has rank
/// `r` (ties keep their order).
fn descending_order(key: &DynTensor, num: usize) -> Result<DynTensor> {
    let k = key.shape()[key.ndim() - 1];
    let rank = key.ndim() + 1;
    let mine = key.unsqueeze(-1)?; // [..., i, 1]
    let other = key.unsqueeze(-2)?; // [..., 1, j]
    let i = counter_along(k, rank - 2, rank, DType::I32)?;
    let j = counter_along(k, rank - 1, rank, DType::I32)?;
    let before = other
        .gt(&mine)?
        .logical_or(&other.eq(&mine)?.logical_and(&j.lt(&i)?)?)?;
    let position = before.sum(Some(&[-1]), true)?; // [..., i, 1]
    let r = counter_along(num, rank - 1, rank, DType::I32)?;
    Ok(position.eq(&r)?.cast(key.dtype()))
}

impl DynTensor {
    /// The QR decomposition of each matrix (`(..., m, n)`, any `m` and `n`): `Q` orthogonal
    /// `(..., m, m)` and `R` upper triangular `(..., m, n)` with `Q R = self`, by `min(m, n)`
    /// Householder reflections (numpy's `mode="complete"`). Integers give f32.
    ///
    /// Each reflection maps a column onto `-sign(x0) |x| e_i`, so the diagonal of `R` has the
    /// opposite sign of the column's leading entry; signs may differ from LAPACK's.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = DynTensor::from_slice(&[2, 2], &[3.0f32, 1.0, 4.0, 2.0]).unwrap();
    /// let (q, r) = a.qr().unwrap();
    /// let back = q.matmul(&r).unwrap().to_vec::<f32>().unwrap();
    /// assert!(back.iter().zip([3.0, 1.0, 4.0, 2.0]).all(|(x, y)| (x - y).abs() < 1e-5));
    /// assert!(r.to_vec::<f32>().unwrap()[2].abs() < 1e-6); // below the diagonal
    /// ```
    pub fn qr(&self) -> Result<(DynTensor, DynTensor)> {
        let (m, n) = matrix_dims("qr", self)?;
        let x = as_float(self);
        let batch = &x.shape()[..x.ndim() - 2];
        let dt = x.dtype();
        let mut r = x.clone();
        let mut q = eye_batch(m, batch, dt)?;
        let rank = x.ndim();
        let idx = counter_along(m, rank - 2, rank, DType::I32)?; // [..., m, 1]
        for i in 0..m.min(n) {
            // the reflector v (zero above row i, 1 at row i) and w = tau v
            let col = columns(&r, (i, i + 1))?; // [..., m, 1]
            let below = idx.ge(i as i64)?.where_(&col, 0.0)?;
            let norm = below.square()?.sum(Some(&[-2]), true)?.sqrt()?;
            let x0 = block(&r, (i, i + 1), (i, i + 1))?;
            let sgn = x0.ne(0.0)?.where_(&x0.sign()?, 1.0)?;
            let active = norm.ne(0.0)?;
            let u0 = x0.add(&sgn.mul(&norm)?)?;
            let v = idx
                .eq(i as i64)?
                .where_(&u0, &below)?
                .div(&active.where_(&u0, 1.0)?)?;
            let tau = active.where_(&sgn.mul(&u0)?.div(&active.where_(&norm, 1.0)?)?, 0.0)?;
            let w = tau.mul(&v)?;
            let vt = v.transpose(-2, -1)?;
            r = r.sub(&w.matmul(&vt.matmul(&r)?)?)?.contiguous();
            q = q
                .sub(&q.matmul(&v)?.matmul(&w.transpose(-2, -1)?)?)?
                .contiguous();
        }
        Ok((q, r))
    }

    /// The singular value decomposition of each matrix (`(..., m, n)`): `(U, S, Vh)` with
    /// `U diag(S) Vh = self`, `S` descending (`(..., min(m, n))`), and `U`, `Vh` orthogonal:
    /// `(..., m, m)` and `(..., n, n)` with `full_matrices`, else `(..., m, k)` and
    /// `(..., k, n)` for `k = min(m, n)` (numpy's shapes). Integers give f32.
    ///
    /// tinygrad's method: a QR first (of the transpose when `m < n`), then one-sided Jacobi
    /// rotations of `R`'s `k x k` block in parallel round-robin pairs, `4k` rounds (about
    /// four sweeps, enough for f32), and the column norms as singular values. The columns of
    /// `U` for zero singular values are zero (numpy completes them to an orthogonal basis),
    /// and singular vectors are unique only up to sign (and order among equal values).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = DynTensor::from_slice(&[2, 2], &[3.0f32, 0.0, 0.0, -4.0]).unwrap();
    /// let (u, s, vh) = a.svd(true).unwrap();
    /// let s = s.to_vec::<f32>().unwrap();
    /// assert!((s[0] - 4.0).abs() < 1e-5 && (s[1] - 3.0).abs() < 1e-5);
    /// assert_eq!((u.shape(), vh.shape()), (&[2, 2][..], &[2, 2][..]));
    /// ```
    pub fn svd(&self, full_matrices: bool) -> Result<(DynTensor, DynTensor, DynTensor)> {
        let (m, n) = matrix_dims("svd", self)?;
        let x = as_float(self);
        let dt = x.dtype();
        let batch = x.shape()[..x.ndim() - 2].to_vec();
        let a = if m >= n { x } else { x.transpose(-2, -1)? };
        let (q, r) = a.qr()?;
        let (num, big) = (m.min(n), m.max(n));
        // a zero column pads an odd count: it never rotates (its products are 0)
        let odd = num % 2;
        let h = (num + odd) / 2;
        let mut u = pad_last2(&block(&r, (0, num), (0, num))?, 0, odd)?.contiguous();
        let mut v = pad_last2(&eye_batch(num, &batch, dt)?, 0, odd)?.contiguous();
        for _ in 0..4 * num {
            let (ul, ur) = (columns(&u, (0, h))?, columns(&u, (h, 2 * h))?);
            let (vl, vr) = (columns(&v, (0, h))?, columns(&v, (h, 2 * h))?);
            let (ul, ur, vl, vr) = jacobi_round(&ul, &ur, &vl, &vr)?;
            u = next_pairing(&ul, &ur)?.contiguous();
            v = next_pairing(&vl, &vr)?.contiguous();
        }
        let norms = u.square()?.sum(Some(&[-2]), false)?.sqrt()?;
        // the padding column (the one whose V column is zero) sorts last
        let key = if odd == 1 {
            let real = v.square()?.sum(Some(&[-2]), false)?.gt(0.5)?;
            real.where_(&norms, -1.0)?
        } else {
            norms.clone()
        };
        let order = descending_order(&key, num)?; // [..., num + odd, num]
        let s = norms.unsqueeze(-2)?.matmul(&order)?.squeeze(Some(-2))?;
        let u = u.matmul(&order)?;
        let v = v.matmul(&order)?;
        let u = u.div(&s.ne(0.0)?.where_(&s, 1.0)?.unsqueeze(-2)?)?;
        let left = if full_matrices {
            let extra = big - num;
            let rest = pad_last2(&eye_batch(num, &batch, dt)?, extra, extra)?;
            let filled = pad_last2(&u, extra, extra)?
                .add(&eye_batch(big, &batch, dt)?)?
                .sub(&rest)?;
            q.matmul(&filled)?
        } else {
            columns(&q, (0, num))?.matmul(&u)?
        };
        Ok(if m >= n {
            (left, s, v.transpose(-2, -1)?)
        } else {
            (v, s, left.transpose(-2, -1)?)
        })
    }

    /// `steps` iterations of `G <- sum_i params[i] (G G^T)^i G` from `G = self / (|self|_F +
    /// eps)`, per matrix (the transpose when there are more rows than columns): with Muon's
    /// quintic `(3.4445, -4.7750, 2.0315)` or the cubic `(1.5, -0.5)`, this drives the singular
    /// values towards 1, approximating the orthogonal factor `U Vh` without an SVD.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = DynTensor::from_slice(&[2, 2], &[2.0f32, 0.0, 0.0, 0.5]).unwrap();
    /// let o = a.newton_schulz(20, &[1.5, -0.5], 1e-7).unwrap().to_vec::<f32>().unwrap();
    /// assert!((o[0] - 1.0).abs() < 1e-3 && (o[3] - 1.0).abs() < 1e-3);
    /// ```
    pub fn newton_schulz(&self, steps: usize, params: &[f64], eps: f64) -> Result<DynTensor> {
        let (m, n) = matrix_dims("newton_schulz", self)?;
        if params.is_empty() {
            return Err(Error::Argument {
                op: "newton_schulz",
                message: "needs at least one polynomial coefficient in params".into(),
            });
        }
        if m > n {
            return self
                .transpose(-2, -1)?
                .newton_schulz(steps, params, eps)?
                .transpose(-2, -1);
        }
        let x = as_float(self);
        let norm = x.square()?.sum(Some(&[-2, -1]), true)?.sqrt()?;
        let mut g = x.div(&norm.add(eps)?)?;
        for _ in 0..steps {
            let gram = g.matmul(&g.transpose(-2, -1)?)?;
            let mut term = g.clone();
            let mut next = g.mul(params[0])?;
            for &p in &params[1..] {
                term = gram.matmul(&term)?;
                next = next.add(&term.mul(p)?)?;
            }
            g = next.contiguous();
        }
        Ok(g)
    }
}
