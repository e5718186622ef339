//! Typed matrix products. The output shape comes from `MatMul` (numpy's matmul shapes for
//! ranks 1 to 4 on each side); mismatched inner or batch dimensions are `cargo check` errors
//! naming both sizes. Batch axes must be equal (not size-1 broadcast) in the typed form.

use crate::dtype::{Dtype, Promote};
use crate::shape::ops::MatMul;
use crate::shape::{Dim, Shape};
use crate::tensor::{Tensor, ok};
use tg_runtime::Result;

/// The type of `lhs.matmul(rhs)` for operands `Tensor<S, T>` and `Tensor<S2, T2>`.
pub type Product<S, S2, T, T2> = Tensor<<S as MatMul<S2>>::Output, <T as Promote<T2>>::Output>;

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// `self @ rhs`: a 1-D operand is a vector, leading axes are batch axes. The result has
    /// the operands' promoted dtype; sums accumulate as `DynTensor::dot` describes.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let b = Tensor::<Rank2<3, 1>>::from_slice(&[1.0, 0.0, 1.0]).unwrap();
    /// let c: Tensor<Rank2<2, 1>> = a.matmul(&b);
    /// assert_eq!(c.to_vec().unwrap(), vec![4.0, 10.0]);
    /// ```
    #[track_caller]
    pub fn matmul<S2: Shape, T2: Dtype>(&self, rhs: &Tensor<S2, T2>) -> Product<S, S2, T, T2>
    where
        S: MatMul<S2>,
        T: Promote<T2>,
    {
        ok(self.try_matmul(rhs))
    }

    /// `matmul`, returning an error where dynamic inner or batch sizes differ.
    pub fn try_matmul<S2: Shape, T2: Dtype>(
        &self,
        rhs: &Tensor<S2, T2>,
    ) -> Result<Product<S, S2, T, T2>>
    where
        S: MatMul<S2>,
        T: Promote<T2>,
    {
        Tensor::try_from_dyn(self.as_dyn().matmul(rhs.as_dyn())?)
    }

    /// `self @ weight + bias`, tinygrad's convention: `weight` has shape `(in, out)` (the
    /// transpose of torch's `nn.Linear` weight) and `bias` shape `(out,)`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = Tensor::<Rank2<1, 2>>::from_slice(&[1.0, 2.0]).unwrap();
    /// let w = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 2.0, 3.0, 4.0]).unwrap();
    /// let b = Tensor::<Rank1<2>>::from_slice(&[1.0, 2.0]).unwrap();
    /// let y: Tensor<Rank2<1, 2>> = x.linear(&w, Some(&b));
    /// assert_eq!(y.to_vec().unwrap(), vec![8.0, 12.0]);
    /// assert_eq!(x.linear(&w, None).to_vec().unwrap(), vec![7.0, 10.0]);
    /// ```
    #[track_caller]
    pub fn linear<I: Dim, O: Dim, T2: Dtype>(
        &self,
        weight: &Tensor<(I, O), T2>,
        bias: Option<&Tensor<(O,), T2>>,
    ) -> Product<S, (I, O), T, T2>
    where
        S: MatMul<(I, O)>,
        T: Promote<T2>,
    {
        ok(self.try_linear(weight, bias))
    }

    /// `linear`, returning an error where dynamic sizes differ.
    pub fn try_linear<I: Dim, O: Dim, T2: Dtype>(
        &self,
        weight: &Tensor<(I, O), T2>,
        bias: Option<&Tensor<(O,), T2>>,
    ) -> Result<Product<S, (I, O), T, T2>>
    where
        S: MatMul<(I, O)>,
        T: Promote<T2>,
    {
        Tensor::try_from_dyn(
            self.as_dyn()
                .linear(weight.as_dyn(), bias.map(|b| b.as_dyn()))?,
        )
    }
}
