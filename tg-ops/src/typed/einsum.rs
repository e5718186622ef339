//! Typed einsum and sequential.
//!
//! A formula is a string, so the output shape cannot be computed by the type system: the
//! caller names it (`S2`, with `usize` for dims it does not want to state), and the run
//! checks it. The dtype is computed: the operands' [`Promote`] result, summed as `sum` sums
//! it ([`SumDtype`]: integer results are i32 or wider, as in tinygrad).

use crate::dtype::{Dtype, Promote};
use crate::shape::Shape;
use crate::tensor::{Tensor, ok};
use crate::typed::reduce::SumDtype;
use crate::untyped::DynTensor;
use tg_runtime::Result;

/// The dtype of an einsum over operands that meet in `T`.
type Sum<T> = <T as SumDtype>::Output;
/// The dtype of an einsum of a `T` and a `U` operand.
type Sum2<T, U> = Sum<<T as Promote<U>>::Output>;

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Einstein summation over this one operand, giving shape `S2` (see
    /// [`DynTensor::einsum`]): traces, diagonals, transposes, sums.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let m = Tensor::<Rank2<2, 2>, i32>::from_slice(&[1, 2, 3, 4]).unwrap();
    /// let trace: Tensor<(), i32> = m.einsum("ii->");
    /// let diag: Tensor<Rank1<2>, i32> = m.einsum("ii->i");
    /// assert_eq!((trace.item().unwrap(), diag.to_vec().unwrap()), (5, vec![1, 4]));
    /// ```
    #[track_caller]
    pub fn einsum<S2: Shape>(&self, formula: &str) -> Tensor<S2, Sum<T>>
    where
        T: SumDtype,
    {
        ok(self.try_einsum(formula))
    }

    /// `einsum`, returning an error for a bad formula or a result that does not fit `S2`.
    pub fn try_einsum<S2: Shape>(&self, formula: &str) -> Result<Tensor<S2, Sum<T>>>
    where
        T: SumDtype,
    {
        Tensor::try_from_dyn(DynTensor::einsum(formula, &[self.as_dyn().clone()], None)?)
    }

    /// Einstein summation over `self` and `other`, giving shape `S2`: products
    /// (`"ij,jk->ik"`, `"bij,bjk->bik"`), inner and outer products, contractions.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let a = Tensor::<Rank1<2>>::from_slice(&[1.0, 2.0]).unwrap();
    /// let b = Tensor::<Rank1<3>, i32>::from_slice(&[1, 0, -1]).unwrap();
    /// let outer: Tensor<Rank2<2, 3>> = a.einsum_with("i,j->ij", &b);
    /// assert_eq!(outer.to_vec().unwrap(), vec![1.0, 0.0, -1.0, 2.0, 0.0, -2.0]);
    /// ```
    #[track_caller]
    pub fn einsum_with<S2: Shape, S3: Shape, U: Dtype>(
        &self,
        formula: &str,
        other: &Tensor<S3, U>,
    ) -> Tensor<S2, Sum2<T, U>>
    where
        T: Promote<U>,
        <T as Promote<U>>::Output: SumDtype,
    {
        ok(self.try_einsum_with(formula, other))
    }

    /// `einsum_with`, returning an error for a bad formula or a result that does not fit `S2`.
    pub fn try_einsum_with<S2: Shape, S3: Shape, U: Dtype>(
        &self,
        formula: &str,
        other: &Tensor<S3, U>,
    ) -> Result<Tensor<S2, Sum2<T, U>>>
    where
        T: Promote<U>,
        <T as Promote<U>>::Output: SumDtype,
    {
        let operands = [self.as_dyn().clone(), other.as_dyn().clone()];
        Tensor::try_from_dyn(DynTensor::einsum(formula, &operands, None)?)
    }

    /// Einstein summation over `self` and two more operands, giving shape `S2` (bilinear
    /// forms, chained products).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = Tensor::<Rank1<2>>::from_slice(&[1.0, 2.0]).unwrap();
    /// let m = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 0.0, 0.0, 3.0]).unwrap();
    /// let q: Tensor<()> = x.einsum3("i,ij,j->", &m, &x);
    /// assert_eq!(q.item().unwrap(), 13.0);
    /// ```
    #[track_caller]
    pub fn einsum3<S2: Shape, S3: Shape, U: Dtype, S4: Shape, V: Dtype>(
        &self,
        formula: &str,
        b: &Tensor<S3, U>,
        c: &Tensor<S4, V>,
    ) -> Tensor<S2, Sum2<<T as Promote<U>>::Output, V>>
    where
        T: Promote<U>,
        <T as Promote<U>>::Output: Promote<V>,
        <<T as Promote<U>>::Output as Promote<V>>::Output: SumDtype,
    {
        let operands = [
            self.as_dyn().clone(),
            b.as_dyn().clone(),
            c.as_dyn().clone(),
        ];
        Tensor::from_dyn(ok(DynTensor::einsum(formula, &operands, None)))
    }

    /// Applies `layers` in order, each to the previous result (tinygrad's `sequential`), for
    /// layers that keep the type; chain method calls where the type changes.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<2>>::from_slice(&[1.0, -2.0]).unwrap();
    /// let y = t.sequential(&[&|x| x.relu(), &|x| x.exp()]);
    /// assert_eq!(y.to_vec().unwrap(), vec![1.0f32.exp(), 1.0]);
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn sequential(&self, layers: &[&dyn Fn(&Tensor<S, T>) -> Tensor<S, T>]) -> Tensor<S, T> {
        layers.iter().fold(self.clone(), |x, f| f(&x))
    }
}
