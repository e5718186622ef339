//! Autograd on `DynTensor`: tinygrad's `Tensor` interface (`gradient`, `requires_grad`,
//! `backward`, `grad`) over the runtime's gradient of the primitive graph, plus parameters
//! (buffers of their own, updated in place).
//!
//! Where gradients live: a tensor that requires gradients owns a shared cell (its clones
//! share it) that `backward` accumulates into, found from the graph's tracked leaves through a
//! registry of weak references by node, so the gradient is freed with the tensor. An in-place
//! update (`assign`) gives the tensor a new node; the cell follows it.
//!
//! Integer and bool tensors have no gradient: `gradient` is an `Err` for them (the seed's
//! rule), and integer paths inside a float graph carry none (comparisons, integer
//! arithmetic, casts from integers: zero).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, Weak};

use tg_runtime::graph::gradient::tracked_leaves;
use tg_runtime::{Error, Lazy, Result};

use super::DynTensor;
use super::elementwise::Operand;

/// The gradient a tensor accumulates.
pub(crate) type GradCell = Arc<Mutex<Option<Lazy>>>;

/// A cell as the registry holds it: it must not keep the gradient alive.
type WeakCell = Weak<Mutex<Option<Lazy>>>;

/// Cells by the node of the tensor that owns them.
static CELLS: LazyLock<Mutex<HashMap<u64, WeakCell>>> = LazyLock::new(Default::default);

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn register(node: u64, cell: &GradCell) {
    let mut cells = lock(&CELLS);
    cells.retain(|_, w| w.strong_count() > 0);
    cells.insert(node, Arc::downgrade(cell));
}

impl DynTensor {
    /// The gradients of this tensor with respect to `targets` (by identity), given
    /// `gradient`, the gradient of some result with respect to this tensor (1 by default,
    /// which needs a scalar, shape `[]`). Float tensors only; a target this tensor does not
    /// depend on gets zeros. The gradients are lazy tensors that fuse like any other.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[3], &[1.0f32, 2.0, 3.0]).unwrap();
    /// let y = x.mul(&x).unwrap().sum(None, false).unwrap();
    /// let g = y.gradient(&[&x], None).unwrap();
    /// assert_eq!(g[0].to_vec::<f32>().unwrap(), vec![2.0, 4.0, 6.0]);
    /// ```
    pub fn gradient(
        &self,
        targets: &[&DynTensor],
        gradient: Option<&DynTensor>,
    ) -> Result<Vec<DynTensor>> {
        let lazies: Vec<&Lazy> = targets.iter().map(|t| &t.lazy).collect();
        Ok(self
            .lazy
            .gradient(&lazies, gradient.map(|g| &g.lazy))?
            .into_iter()
            .map(DynTensor::wrap)
            .collect())
    }

    /// This tensor with a derivative rule of its own (jax's `custom_vjp`): a gradient
    /// reaching it goes to `inputs` as `rule` computes them from its gradient (one entry per
    /// input, `None` for none), instead of back through the ops that compute it. The rule
    /// must be the derivative of the same function of `inputs`; it holds for every use of
    /// this value until it is realized without `requires_grad`. conv2d and overlapping
    /// windows have one: the gradients through their ops schedule badly.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
    /// // x^3, differentiated by the rule written out (3 x^2 g)
    /// let xs = x.clone();
    /// let y = x.mul(&x).unwrap().mul(&x).unwrap().with_gradient(&[&x], move |g| {
    ///     Ok(vec![Some(g.mul(&xs.square()?.mul(3.0f32)?)?)])
    /// });
    /// let g = y.sum(None, false).unwrap().gradient(&[&x], None).unwrap();
    /// assert_eq!(g[0].to_vec::<f32>().unwrap(), vec![3.0, 12.0]);
    /// ```
    pub fn with_gradient(
        &self,
        inputs: &[&DynTensor],
        rule: impl Fn(&DynTensor) -> Result<Vec<Option<DynTensor>>> + Send + Sync + 'static,
    ) -> DynTensor {
        let lazies: Vec<&Lazy> = inputs.iter().map(|t| &t.lazy).collect();
        self.lazy.with_gradient(&lazies, move |g| {
            let grads = rule(&DynTensor::wrap(g.clone()))?;
            Ok(grads.into_iter().map(|t| t.map(|t| t.lazy)).collect())
        });
        self.clone()
    }

    /// This tensor, requiring gradients (tinygrad's `requires_grad = True`): `backward`
    /// accumulates its gradient, and the graph built from it keeps what a gradient taken
    /// after realizing needs.
    pub fn requires_grad(&self) -> DynTensor {
        let cell = self
            .grad
            .clone()
            .unwrap_or_else(|| Arc::new(Mutex::new(None)));
        register(self.lazy.id(), &cell);
        DynTensor {
            lazy: self.lazy.track_gradient(),
            grad: Some(cell),
        }
    }

    /// Does this tensor accumulate a gradient in `backward`?
    pub fn is_requires_grad(&self) -> bool {
        self.grad.is_some()
    }

    /// Accumulates into every tensor that requires gradients, at the leaves of this
    /// (scalar) tensor's graph, the gradient of this tensor with respect to it.
    pub fn backward(&self) -> Result<()> {
        self.backward_from(None)
    }

    /// [`DynTensor::backward`] for a non-scalar tensor, given the gradient of some result
    /// with respect to it.
    pub fn backward_with(&self, gradient: &DynTensor) -> Result<()> {
        self.backward_from(Some(gradient))
    }

    fn backward_from(&self, seed: Option<&DynTensor>) -> Result<()> {
        let cells = lock(&CELLS);
        let leaves: Vec<(Lazy, GradCell)> = tracked_leaves(&self.lazy)
            .into_iter()
            .filter(|l| l.dtype().is_float())
            .filter_map(|l| {
                let cell = cells.get(&l.id())?.upgrade()?;
                Some((l, cell))
            })
            .collect();
        drop(cells);
        if leaves.is_empty() {
            return Err(Error::Argument {
                op: "backward",
                message: "no tensor in the graph requires gradients".into(),
            });
        }
        let targets: Vec<&Lazy> = leaves.iter().map(|(l, _)| l).collect();
        let grads = self.lazy.gradient(&targets, seed.map(|s| &s.lazy))?;
        for ((_, cell), g) in leaves.iter().zip(grads) {
            let mut slot = lock(cell);
            *slot = Some(match slot.take() {
                Some(acc) => acc.binary(tg_runtime::BinaryOp::Add, &g)?,
                None => g,
            });
        }
        Ok(())
    }

    /// The gradient `backward` accumulated, if any.
    pub fn grad(&self) -> Option<DynTensor> {
        self.grad
            .as_ref()
            .and_then(|c| lock(c).clone())
            .map(DynTensor::wrap)
    }

    /// Forgets the accumulated gradient (an optimizer does this after each step).
    pub fn zero_grad(&self) {
        if let Some(c) = &self.grad {
            *lock(c) = None;
        }
    }

    /// The same values, through which no gradient flows.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let x = DynTensor::from_slice(&[2], &[3.0f32, 4.0]).unwrap();
    /// let y = x.mul(&x.detach()).unwrap().sum(None, false).unwrap();
    /// assert_eq!(y.gradient(&[&x], None).unwrap()[0].to_vec::<f32>().unwrap(), vec![3.0, 4.0]);
    /// ```
    pub fn detach(&self) -> DynTensor {
        DynTensor::wrap(self.lazy.detach())
    }

    /// The same values; the gradient flowing back through it is computed into a buffer of
    /// its own (tinygrad's `contiguous_backward`).
    pub fn contiguous_backward(&self) -> DynTensor {
        DynTensor::wrap(self.lazy.contiguous_backward())
    }

    /// A parameter: `init`'s values in a buffer of its own, requiring gradients. Two tensors
    /// built from one graph (two `zeros` of one shape) are one hash-consed node; parameters
    /// and optimizer state must not share memory, since they are updated in place.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let zeros = DynTensor::zeros(&[2], DType::F32).unwrap();
    /// let mut w = DynTensor::parameter(&zeros).unwrap();
    /// let v = DynTensor::parameter(&zeros).unwrap();
    /// w.assign(&w.add(1.0f32).unwrap()).unwrap();
    /// assert_eq!(w.to_vec::<f32>().unwrap(), vec![1.0, 1.0]);
    /// assert_eq!(v.to_vec::<f32>().unwrap(), vec![0.0, 0.0]);
    /// ```
    pub fn parameter(init: &DynTensor) -> Result<DynTensor> {
        Ok(DynTensor::wrap(Lazy::parameter(&init.lazy)?).requires_grad())
    }

    /// A buffer of its own holding `init`'s values, not requiring gradients (optimizer
    /// state: momenta, running statistics).
    pub fn state(init: &DynTensor) -> Result<DynTensor> {
        Ok(DynTensor::wrap(Lazy::parameter(&init.lazy)?))
    }

    /// Writes `value` into this tensor's buffer in place when realized, and makes this tensor
    /// stand for the new contents (its gradient cell, if any, follows). Only a parameter,
    /// optimizer state or host data takes writes (see `Lazy::assign`).
    pub fn assign(&mut self, value: &DynTensor) -> Result<()> {
        let value = if value.dtype() == self.dtype() {
            value.lazy.clone()
        } else {
            value.lazy.cast(self.dtype())
        };
        let value = if value.shape() == self.shape() {
            value
        } else {
            value.expand(self.shape()).map_err(|_| Error::Shape {
                op: "assign",
                message: format!(
                    "the value's shape {:?} does not broadcast to the target's {:?}",
                    value.shape(),
                    self.shape()
                ),
            })?
        };
        self.lazy = self.lazy.assign(&value)?;
        if let Some(cell) = &self.grad {
            register(self.lazy.id(), cell);
        }
        Ok(())
    }

    /// Writes `value`'s rows into a window of this tensor's buffer in place when realized:
    /// along `axis` (negative counts from the end), at positions `start..start + T` (numpy's
    /// `x[.., start:start + T, ..] = value`), where `start` is an integer read on the device:
    /// a one-element tensor, a Rust integer, or a `#[kernel]`'s scalar argument (a var, so a
    /// replay writes at its new value: a KV cache's position). It is taken as unsigned, and
    /// rows past the axis's end are dropped. `value` has this tensor's shape but along
    /// `axis`, where it has at most as many rows; it is cast to this tensor's dtype. The
    /// write's kernel covers the window, not the buffer, where a row is a multiple of four
    /// elements (see `Lazy::assign_window`). Targets as for [`DynTensor::assign`].
    pub fn assign_window<'a>(
        &mut self,
        axis: isize,
        start: impl Into<Operand<'a>>,
        value: &DynTensor,
    ) -> Result<()> {
        const OP: &str = "assign_window";
        let ax = crate::untyped::norm_axis(OP, axis, self.shape())?;
        let start = start.into().position(OP, &[])?;
        let value = if value.dtype() == self.dtype() {
            value.lazy.clone()
        } else {
            value.lazy.cast(self.dtype())
        };
        self.lazy = self.lazy.assign_window(ax, &start.lazy, &value)?;
        if let Some(cell) = &self.grad {
            register(self.lazy.id(), cell);
        }
        Ok(())
    }
}
