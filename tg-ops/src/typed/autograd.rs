//! Typed autograd: each gradient has its target's own type. A scalar (`Rank0`) tensor
//! differentiates with no seed; any other needs the gradient of the result with respect to
//! it (`gradient_with`), so that rule of the seed is checked by the compiler.

use crate::dtype::{Dtype, Float};
use crate::shape::{Rank0, Shape};
use crate::tensor::{Tensor, ok};
use crate::untyped::DynTensor;
use crate::untyped::elementwise::Operand;
use tg_runtime::Result;

/// What a typed gradient is taken with respect to: a tuple of tensors, each gradient of its
/// target's type, or a slice of tensors of one type.
pub trait GradTargets {
    /// The gradients' types.
    type Grads;
    /// The untyped targets, in order.
    fn targets(&self) -> Vec<&DynTensor>;
    /// The gradients, typed.
    fn wrap(grads: Vec<DynTensor>) -> Result<Self::Grads>;
}

macro_rules! tuple_targets {
    ($(($($s:ident $t:ident $i:tt),+)),+) => {$(
        impl<'a, $($s: Shape, $t: Float),+> GradTargets for ($(&'a Tensor<$s, $t>,)+) {
            type Grads = ($(Tensor<$s, $t>,)+);
            fn targets(&self) -> Vec<&DynTensor> {
                vec![$(self.$i.as_dyn()),+]
            }
            fn wrap(grads: Vec<DynTensor>) -> Result<Self::Grads> {
                let mut it = grads.into_iter();
                Ok(($(Tensor::<$s, $t>::try_from_dyn(it.next().expect("one gradient per target"))?,)+))
            }
        }
    )+};
}

tuple_targets!(
    (S1 T1 0),
    (S1 T1 0, S2 T2 1),
    (S1 T1 0, S2 T2 1, S3 T3 2),
    (S1 T1 0, S2 T2 1, S3 T3 2, S4 T4 3)
);

impl<'a, S: Shape, T: Float> GradTargets for &'a [&'a Tensor<S, T>] {
    type Grads = Vec<Tensor<S, T>>;
    fn targets(&self) -> Vec<&DynTensor> {
        self.iter().map(|t| t.as_dyn()).collect()
    }
    fn wrap(grads: Vec<DynTensor>) -> Result<Self::Grads> {
        grads.into_iter().map(Tensor::try_from_dyn).collect()
    }
}

impl<T: Float> Tensor<Rank0, T> {
    /// The gradients of this scalar with respect to `targets`: a tuple (each gradient of its
    /// target's type) or a slice (a `Vec` of gradients).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = Tensor::<Rank1<3>>::from_slice(&[1.0, 2.0, 3.0]).unwrap();
    /// let w = Tensor::<Rank1<3>>::from_slice(&[0.5, 0.5, 2.0]).unwrap();
    /// let y = (&x * &w).sum();
    /// let (gx, gw) = y.gradient((&x, &w));
    /// assert_eq!(gx.to_vec().unwrap(), vec![0.5, 0.5, 2.0]);
    /// assert_eq!(gw.to_vec().unwrap(), vec![1.0, 2.0, 3.0]);
    /// ```
    #[track_caller]
    pub fn gradient<G: GradTargets>(&self, targets: G) -> G::Grads {
        ok(self.try_gradient(targets))
    }

    /// [`Tensor::gradient`], returning a failure instead of panicking.
    pub fn try_gradient<G: GradTargets>(&self, targets: G) -> Result<G::Grads> {
        G::wrap(self.as_dyn().gradient(&targets.targets(), None)?)
    }

    /// Accumulates into every tensor that requires gradients, at the leaves of this scalar's
    /// graph, its gradient (tinygrad's `backward`).
    #[track_caller]
    pub fn backward(&self) {
        ok(self.as_dyn().backward())
    }
}

impl<S: Shape, T: Float> Tensor<S, T> {
    /// The gradients with respect to `targets` of a result whose gradient with respect to
    /// this tensor is `gradient`.
    #[track_caller]
    pub fn gradient_with<G: GradTargets>(&self, targets: G, gradient: &Tensor<S, T>) -> G::Grads {
        ok(self
            .as_dyn()
            .gradient(&targets.targets(), Some(gradient.as_dyn()))
            .and_then(G::wrap))
    }

    /// This tensor, requiring gradients (see `DynTensor::requires_grad`).
    pub fn requires_grad(&self) -> Self {
        Tensor::from_dyn(self.as_dyn().requires_grad())
    }

    /// The gradient `backward` accumulated, if any.
    pub fn grad(&self) -> Option<Self> {
        self.as_dyn().grad().map(Tensor::from_dyn)
    }

    /// Forgets the accumulated gradient.
    pub fn zero_grad(&self) {
        self.as_dyn().zero_grad()
    }

    /// A parameter: `init`'s values in a buffer of its own, requiring gradients.
    #[track_caller]
    pub fn parameter(init: &Self) -> Self {
        Tensor::from_dyn(ok(DynTensor::parameter(init.as_dyn())))
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// The same values, through which no gradient flows.
    pub fn detach(&self) -> Self {
        Tensor::from_dyn(self.as_dyn().detach())
    }

    /// The same values; the gradient flowing back through it gets a buffer of its own.
    pub fn contiguous_backward(&self) -> Self {
        Tensor::from_dyn(self.as_dyn().contiguous_backward())
    }

    /// Writes `value` into this tensor's buffer in place (a parameter or optimizer state),
    /// making this tensor stand for the new contents.
    #[track_caller]
    pub fn assign(&mut self, value: &Self) {
        let mut raw = self.as_dyn().clone();
        ok(raw.assign(value.as_dyn()));
        *self = Tensor::from_dyn(raw);
    }

    /// Writes `value`'s rows into a window of this tensor's buffer in place: along `axis`
    /// (negative counts from the end), at positions `start..start + T` (numpy's
    /// `x[.., start:start + T, ..] = value`: a KV cache's rows at a position), making this
    /// tensor stand for the new contents. `start` is an integer read on the device (a Rust
    /// integer, or a one-element integer tensor through `as_dyn()`); rows past the end are
    /// dropped. `value` has this shape but along `axis`, where it has at most as many rows: a
    /// `#[kernel]` body checks that while it expands, this call when it runs (panicking, as
    /// `assign` does; [`Tensor::try_assign_window`] returns the error). Its kernel covers
    /// the rows written (`DynTensor::assign_window`).
    #[track_caller]
    pub fn assign_window<'a, V: Shape>(
        &mut self,
        axis: isize,
        start: impl Into<Operand<'a>>,
        value: &Tensor<V, T>,
    ) {
        ok(self.try_assign_window(axis, start, value));
    }

    /// `assign_window`, returning the error (and leaving the tensor unchanged).
    pub fn try_assign_window<'a, V: Shape>(
        &mut self,
        axis: isize,
        start: impl Into<Operand<'a>>,
        value: &Tensor<V, T>,
    ) -> Result<()> {
        let mut raw = self.as_dyn().clone();
        raw.assign_window(axis, start, value.as_dyn())?;
        *self = Tensor::from_dyn(raw);
        Ok(())
    }
}
