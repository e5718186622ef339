//! The losses' shapes: the per-element losses (a broadcast, or the logits without their class
//! axis), reduced to a scalar unless the reduction is "none".

use crate::check::Checker;
use crate::dim::Dim;
use crate::dtype::DType;
use crate::error::{RuleError, argument_error, shape_error};
use crate::ops::{At, Fault, OpError, Place};

use super::{broadcast::broadcast, show};

/// How a loss reduces its per-element values (tg-ops' `Reduction`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// The mean (the default).
    Mean,
    /// The sum.
    Sum,
    /// None: the per-element losses.
    None,
}

impl Reduction {
    /// The result's shape: the per-element losses, or a scalar.
    pub fn shape<D>(self, per_element: Vec<D>) -> Vec<D> {
        match self {
            Reduction::None => per_element,
            Reduction::Mean | Reduction::Sum => vec![],
        }
    }
}

/// Class labels must be integers.
pub fn check_labels<D: Dim>(
    op: &'static str,
    labels: &[D],
    dtype: DType,
) -> Result<(), RuleError<D>> {
    if dtype.is_int() {
        return Ok(());
    }
    Err(argument_error(
        op,
        format!(
            "class labels must be an integer tensor; the labels {} are {}",
            show(labels),
            dtype.rust_name()
        ),
    ))
}

/// `labels` must be `shape` without its class axis `axis` (symbolic dims checked later).
pub fn labels_without<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    (what, shape): (&str, &[D]),
    labels: &[D],
    axis: usize,
) -> Result<(), RuleError<D>> {
    let want: Vec<D> = shape
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != axis)
        .map(|(_, d)| d.clone())
        .collect();
    if labels.len() != want.len() {
        return Err(shape_error(
            op,
            format!(
                "the labels {} must have the {what}' shape {} without the class axis {axis}, i.e. {}",
                show(labels),
                show(shape),
                show(&want)
            ),
        ));
    }
    for (i, (got, w)) in labels.iter().zip(&want).enumerate() {
        ck.equal(got, w, || {
            shape_error(
                op,
                format!(
                    "the labels {} must have the {what}' shape {} without the class axis {axis}: labels axis {i} is {got}, not {w}",
                    show(labels),
                    show(shape)
                ),
            )
        })?;
    }
    Ok(())
}

/// label_smoothing, where it is known, lies in [0, 1].
pub fn smoothing<D: Dim>(op: &'static str, value: Option<f64>) -> Result<(), Fault<D>> {
    match value {
        Some(s) if !(0.0..=1.0).contains(&s) => Err(Fault::new(
            At::Param("label_smoothing"),
            argument_error(op, format!("label_smoothing must be in [0, 1], got {s}")),
        )),
        _ => Ok(()),
    }
}

/// The logits need a class axis.
fn class_axis<D: Dim>(op: &'static str, shape: &[D]) -> Result<(), Fault<D>> {
    if shape.is_empty() {
        return Err(Fault::new(
            At::Receiver,
            shape_error(op, "the logits need a class axis, got a rank-0 tensor"),
        ));
    }
    Ok(())
}

/// The binary cross-entropies: predictions and targets (and a positive weight) broadcast.
pub fn bce<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    y: &[D],
    pos_weight: Option<&[D]>,
    reduction: Reduction,
) -> Result<Vec<D>, Fault<D>> {
    let mut out = broadcast(ck, op, shape, y).at(At::Param("y"))?;
    if let Some(w) = pos_weight {
        out = broadcast(ck, op, w, &out).at(At::Param("pos_weight"))?;
    }
    Ok(reduction.shape(out))
}

/// sparse_categorical_crossentropy: logits with classes on the last axis, integer labels of
/// the logits' shape without it.
pub fn sparse_cce<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    y: (&[D], DType),
    reduction: Reduction,
) -> Result<Vec<D>, Fault<D>> {
    let (ys, yd) = y;
    check_labels(op, ys, yd).at(At::Param("y"))?;
    class_axis(op, shape)?;
    labels_without(ck, op, ("logits", shape), ys, shape.len() - 1).at(At::Param("y"))?;
    Ok(reduction.shape(ys.to_vec()))
}

/// cross_entropy: classes on axis 1 (axis 0 of a 1-D input); the targets' rank tells
/// probabilities (the logits' shape) from integer labels (without the class axis).
pub fn cross_entropy<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    y: (&[D], DType),
    reduction: Reduction,
) -> Result<Vec<D>, Fault<D>> {
    let (ys, yd) = y;
    class_axis(op, shape)?;
    let axis = usize::from(shape.len() > 1);
    let at = At::Param("y");
    let per_sample = if ys.len() == shape.len() {
        for (i, (a, b)) in ys.iter().zip(shape).enumerate() {
            ck.equal(a, b, || {
                shape_error(
                    op,
                    format!(
                        "probability targets {} must have the logits' shape {}: axis {i} is {a}, not {b}",
                        show(ys),
                        show(shape)
                    ),
                )
            })
            .at(at)?;
        }
        let mut ps = shape.to_vec();
        ps.remove(axis);
        ps
    } else if ys.len() + 1 == shape.len() {
        check_labels(op, ys, yd).at(at)?;
        labels_without(ck, op, ("logits", shape), ys, axis).at(at)?;
        ys.to_vec()
    } else {
        let mut labels = shape.to_vec();
        labels.remove(axis);
        return Err(Fault::new(
            at,
            shape_error(
                op,
                format!(
                    "targets {} must be labels of shape {} or probabilities of the logits' shape {}",
                    show(ys),
                    show(&labels),
                    show(shape)
                ),
            ),
        ));
    };
    Ok(reduction.shape(per_sample))
}

/// nll_loss: log-probabilities `(N, C, ...)`, integer labels `(N, ...)`, a weight of one value
/// per class.
pub fn nll_loss<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    y: (&[D], DType),
    weight: Option<&[D]>,
    reduction: Reduction,
) -> Result<Vec<D>, Fault<D>> {
    let (ys, yd) = y;
    check_labels(op, ys, yd).at(At::Param("y"))?;
    if shape.len() < 2 {
        return Err(Fault::new(
            At::Receiver,
            OpError::Needs {
                op,
                what: format!(
                    "log-probabilities (N, C, ...) of rank 2 or more, got {}",
                    show(shape)
                ),
            },
        ));
    }
    labels_without(ck, op, ("log-probabilities", shape), ys, 1).at(At::Param("y"))?;
    if let Some(ws) = weight {
        let at = At::Param("weight");
        if ws.len() != 1 {
            return Err(Fault::new(
                at,
                shape_error(
                    op,
                    format!(
                        "the weight must have shape [{}] (one per class of {}), got {}",
                        shape[1],
                        show(shape),
                        show(ws)
                    ),
                ),
            ));
        }
        ck.equal(&ws[0], &shape[1], || {
            shape_error(
                op,
                format!(
                    "the weight {} has {} values for the {} classes (axis 1) of {}",
                    show(ws),
                    ws[0],
                    shape[1],
                    show(shape)
                ),
            )
        })
        .at(at)?;
    }
    Ok(reduction.shape(ys.to_vec()))
}
