//! Losses: binary cross-entropy (on probabilities and on logits), sparse categorical
//! cross-entropy, cross-entropy and negative log-likelihood, each reduced by a [`Reduction`].
//!
//! Composed as tinygrad composes them: log-softmax and logsigmoid for stability, one-hot
//! masks for the class a label names (labels out of range name no class and contribute 0,
//! where torch fails), and the mean of the masked losses divided by the count (or weight) of
//! the entries that were not ignored.
//!
//! Where tinygrad multiplies log-probabilities by a 0/1 mask, tg selects with the mask
//! instead, so a `-inf` log-probability of a class that is not the target gives a finite loss
//! rather than NaN (`0 * -inf`); finite inputs give tinygrad's values.

use tg_runtime::{DType, Error, Result};

use super::DynTensor;
use super::indexing::select::{one_hot_along, pick};

/// How a loss combines its per-element values (tinygrad's and torch's `reduction`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// One loss per element (per sample for the class losses).
    None,
    /// The sum of the losses.
    Sum,
    /// Their mean; the class losses divide by the count (or total weight) of the entries that
    /// are not ignored.
    #[default]
    Mean,
}

impl Reduction {
    /// The losses reduced: as they are, summed, or averaged over all elements.
    fn apply(self, x: DynTensor) -> Result<DynTensor> {
        match self {
            Reduction::None => Ok(x),
            Reduction::Sum => x.sum(None, false),
            Reduction::Mean => x.mean(None, false),
        }
    }
}

fn shape_error(op: &'static str, message: String) -> Error {
    Error::Shape { op, message }
}

/// Checks that `y` holds integer class labels.
fn check_labels(op: &'static str, y: &DynTensor) -> Result<()> {
    if y.dtype().is_int() {
        return Ok(());
    }
    Err(Error::DType {
        op,
        dtype: y.dtype(),
        message: "class labels must be an integer tensor".into(),
    })
}

fn check_smoothing(op: &'static str, label_smoothing: f64) -> Result<()> {
    if (0.0..=1.0).contains(&label_smoothing) {
        return Ok(());
    }
    Err(Error::Argument {
        op,
        message: format!("label_smoothing must be in [0, 1], got {label_smoothing}"),
    })
}

/// The float dtype predictions of `p` meet targets of `y` in: `p`'s float dtype (f32 for
/// integers), promoted with `y`'s dtype.
fn loss_dtype(p: DType, y: DType) -> DType {
    let f = if p.is_float() { p } else { DType::F32 };
    f.least_upper(y)
}

/// `shape` without axis `axis`.
fn without(shape: &[usize], axis: usize) -> Vec<usize> {
    shape
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != axis)
        .map(|(_, &d)| d)
        .collect()
}

/// The value of `x` at the class each label of `y` names along `axis` (0 where it names
/// none), with `axis` removed: `y` has `x`'s shape without `axis`.
fn at_label(x: &DynTensor, y: &DynTensor, axis: usize) -> Result<DynTensor> {
    let mask = one_hot_along(
        &y.unsqueeze(axis as isize)?,
        x.shape()[axis],
        axis,
        x.ndim(),
    )?;
    pick(&mask, x, &[axis])?.squeeze(Some(axis as isize))
}

impl DynTensor {
    /// Binary cross-entropy of probabilities `self` against targets `y`:
    /// `-(y ln p + (1 - y) ln(1 - p))`, broadcast, then reduced. The result is `self`'s float
    /// dtype promoted with `y`'s (integer or bool targets keep it).
    ///
    /// As tinygrad, the logarithms are not clamped: a probability of exactly 0 or 1 gives
    /// `inf` or NaN where torch's `BCELoss` clamps `ln` at -100.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::untyped::loss::Reduction;
    /// let p = DynTensor::from_slice(&[2], &[0.5f32, 0.9]).unwrap();
    /// let y = DynTensor::from_slice(&[2], &[1.0f32, 1.0]).unwrap();
    /// let l = p.binary_crossentropy(&y, Reduction::Sum).unwrap().to_vec::<f32>().unwrap();
    /// assert!((l[0] - (2f32.ln() - 0.9f32.ln())).abs() < 1e-6);
    /// ```
    pub fn binary_crossentropy(&self, y: &DynTensor, reduction: Reduction) -> Result<DynTensor> {
        let dt = loss_dtype(self.dtype(), y.dtype());
        let (p, t) = DynTensor::align("binary_crossentropy", self, y, Some(dt))?;
        let pos = t.neg()?.mul(&p.log()?)?;
        let neg = t.neg()?.add(1.0)?.mul(&p.neg()?.add(1.0)?.log()?)?;
        reduction.apply(pos.sub(&neg)?)
    }

    /// Binary cross-entropy of logits `self` against targets `y`:
    /// `-(w y logsigmoid(x) + (1 - y) logsigmoid(-x))`, with `w` the `pos_weight` (1 if
    /// `None`), broadcast, then reduced. Stable for logits of any size (torch's
    /// `BCEWithLogitsLoss`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::untyped::loss::Reduction;
    /// let x = DynTensor::from_slice(&[2], &[0.0f32, 100.0]).unwrap();
    /// let y = DynTensor::from_slice(&[2], &[1.0f32, 0.0]).unwrap();
    /// let l = x.binary_crossentropy_logits(&y, Reduction::None, None).unwrap().to_vec::<f32>().unwrap();
    /// assert!((l[0] - 2f32.ln()).abs() < 1e-6 && l[1] == 100.0);
    /// ```
    pub fn binary_crossentropy_logits(
        &self,
        y: &DynTensor,
        reduction: Reduction,
        pos_weight: Option<&DynTensor>,
    ) -> Result<DynTensor> {
        const OP: &str = "binary_crossentropy_logits";
        let mut dt = loss_dtype(self.dtype(), y.dtype());
        if let Some(w) = pos_weight {
            dt = dt.least_upper(w.dtype());
        }
        let (x, t) = DynTensor::align(OP, self, y, Some(dt))?;
        let mut pos = t.mul(&x.logsigmoid()?)?;
        if let Some(w) = pos_weight {
            let (w, p) = DynTensor::align(OP, &w.cast(dt), &pos, None)?;
            pos = w.mul(&p)?;
        }
        let neg = t.neg()?.add(1.0)?.mul(&x.neg()?.logsigmoid()?)?;
        reduction.apply(pos.add(&neg)?.neg()?)
    }

    /// Cross-entropy of logits `self` (classes on the LAST axis, unlike torch) against integer
    /// labels `y` (`self`'s shape without the last axis).
    ///
    /// Labels equal to `ignore_index` contribute nothing and are not counted by the mean. With
    /// `label_smoothing = s` the loss is `(1 - s) nll + s mean_c(-log_softmax)`. The mean
    /// divides by the number of labels not ignored (NaN if all are).
    ///
    /// tinygrad takes `ignore_index = -1` to mean "none" (and then a label -1 names no class
    /// but is counted); here `None` means none, and `Some(-1)` ignores labels -1.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::untyped::loss::Reduction;
    /// let x = DynTensor::from_slice(&[2, 2], &[0.0f32, 0.0, 5.0, 5.0]).unwrap();
    /// let y = DynTensor::from_slice(&[2], &[1i32, -100]).unwrap();
    /// let l = x.sparse_categorical_crossentropy(&y, Some(-100), 0.0, Reduction::Mean).unwrap();
    /// assert!((l.to_vec::<f32>().unwrap()[0] - 2f32.ln()).abs() < 1e-6);
    /// ```
    pub fn sparse_categorical_crossentropy(
        &self,
        y: &DynTensor,
        ignore_index: Option<i64>,
        label_smoothing: f64,
        reduction: Reduction,
    ) -> Result<DynTensor> {
        const OP: &str = "sparse_categorical_crossentropy";
        check_smoothing(OP, label_smoothing)?;
        check_labels(OP, y)?;
        if self.ndim() == 0 || y.shape() != &self.shape()[..self.ndim() - 1] {
            return Err(shape_error(
                OP,
                format!(
                    "labels {:?} must have the logits' shape {:?} without its last (class) axis",
                    y.shape(),
                    self.shape()
                ),
            ));
        }
        let log_probs = self.log_softmax(-1, None)?;
        let keep = match ignore_index {
            Some(i) => y.ne(i)?,
            None => DynTensor::full(y.shape(), true, DType::Bool)?,
        };
        let last = self.ndim() - 1;
        let nll = keep.where_(&at_label(&log_probs, y, last)?, 0.0)?;
        let mut kept = nll.mul(1.0 - label_smoothing)?;
        if label_smoothing > 0.0 {
            let smooth = keep.where_(&log_probs.mean(Some(&[-1]), false)?, 0.0)?;
            kept = kept.add(&smooth.mul(label_smoothing)?)?;
        }
        match reduction {
            Reduction::Mean => kept.sum(None, false)?.neg()?.div(&keep.sum(None, false)?),
            _ => reduction.apply(kept.neg()?),
        }
    }

    /// Cross-entropy of logits `self` with classes on axis 1 (axis 0 for a 1-D input), torch's
    /// `cross_entropy`: `y` is either integer labels (`self`'s shape without the class axis)
    /// or class probabilities (`self`'s shape). With `label_smoothing = s` the targets become
    /// `(1 - s) y + s / classes`. The mean is over all samples (no ignored labels here; see
    /// [`DynTensor::nll_loss`] and [`DynTensor::sparse_categorical_crossentropy`]).
    ///
    /// Integer labels make the targets f32 in tinygrad, so f16 logits give an f32 loss there
    /// and here; probability targets give the dtype logits and targets meet in.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::untyped::loss::Reduction;
    /// let x = DynTensor::from_slice(&[1, 3], &[1.0f32, 1.0, 1.0]).unwrap();
    /// let y = DynTensor::from_slice(&[1], &[2i64]).unwrap();
    /// let l = x.cross_entropy(&y, Reduction::Mean, 0.0).unwrap().to_vec::<f32>().unwrap();
    /// assert!((l[0] - 3f32.ln()).abs() < 1e-6);
    /// ```
    pub fn cross_entropy(
        &self,
        y: &DynTensor,
        reduction: Reduction,
        label_smoothing: f64,
    ) -> Result<DynTensor> {
        const OP: &str = "cross_entropy";
        check_smoothing(OP, label_smoothing)?;
        // the logits need a class axis
        tg_core::shape::movement::require_rank(OP, self.shape(), 1)?;
        let axis = usize::from(self.ndim() > 1);
        let classes = self.shape()[axis];
        let log_probs = self.log_softmax(axis as isize, None)?;
        let per_sample = if y.shape() == self.shape() {
            let y = y
                .mul(1.0 - label_smoothing)?
                .add(label_smoothing / classes as f64)?;
            log_probs.mul(&y)?.sum(Some(&[axis as isize]), false)?
        } else if y.shape() == without(self.shape(), axis).as_slice() {
            check_labels(OP, y)?;
            let log_probs = log_probs.cast(log_probs.dtype().least_upper(DType::F32));
            let mut t = at_label(&log_probs, y, axis)?.mul(1.0 - label_smoothing)?;
            if label_smoothing > 0.0 {
                let all = log_probs.sum(Some(&[axis as isize]), false)?;
                t = t.add(&all.mul(label_smoothing / classes as f64)?)?;
            }
            t
        } else {
            return Err(shape_error(
                OP,
                format!(
                    "targets {:?} must be labels of shape {:?} or probabilities of the logits' shape {:?}",
                    y.shape(),
                    without(self.shape(), axis),
                    self.shape()
                ),
            ));
        };
        reduction.apply(per_sample.neg()?)
    }

    /// Negative log-likelihood of log-probabilities `self` (`(N, C, ...)`, classes on axis 1)
    /// at integer labels `y` (`(N, ...)`), each weighted by `weight[label]` (shape `(C,)`,
    /// default 1). Labels equal to `ignore_index` get weight 0. The mean divides by the total
    /// weight of the labels (torch's `nll_loss`); labels out of range name no class and
    /// contribute 0.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_ops::untyped::loss::Reduction;
    /// let lp = DynTensor::from_slice(&[2, 2], &[-1.0f32, -2.0, -3.0, -4.0]).unwrap();
    /// let y = DynTensor::from_slice(&[2], &[1i32, 0]).unwrap();
    /// let w = DynTensor::from_slice(&[2], &[1.0f32, 3.0]).unwrap();
    /// let l = lp.nll_loss(&y, Some(&w), None, Reduction::Mean).unwrap();
    /// assert_eq!(l.to_vec::<f32>().unwrap(), vec![(3.0 * 2.0 + 3.0) / 4.0]);
    /// ```
    pub fn nll_loss(
        &self,
        y: &DynTensor,
        weight: Option<&DynTensor>,
        ignore_index: Option<i64>,
        reduction: Reduction,
    ) -> Result<DynTensor> {
        const OP: &str = "nll_loss";
        check_labels(OP, y)?;
        if self.ndim() < 2 || y.shape() != without(self.shape(), 1).as_slice() {
            return Err(shape_error(
                OP,
                format!(
                    "needs log-probabilities (N, C, ...) and labels (N, ...) without the class axis, got {:?} and {:?}",
                    self.shape(),
                    y.shape()
                ),
            ));
        }
        let classes = self.shape()[1];
        let w = match weight {
            Some(w) if w.shape() != [classes] => {
                return Err(shape_error(
                    OP,
                    format!(
                        "the weight must have shape [{classes}] (one per class), got {:?}",
                        w.shape()
                    ),
                ));
            }
            Some(w) => {
                let mut along = vec![1isize; self.ndim()];
                along[1] = classes as isize;
                let w = w.reshape(&along)?.broadcast_to(self.shape())?;
                at_label(&w, y, 1)?
            }
            None => y.const_like(1),
        };
        let w = match ignore_index {
            Some(i) => y.ne(i)?.where_(&w, w.const_like(0))?,
            None => w,
        };
        let nll = at_label(self, y, 1)?.neg()?.mul(&w)?;
        match reduction {
            Reduction::Mean => nll.sum(None, false)?.div(&w.sum(None, false)?),
            _ => reduction.apply(nll),
        }
    }
}
