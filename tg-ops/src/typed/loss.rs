//! Typed losses. The reduction is a value whose type fixes the output shape: [`Mean`] and
//! [`Sum`] give a rank-0 tensor, [`Unreduced`] one loss per element (per sample for the class
//! losses). Targets must have the predictions' shape (without the class axis for labels);
//! labels must be integers. Label smoothing outside `[0, 1]` and dynamic sizes that differ
//! panic with the op's message; the `try_` forms return it.
//!
//! ```
//! use tg_ops::prelude::*;
//! use tg_ops::typed::loss::{Mean, Unreduced};
//! let logits = Tensor::<Rank2<2, 3>>::from_slice(&[1.0, 1.0, 1.0, 0.0, 0.0, 0.0]).unwrap();
//! let labels = Tensor::<Rank1<2>, i32>::from_slice(&[0, 2]).unwrap();
//! let mean: Tensor<()> = logits.cross_entropy(&labels, Mean, 0.0);
//! let each: Tensor<Rank1<2>> = logits.cross_entropy(&labels, Unreduced, 0.0);
//! assert!((mean.item().unwrap() - 3f32.ln()).abs() < 1e-6);
//! assert_eq!(each.dims(), vec![2]);
//! ```

use crate::dtype::{Dtype, Float, Int, Promote};
use crate::shape::axis::{RemoveAxis, SelectAxis};
use crate::shape::{Broadcast, Dim, SameDim, SameShape, Shape};
use crate::tensor::{Tensor, ok};
use crate::untyped::loss::Reduction;
use tg_runtime::Result;

/// A reduction as a type: its runtime [`Reduction`] and the shape it leaves of per-element
/// losses of shape `S`.
pub trait LossReduction: Copy {
    /// The runtime reduction.
    const KIND: Reduction;
    /// The shape left of per-element losses of shape `S`.
    type Out<S: Shape>: Shape;
}

/// The mean of the losses (of those not ignored, for the class losses): rank 0.
#[derive(Copy, Clone, Debug, Default)]
pub struct Mean;
/// The sum of the losses: rank 0.
#[derive(Copy, Clone, Debug, Default)]
pub struct Sum;
/// One loss per element (per sample for the class losses).
#[derive(Copy, Clone, Debug, Default)]
pub struct Unreduced;

impl LossReduction for Mean {
    const KIND: Reduction = Reduction::Mean;
    type Out<S: Shape> = ();
}
impl LossReduction for Sum {
    const KIND: Reduction = Reduction::Sum;
    type Out<S: Shape> = ();
}
impl LossReduction for Unreduced {
    const KIND: Reduction = Reduction::None;
    type Out<S: Shape> = S;
}

/// Logits with a class axis: axis 1, or axis 0 for a vector (torch's `cross_entropy`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no class axis",
    note = "cross_entropy takes logits of rank 1 `(C,)` or `(N, C, ...)`"
)]
pub trait ClassAxis: Shape {
    /// The shape without the class axis.
    type Batch: Shape;
    /// The class dimension.
    type Classes: Dim;
}

#[diagnostic::do_not_recommend]
impl<C: Dim> ClassAxis for (C,) {
    type Batch = ();
    type Classes = C;
}

macro_rules! class_axis {
    ($($d:ident),*) => {
        #[diagnostic::do_not_recommend]
        impl<N: Dim, C: Dim $(, $d: Dim)*> ClassAxis for (N, C, $($d,)*) {
            type Batch = (N, $($d,)*);
            type Classes = C;
        }
    };
}

class_axis!();
class_axis!(D0);
class_axis!(D0, D1);
class_axis!(D0, D1, D2);
class_axis!(D0, D1, D2, D3);

/// The per-element shape of two same-shaped operands.
type Joint<S, S2> = <S as SameShape<S2>>::Output;
/// The per-sample shape of logits `S` (classes last) and labels of shape `SY`.
type LastBatch<S, SY> = <<S as RemoveAxis<-1>>::Output as SameShape<SY>>::Output;
/// The per-sample shape of logits `S` (classes on axis 1) and labels of shape `SY`.
type AxisBatch<S, SY> = <<S as ClassAxis>::Batch as SameShape<SY>>::Output;
/// The per-element shape of two same-shaped operands broadcast with a weight of shape `SW`.
type Weighted<S, S2, SW> = <Joint<S, S2> as Broadcast<SW>>::Output;
/// The per-sample shape of logits and probabilities of the same shape (classes on axis 1).
type ProbBatch<S, S2> = <Joint<S, S2> as ClassAxis>::Batch;
/// The per-sample shape of log-probabilities `(N, C, ...)` and labels of shape `SY`.
type NllBatch<S, SY> = <<S as RemoveAxis<1>>::Output as SameShape<SY>>::Output;
/// The loss of `R` over per-element losses of shape `P`, in dtype `D`.
type Loss<R, P, D> = Tensor<<R as LossReduction>::Out<P>, D>;
/// The loss of `R` over per-element losses of shape `P`, in the dtype `T` and `T2` meet in.
type Promoted<R, P, T, T2> = Loss<R, P, <T as Promote<T2>>::Output>;

impl<S: Shape, T: Float> Tensor<S, T> {
    /// Binary cross-entropy of probabilities `self` against targets `y` (see
    /// [`DynTensor::binary_crossentropy`](crate::DynTensor::binary_crossentropy)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::loss::Sum;
    /// let p = Tensor::<Rank1<2>>::from_slice(&[0.5, 0.5]).unwrap();
    /// let y = Tensor::<Rank1<2>, bool>::from_slice(&[true, false]).unwrap();
    /// let l: Tensor<()> = p.binary_crossentropy(&y, Sum);
    /// assert!((l.item().unwrap() - 2.0 * 2f32.ln()).abs() < 1e-6);
    /// ```
    #[track_caller]
    pub fn binary_crossentropy<R: LossReduction, S2: Shape, T2: Dtype>(
        &self,
        y: &Tensor<S2, T2>,
        reduction: R,
    ) -> Promoted<R, Joint<S, S2>, T, T2>
    where
        S: SameShape<S2>,
        T: Promote<T2>,
    {
        ok(self.try_binary_crossentropy(y, reduction))
    }

    /// `binary_crossentropy`, returning an error where dynamic sizes differ.
    pub fn try_binary_crossentropy<R: LossReduction, S2: Shape, T2: Dtype>(
        &self,
        y: &Tensor<S2, T2>,
        _reduction: R,
    ) -> Result<Promoted<R, Joint<S, S2>, T, T2>>
    where
        S: SameShape<S2>,
        T: Promote<T2>,
    {
        Tensor::try_from_dyn(self.as_dyn().binary_crossentropy(y.as_dyn(), R::KIND)?)
    }

    /// Binary cross-entropy of logits `self` against targets `y` (see
    /// [`DynTensor::binary_crossentropy_logits`](crate::DynTensor::binary_crossentropy_logits)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::loss::Mean;
    /// let x = Tensor::<Rank1<2>>::from_slice(&[0.0, 0.0]).unwrap();
    /// let y = Tensor::<Rank1<2>>::from_slice(&[1.0, 0.0]).unwrap();
    /// let l: Tensor<()> = x.binary_crossentropy_logits(&y, Mean);
    /// assert!((l.item().unwrap() - 2f32.ln()).abs() < 1e-6);
    /// ```
    #[track_caller]
    pub fn binary_crossentropy_logits<R: LossReduction, S2: Shape, T2: Dtype>(
        &self,
        y: &Tensor<S2, T2>,
        reduction: R,
    ) -> Promoted<R, Joint<S, S2>, T, T2>
    where
        S: SameShape<S2>,
        T: Promote<T2>,
    {
        ok(self.try_binary_crossentropy_logits(y, reduction))
    }

    /// `binary_crossentropy_logits`, returning an error where dynamic sizes differ.
    pub fn try_binary_crossentropy_logits<R: LossReduction, S2: Shape, T2: Dtype>(
        &self,
        y: &Tensor<S2, T2>,
        _reduction: R,
    ) -> Result<Promoted<R, Joint<S, S2>, T, T2>>
    where
        S: SameShape<S2>,
        T: Promote<T2>,
    {
        Tensor::try_from_dyn(
            self.as_dyn()
                .binary_crossentropy_logits(y.as_dyn(), R::KIND, None)?,
        )
    }

    /// Binary cross-entropy of logits with `pos_weight` scaling the positive term; the weight
    /// broadcasts over the losses (per class, `(C,)` for `(N, C)` logits).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::loss::Unreduced;
    /// let x = Tensor::<Rank2<1, 2>>::from_slice(&[0.0, 0.0]).unwrap();
    /// let y = Tensor::<Rank2<1, 2>>::from_slice(&[1.0, 1.0]).unwrap();
    /// let w = Tensor::<Rank1<2>>::from_slice(&[1.0, 3.0]).unwrap();
    /// let l: Tensor<Rank2<1, 2>> = x.binary_crossentropy_logits_weighted(&y, &w, Unreduced);
    /// let l = l.to_vec().unwrap();
    /// assert!((l[1] - 3.0 * l[0]).abs() < 1e-6);
    /// ```
    #[track_caller]
    pub fn binary_crossentropy_logits_weighted<R: LossReduction, S2: Shape, T2: Dtype, SW: Shape>(
        &self,
        y: &Tensor<S2, T2>,
        pos_weight: &Tensor<SW, T>,
        reduction: R,
    ) -> Promoted<R, Weighted<S, S2, SW>, T, T2>
    where
        S: SameShape<S2>,
        Joint<S, S2>: Broadcast<SW>,
        T: Promote<T2>,
    {
        ok(self.try_binary_crossentropy_logits_weighted(y, pos_weight, reduction))
    }

    /// `binary_crossentropy_logits_weighted`, returning an error where dynamic sizes differ.
    #[allow(clippy::type_complexity)]
    pub fn try_binary_crossentropy_logits_weighted<
        R: LossReduction,
        S2: Shape,
        T2: Dtype,
        SW: Shape,
    >(
        &self,
        y: &Tensor<S2, T2>,
        pos_weight: &Tensor<SW, T>,
        _reduction: R,
    ) -> Result<Promoted<R, Weighted<S, S2, SW>, T, T2>>
    where
        S: SameShape<S2>,
        Joint<S, S2>: Broadcast<SW>,
        T: Promote<T2>,
    {
        let l = self.as_dyn().binary_crossentropy_logits(
            y.as_dyn(),
            R::KIND,
            Some(pos_weight.as_dyn()),
        )?;
        Tensor::try_from_dyn(l)
    }

    /// Cross-entropy of logits with classes on the LAST axis against integer labels (see
    /// [`DynTensor::sparse_categorical_crossentropy`](crate::DynTensor::sparse_categorical_crossentropy)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::loss::Mean;
    /// let x = Tensor::<Rank2<2, 2>>::from_slice(&[0.0, 0.0, 3.0, 1.0]).unwrap();
    /// let y = Tensor::<Rank1<2>, i64>::from_slice(&[1, -100]).unwrap();
    /// let l: Tensor<()> = x.sparse_categorical_crossentropy(&y, Some(-100), 0.0, Mean);
    /// assert!((l.item().unwrap() - 2f32.ln()).abs() < 1e-6);
    /// ```
    #[track_caller]
    pub fn sparse_categorical_crossentropy<R: LossReduction, SY: Shape, I: Int>(
        &self,
        y: &Tensor<SY, I>,
        ignore_index: Option<i64>,
        label_smoothing: f64,
        reduction: R,
    ) -> Loss<R, LastBatch<S, SY>, T>
    where
        S: RemoveAxis<-1>,
        <S as RemoveAxis<-1>>::Output: SameShape<SY>,
    {
        ok(self.try_sparse_categorical_crossentropy(y, ignore_index, label_smoothing, reduction))
    }

    /// `sparse_categorical_crossentropy`, returning an error for a bad `label_smoothing` or
    /// dynamic sizes that differ.
    pub fn try_sparse_categorical_crossentropy<R: LossReduction, SY: Shape, I: Int>(
        &self,
        y: &Tensor<SY, I>,
        ignore_index: Option<i64>,
        label_smoothing: f64,
        _reduction: R,
    ) -> Result<Loss<R, LastBatch<S, SY>, T>>
    where
        S: RemoveAxis<-1>,
        <S as RemoveAxis<-1>>::Output: SameShape<SY>,
    {
        let l = self.as_dyn().sparse_categorical_crossentropy(
            y.as_dyn(),
            ignore_index,
            label_smoothing,
            R::KIND,
        )?;
        Tensor::try_from_dyn(l)
    }

    /// Cross-entropy of logits (classes on axis 1, or 0 for a vector) against integer labels;
    /// the loss is at least f32, as tinygrad's f32 one-hot targets make it (see
    /// [`DynTensor::cross_entropy`](crate::DynTensor::cross_entropy)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::loss::Unreduced;
    /// let x = Tensor::<Rank2<1, 2>, f16>::from_slice(&[f16::ZERO, f16::ZERO]).unwrap();
    /// let y = Tensor::<Rank1<1>, i32>::from_slice(&[1]).unwrap();
    /// let l: Tensor<Rank1<1>, f32> = x.cross_entropy(&y, Unreduced, 0.0);
    /// assert!((l.to_vec().unwrap()[0] - 2f32.ln()).abs() < 1e-3);
    /// ```
    #[track_caller]
    pub fn cross_entropy<R: LossReduction, SY: Shape, I: Int>(
        &self,
        y: &Tensor<SY, I>,
        reduction: R,
        label_smoothing: f64,
    ) -> Promoted<R, AxisBatch<S, SY>, T, f32>
    where
        S: ClassAxis,
        S::Batch: SameShape<SY>,
        T: Promote<f32>,
    {
        ok(self.try_cross_entropy(y, reduction, label_smoothing))
    }

    /// `cross_entropy`, returning an error for a bad `label_smoothing` or dynamic sizes that
    /// differ.
    pub fn try_cross_entropy<R: LossReduction, SY: Shape, I: Int>(
        &self,
        y: &Tensor<SY, I>,
        _reduction: R,
        label_smoothing: f64,
    ) -> Result<Promoted<R, AxisBatch<S, SY>, T, f32>>
    where
        S: ClassAxis,
        S::Batch: SameShape<SY>,
        T: Promote<f32>,
    {
        Tensor::try_from_dyn(
            self.as_dyn()
                .cross_entropy(y.as_dyn(), R::KIND, label_smoothing)?,
        )
    }

    /// Cross-entropy of logits against class probabilities of the same shape.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::loss::Sum;
    /// let x = Tensor::<Rank2<1, 2>>::from_slice(&[0.0, 0.0]).unwrap();
    /// let p = Tensor::<Rank2<1, 2>>::from_slice(&[0.25, 0.75]).unwrap();
    /// let l: Tensor<()> = x.cross_entropy_probs(&p, Sum, 0.0);
    /// assert!((l.item().unwrap() - 2f32.ln()).abs() < 1e-6);
    /// ```
    #[track_caller]
    pub fn cross_entropy_probs<R: LossReduction, S2: Shape, T2: Float>(
        &self,
        y: &Tensor<S2, T2>,
        reduction: R,
        label_smoothing: f64,
    ) -> Promoted<R, ProbBatch<S, S2>, T, T2>
    where
        S: SameShape<S2>,
        Joint<S, S2>: ClassAxis,
        T: Promote<T2>,
    {
        ok(self.try_cross_entropy_probs(y, reduction, label_smoothing))
    }

    /// `cross_entropy_probs`, returning an error for a bad `label_smoothing` or dynamic sizes
    /// that differ.
    pub fn try_cross_entropy_probs<R: LossReduction, S2: Shape, T2: Float>(
        &self,
        y: &Tensor<S2, T2>,
        _reduction: R,
        label_smoothing: f64,
    ) -> Result<Promoted<R, ProbBatch<S, S2>, T, T2>>
    where
        S: SameShape<S2>,
        Joint<S, S2>: ClassAxis,
        T: Promote<T2>,
    {
        Tensor::try_from_dyn(
            self.as_dyn()
                .cross_entropy(y.as_dyn(), R::KIND, label_smoothing)?,
        )
    }

    /// Negative log-likelihood of log-probabilities `(N, C, ...)` at integer labels (see
    /// [`DynTensor::nll_loss`](crate::DynTensor::nll_loss)).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::loss::Mean;
    /// let lp = Tensor::<Rank2<2, 2>>::from_slice(&[-1.0, -2.0, -3.0, -4.0]).unwrap();
    /// let y = Tensor::<Rank1<2>, i32>::from_slice(&[1, 0]).unwrap();
    /// let l: Tensor<()> = lp.nll_loss(&y, None, Mean);
    /// assert_eq!(l.item().unwrap(), 2.5);
    /// ```
    #[track_caller]
    pub fn nll_loss<R: LossReduction, SY: Shape, I: Int>(
        &self,
        y: &Tensor<SY, I>,
        ignore_index: Option<i64>,
        reduction: R,
    ) -> Loss<R, NllBatch<S, SY>, T>
    where
        S: RemoveAxis<1>,
        <S as RemoveAxis<1>>::Output: SameShape<SY>,
    {
        ok(self.try_nll_loss(y, ignore_index, reduction))
    }

    /// `nll_loss`, returning an error where dynamic sizes differ.
    pub fn try_nll_loss<R: LossReduction, SY: Shape, I: Int>(
        &self,
        y: &Tensor<SY, I>,
        ignore_index: Option<i64>,
        _reduction: R,
    ) -> Result<Loss<R, NllBatch<S, SY>, T>>
    where
        S: RemoveAxis<1>,
        <S as RemoveAxis<1>>::Output: SameShape<SY>,
    {
        Tensor::try_from_dyn(
            self.as_dyn()
                .nll_loss(y.as_dyn(), None, ignore_index, R::KIND)?,
        )
    }

    /// `nll_loss` with a weight per class (shape `(C,)`); the mean divides by the total weight
    /// of the labels.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::typed::loss::Mean;
    /// let lp = Tensor::<Rank2<2, 2>>::from_slice(&[-1.0, -2.0, -3.0, -4.0]).unwrap();
    /// let y = Tensor::<Rank1<2>, i32>::from_slice(&[1, 0]).unwrap();
    /// let w = Tensor::<Rank1<2>>::from_slice(&[1.0, 3.0]).unwrap();
    /// let l: Tensor<()> = lp.nll_loss_weighted(&y, &w, None, Mean);
    /// assert_eq!(l.item().unwrap(), 2.25);
    /// ```
    #[track_caller]
    pub fn nll_loss_weighted<R: LossReduction, SY: Shape, I: Int, W, TW: Dtype>(
        &self,
        y: &Tensor<SY, I>,
        weight: &Tensor<(W,), TW>,
        ignore_index: Option<i64>,
        reduction: R,
    ) -> Promoted<R, NllBatch<S, SY>, T, TW>
    where
        S: RemoveAxis<1> + SelectAxis<1>,
        <S as RemoveAxis<1>>::Output: SameShape<SY>,
        W: SameDim<<S as SelectAxis<1>>::Dim>,
        T: Promote<TW>,
    {
        ok(self.try_nll_loss_weighted(y, weight, ignore_index, reduction))
    }

    /// `nll_loss_weighted`, returning an error where dynamic sizes differ.
    pub fn try_nll_loss_weighted<R: LossReduction, SY: Shape, I: Int, W, TW: Dtype>(
        &self,
        y: &Tensor<SY, I>,
        weight: &Tensor<(W,), TW>,
        ignore_index: Option<i64>,
        _reduction: R,
    ) -> Result<Promoted<R, NllBatch<S, SY>, T, TW>>
    where
        S: RemoveAxis<1> + SelectAxis<1>,
        <S as RemoveAxis<1>>::Output: SameShape<SY>,
        W: SameDim<<S as SelectAxis<1>>::Dim>,
        T: Promote<TW>,
    {
        let l = self
            .as_dyn()
            .nll_loss(y.as_dyn(), Some(weight.as_dyn()), ignore_index, R::KIND)?;
        Tensor::try_from_dyn(l)
    }
}
