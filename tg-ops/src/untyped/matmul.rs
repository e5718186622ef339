//! Matrix products: dot/matmul with numpy's shape rules, and linear.
//!
//! Composed as tinygrad composes them: the operands are reshaped so that the contracted axis
//! is last in both, broadcast against each other, multiplied, and summed over that axis. The
//! scheduler fuses the product into the reduction, so no `M x N x K` tensor is ever stored.

use super::DynTensor;
use super::broadcast_shapes;
use tg_core::decide;
use tg_core::shape::matmul;
use tg_runtime::{BinaryOp, DType, Error, Result};

impl DynTensor {
    /// The matrix product with numpy's `matmul` shapes: a 1-D operand is a vector (the result
    /// drops its axis), leading axes of N-D operands are batch axes that broadcast.
    ///
    /// The sum accumulates in `acc` if given (and the result has that dtype), else in
    /// [`DType::sum_acc_dtype`] of the operands' least upper dtype, cast back to it
    /// (tinygrad's `dot(dtype=...)`). The products are formed in that least upper dtype (an
    /// i8 product wraps in i8 before it is summed, even with `acc = Some(I32)`), except where
    /// the accumulator holds them exactly ([`DType::product_dtype`]: f16 products in f32 are
    /// not rounded to f16 first).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = DynTensor::from_slice(&[2, 2], &[1i32, 2, 3, 4]).unwrap();
    /// let b = DynTensor::from_slice(&[2, 2], &[5i32, 6, 7, 8]).unwrap();
    /// assert_eq!(a.dot(&b, None).unwrap().to_vec::<i32>().unwrap(), vec![19, 22, 43, 50]);
    /// let v = DynTensor::from_slice(&[2], &[1i32, 1]).unwrap();
    /// assert_eq!(v.dot(&v, None).unwrap().shape(), &[] as &[usize]);
    /// ```
    pub fn dot(&self, w: &DynTensor, acc: Option<DType>) -> Result<DynTensor> {
        let out = decide(|ck| matmul::matmul(ck, "matmul", self.shape(), w.shape()))?;
        let (dx, dw) = (self.ndim(), w.ndim());
        let axis_w = dw - dw.min(2);
        let k1 = self.shape()[dx - 1];
        // x: (..., M, 1, K); w: (..., 1, N, K) when both are matrices
        let one = usize::from(dx > 1 && dw > 1);
        let mut xs = self.shape()[..dx - 1].to_vec();
        xs.extend(std::iter::repeat_n(1, one));
        xs.push(k1);
        let mut ws = w.shape()[..axis_w].to_vec();
        ws.extend(std::iter::repeat_n(1, one));
        ws.extend_from_slice(&w.shape()[axis_w..]);
        let x = self.lazy.reshape(&xs)?;
        let mut wl = w.lazy.reshape(&ws)?;
        if dw > 1 {
            let mut perm: Vec<usize> = (0..ws.len()).collect();
            perm.swap(ws.len() - 1, ws.len() - 2);
            wl = wl.permute(&perm)?;
        }
        // the rule checked the batch axes broadcast: so do these views of them
        let shape = broadcast_shapes("matmul", &[x.shape(), wl.shape()])?;
        let dt = self.dtype().least_upper(w.dtype());
        let acc_dt = acc.unwrap_or(dt.sum_acc_dtype());
        let pdt = dt.product_dtype(acc_dt);
        let (x, wl) = (
            DynTensor::wrap(x.cast(dt).cast(pdt)).broadcast_to(&shape)?,
            DynTensor::wrap(wl.cast(dt).cast(pdt)).broadcast_to(&shape)?,
        );
        let op = if dt.is_bool() {
            BinaryOp::And
        } else {
            BinaryOp::Mul
        };
        let prod = DynTensor::wrap(x.lazy.binary(op, &wl.lazy)?);
        let y = prod
            .sum_as(Some(&[-1]), false, acc_dt)?
            .cast(acc.unwrap_or(dt));
        if y.shape() != out.as_slice() {
            return Err(Error::internal(
                "matmul",
                format!("composed {:?}, the rule says {out:?}", y.shape()),
            ));
        }
        Ok(y)
    }

    /// `self @ w` (numpy's `matmul`); see [`DynTensor::dot`].
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = DynTensor::ones(&[4, 2, 3], DType::F32).unwrap();
    /// let b = DynTensor::ones(&[3, 5], DType::F32).unwrap();
    /// assert_eq!(a.matmul(&b).unwrap().shape(), &[4, 2, 5]);
    /// ```
    pub fn matmul(&self, w: &DynTensor) -> Result<DynTensor> {
        self.dot(w, None)
    }

    /// `self @ weight + bias` with tinygrad's convention: `weight` has shape `(in, out)`
    /// (the transpose of torch's `nn.Linear` weight), `bias` shape `(out,)` or anything that
    /// broadcasts. A 1-D `weight` scales elementwise instead (tinygrad's rule).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[1, 2], &[1.0f32, 2.0]).unwrap();
    /// let w = DynTensor::from_slice(&[2, 2], &[1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// let b = DynTensor::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
    /// assert_eq!(x.linear(&w, Some(&b)).unwrap().to_vec::<f32>().unwrap(), vec![8.0, 12.0]);
    /// ```
    pub fn linear(&self, weight: &DynTensor, bias: Option<&DynTensor>) -> Result<DynTensor> {
        let y = if weight.ndim() == 1 {
            let (a, b) = DynTensor::align("linear", self, weight, None)?;
            DynTensor::wrap(a.lazy.binary(BinaryOp::Mul, &b.lazy)?)
        } else {
            self.dot(weight, None)?
        };
        match bias {
            None => Ok(y),
            Some(b) => {
                let (y, b) = DynTensor::align("linear", &y, b, None)?;
                Ok(DynTensor::wrap(y.lazy.binary(BinaryOp::Add, &b.lazy)?))
            }
        }
    }
}
