//! Typed linear algebra: QR, SVD and Newton-Schulz on the matrices in the last two axes. The
//! factor shapes come from [`Matrix`]; the number of singular values, `min(m, n)`, is a
//! dynamic dimension (stable Rust cannot take the minimum of two const generics).

use crate::dtype::Dtype;
use crate::shape::{Dim, Shape};
use crate::tensor::{Tensor, ok};
use crate::typed::elementwise::FloatOf;
use tg_runtime::Result;

/// A batch of matrices: the shape with the last two dimensions `M x N` replaced.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a batch of matrices",
    label = "this op works on the matrices in the last two axes",
    note = "it needs a shape of rank 2 or more; add an axis with `unsqueeze`"
)]
pub trait Matrix: Shape {
    /// Rows.
    type M: Dim;
    /// Columns.
    type N: Dim;
    /// The batch dimensions followed by `A x B`.
    type With<A: Dim, B: Dim>: Shape;
    /// The batch dimensions followed by `K`.
    type Vector<K: Dim>: Shape;
}

macro_rules! matrix {
    ($($b:ident),*) => {
        #[diagnostic::do_not_recommend]
        impl<$($b: Dim,)* M0: Dim, N0: Dim> Matrix for ($($b,)* M0, N0) {
            type M = M0;
            type N = N0;
            type With<A: Dim, B: Dim> = ($($b,)* A, B);
            type Vector<K: Dim> = ($($b,)* K,);
        }
    };
}

matrix!();
matrix!(B0);
matrix!(B0, B1);
matrix!(B0, B1, B2);
matrix!(B0, B1, B2, B3);

/// The float type of a factorization of `T` (integers and bool give f32).
type F<T> = <T as FloatOf>::Output;
/// `S`'s batch of square `D x D` matrices.
type Square<S, D> = <S as Matrix>::With<D, D>;

impl<S: Matrix, T: Dtype + FloatOf> Tensor<S, T> {
    /// `(Q, R)` with `Q` orthogonal `(..., M, M)`, `R` upper triangular `(..., M, N)` and
    /// `Q R = self` (see [`DynTensor::qr`](crate::DynTensor::qr)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = Tensor::<Rank2<3, 2>>::from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let (q, r): (Tensor<Rank2<3, 3>>, Tensor<Rank2<3, 2>>) = a.qr();
    /// let back = q.matmul(&r).to_vec().unwrap();
    /// assert!(back.iter().zip([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]).all(|(x, y)| (x - y).abs() < 1e-5));
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn qr(&self) -> (Tensor<Square<S, S::M>, F<T>>, Tensor<S, F<T>>) {
        let (q, r) = ok(self.as_dyn().qr());
        (Tensor::from_dyn(q), Tensor::from_dyn(r))
    }

    /// `(U, S, Vh)` with `U` `(..., M, M)`, `Vh` `(..., N, N)` orthogonal and `S` the
    /// `min(M, N)` singular values, descending (see [`DynTensor::svd`](crate::DynTensor::svd)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = Tensor::<Rank2<2, 3>>::from_slice(&[3.0, 0.0, 0.0, 0.0, 2.0, 0.0]).unwrap();
    /// let (u, s, vh): (Tensor<Rank2<2, 2>>, Tensor<shape![_]>, Tensor<Rank2<3, 3>>) = a.svd();
    /// let s = s.to_vec().unwrap();
    /// assert!((s[0] - 3.0).abs() < 1e-5 && (s[1] - 2.0).abs() < 1e-5);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn svd(
        &self,
    ) -> (
        Tensor<Square<S, S::M>, F<T>>,
        Tensor<S::Vector<usize>, F<T>>,
        Tensor<Square<S, S::N>, F<T>>,
    ) {
        let (u, s, vh) = ok(self.as_dyn().svd(true));
        (
            Tensor::from_dyn(u),
            Tensor::from_dyn(s),
            Tensor::from_dyn(vh),
        )
    }

    /// The reduced SVD: `U` `(..., M, K)`, `S` `(..., K)`, `Vh` `(..., K, N)` for
    /// `K = min(M, N)`, a dynamic dimension.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = Tensor::<Rank2<3, 2>>::from_slice(&[1.0, 0.0, 0.0, 1.0, 0.0, 0.0]).unwrap();
    /// let (u, s, vh) = a.svd_reduced();
    /// assert_eq!((u.dims(), s.dims(), vh.dims()), (vec![3, 2], vec![2], vec![2, 2]));
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn svd_reduced(
        &self,
    ) -> (
        Tensor<S::With<S::M, usize>, F<T>>,
        Tensor<S::Vector<usize>, F<T>>,
        Tensor<S::With<usize, S::N>, F<T>>,
    ) {
        let (u, s, vh) = ok(self.as_dyn().svd(false));
        (
            Tensor::from_dyn(u),
            Tensor::from_dyn(s),
            Tensor::from_dyn(vh),
        )
    }

    /// `steps` Newton-Schulz iterations with the odd polynomial `params` (see
    /// [`DynTensor::newton_schulz`](crate::DynTensor::newton_schulz)); panics on empty `params`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = Tensor::<Rank2<2, 2>>::from_slice(&[2.0, 0.0, 0.0, 0.5]).unwrap();
    /// let o = a.newton_schulz(20, &[1.5, -0.5], 1e-7).to_vec().unwrap();
    /// assert!((o[0] - 1.0).abs() < 1e-3 && (o[3] - 1.0).abs() < 1e-3);
    /// ```
    #[track_caller]
    pub fn newton_schulz(&self, steps: usize, params: &[f64], eps: f64) -> Tensor<S, F<T>> {
        ok(self.try_newton_schulz(steps, params, eps))
    }

    /// `newton_schulz`, returning the error for empty `params`.
    pub fn try_newton_schulz(
        &self,
        steps: usize,
        params: &[f64],
        eps: f64,
    ) -> Result<Tensor<S, F<T>>> {
        Tensor::try_from_dyn(self.as_dyn().newton_schulz(steps, params, eps)?)
    }
}
