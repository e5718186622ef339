//! Reading and writing at positions an index tensor holds (gather, scatter), selections
//! packed to a known length, and resizing by interpolation.

use crate::check::Checker;
use crate::dim::Dim;
use crate::dtype::DType;
use crate::error::{RuleError, argument_error, shape_error};
use crate::ops::{At, Fault, OpError, Place, Value};

use super::{norm_axis, show};

/// Indices must be integers.
fn integer_indices<D: Dim>(op: &'static str, dtype: DType, at: At) -> Result<(), Fault<D>> {
    if dtype.is_int() {
        return Ok(());
    }
    Err(Fault::new(at, OpError::IndexDType { op, dtype }))
}

/// gather: an integer index of the input's rank; the output has the index's shape.
pub fn gather<D: Dim>(
    op: &'static str,
    shape: &[D],
    dim: isize,
    index: (&[D], DType),
) -> Result<Vec<D>, Fault<D>> {
    let (is, idt) = index;
    integer_indices(op, idt, At::Param("index"))?;
    if is.len() != shape.len() {
        return Err(Fault::new(
            At::Param("index"),
            shape_error(
                op,
                format!(
                    "the index must have the input's rank: index {}, input {}",
                    show(is),
                    show(shape)
                ),
            ),
        ));
    }
    norm_axis(op, dim, shape).at(At::Param("dim"))?;
    Ok(is.to_vec())
}

/// scatter and scatter_reduce: an integer index of the input's rank, no larger than the input
/// on every axis but `dim` and than a tensor src on every axis; a tensor src of the input's
/// dtype. The output has the input's shape.
pub fn scatter<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    input: (&[D], DType),
    dim: isize,
    index: (&[D], DType),
    src: Option<(&[D], DType)>,
) -> Result<Vec<D>, Fault<D>> {
    let ((shape, dtype), (is, idt)) = (input, index);
    integer_indices(op, idt, At::Param("index"))?;
    if let Some((_, sdt)) = src
        && sdt != dtype
    {
        return Err(Fault::new(
            At::Param("src"),
            shape_error(
                op,
                format!(
                    "src is {}, the input {}: src must have the input's dtype (cast it first)",
                    sdt.rust_name(),
                    dtype.rust_name()
                ),
            ),
        ));
    }
    let src_shape = src.map(|(s, _)| s);
    if is.len() != shape.len() || src_shape.is_some_and(|s| s.len() != shape.len()) {
        let at = match src_shape {
            Some(s) if is.len() == shape.len() && s.len() != shape.len() => At::Param("src"),
            _ => At::Param("index"),
        };
        let src_text = src_shape.map_or("a scalar".into(), show);
        return Err(Fault::new(
            at,
            shape_error(
                op,
                format!(
                    "input {}, index {} and src {src_text} must have one rank",
                    show(shape),
                    show(is)
                ),
            ),
        ));
    }
    // a rank-0 input is scattered as a rank-1 one of one element, as tg-ops does
    let one = [D::lit(1)];
    let ax_shape = if shape.is_empty() { &one[..] } else { shape };
    let n = norm_axis(op, dim, ax_shape).at(At::Param("dim"))?;
    for a in 0..shape.len() {
        if a != n {
            ck.at_most(&is[a], &shape[a], || {
                shape_error(
                    op,
                    format!(
                        "index {} is larger than the input {} on axis {a} ({} > {}); only axis {dim} may be larger",
                        show(is),
                        show(shape),
                        is[a],
                        shape[a]
                    ),
                )
            })
            .at(At::Param("index"))?;
        }
        if let Some(ss) = src_shape {
            ck.at_most(&is[a], &ss[a], || {
                shape_error(
                    op,
                    format!(
                        "index {} is larger than src {} on axis {a} ({} > {})",
                        show(is),
                        show(ss),
                        is[a],
                        ss[a]
                    ),
                )
            })
            .at(At::Param("src"))?;
        }
    }
    Ok(shape.to_vec())
}

/// masked_select_sized: a bool mask that broadcasts to the input (which keeps its shape);
/// the output is `[size]`.
pub fn masked_select_sized<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    shape: &[D],
    mask: (&[D], DType),
    size: D,
) -> Result<Vec<D>, Fault<D>> {
    let (ms, mdt) = mask;
    let at = At::Param("mask");
    if mdt != DType::Bool {
        return Err(Fault::new(
            at,
            shape_error(
                op,
                format!("the mask must be bool, this one is {}", mdt.rust_name()),
            ),
        ));
    }
    if ms.len() > shape.len() {
        return Err(Fault::new(
            at,
            shape_error(
                op,
                format!(
                    "mask {} does not broadcast to the input {}: it has more axes",
                    show(ms),
                    show(shape)
                ),
            ),
        ));
    }
    let off = shape.len() - ms.len();
    for (i, m) in ms.iter().enumerate() {
        let s = &shape[off + i];
        if !m.is(1) {
            ck.equal(m, s, || {
                shape_error(
                    op,
                    format!(
                        "mask {} does not broadcast to the input {}: axis {} is {m}, not 1 or {s}",
                        show(ms),
                        show(shape),
                        off + i
                    ),
                )
            })
            .at(at)?;
        }
    }
    Ok(vec![size])
}

/// interpolate: the last `size.len()` axes (1 at least) resized to `size`; align_corners only
/// with the linear mode (`linear`); an empty axis cannot grow.
pub fn interpolate<D: Dim>(
    op: &'static str,
    shape: &[D],
    size: &[D],
    mode: &str,
    align_corners: bool,
) -> Result<Vec<D>, Fault<D>> {
    if size.is_empty() || size.len() > shape.len() {
        return Err(Fault::new(
            At::Param("size"),
            argument_error(
                op,
                format!(
                    "{} size(s) given; they must name 1 to {} trailing axes of the input {}",
                    size.len(),
                    shape.len(),
                    show(shape)
                ),
            ),
        ));
    }
    if align_corners && mode != "linear" {
        return Err(Fault::new(
            At::Param("align_corners"),
            argument_error(
                op,
                format!("align_corners applies to mode \"linear\" only, not {mode:?}"),
            ),
        ));
    }
    let lead = shape.len() - size.len();
    for (k, out) in size.iter().enumerate() {
        if shape[lead + k].is(0) && !out.is(0) {
            return Err(Fault::new(
                At::Param("size"),
                shape_error(
                    op,
                    format!(
                        "cannot resize the empty axis {} of the input {} to {out}",
                        lead + k,
                        show(shape)
                    ),
                ),
            ));
        }
    }
    let mut out = shape[..lead].to_vec();
    out.extend(size.iter().cloned());
    Ok(out)
}

/// A window write (`assign_window`): `value` has the target's rank and shape but along `axis`,
/// where it has at most the target's rows; the start is an integer (a scalar, or a tensor of
/// one element of at most 32 bits). The output is the target's shape (its new contents).
/// Every error is a rule's (`OpError::Rule`), placed at the parameter it is about.
pub fn window_write<D: Dim>(
    ck: &mut Checker<D>,
    op: &'static str,
    target: &[D],
    axis: isize,
    start: &Value<D>,
    value: &[D],
) -> Result<Vec<D>, Fault<D>> {
    let ax = norm_axis(op, axis, target).at(At::Param("axis"))?;
    let not_a_window = || {
        shape_error(
            op,
            format!(
                "the value {} is not a window of the target {} along axis {ax}: the same shape \
                 but along the axis, where it has at most the target's rows",
                show(value),
                show(target)
            ),
        )
    };
    if value.len() != target.len() {
        return Err(Fault::new(At::Param("value"), not_a_window()));
    }
    for (a, (v, t)) in value.iter().zip(target).enumerate() {
        if a == ax {
            ck.at_most(v, t, not_a_window).at(At::Param("value"))?;
        } else {
            ck.equal(v, t, not_a_window).at(At::Param("value"))?;
        }
    }
    match start {
        Value::Tensor(shape, dtype) => {
            if !dtype.is_int() || dtype.is_64bit() {
                return Err(Fault::new(
                    At::Param("start"),
                    RuleError::DType {
                        op,
                        dtype: *dtype,
                        message: "the start is a position: an integer of at most 32 bits".into(),
                    },
                ));
            }
            for d in shape {
                ck.equal(d, &D::lit(1), || {
                    shape_error(
                        op,
                        format!(
                            "the start is one position: a tensor of one element, not {}",
                            show(shape)
                        ),
                    )
                })
                .at(At::Param("start"))?;
            }
        }
        Value::Scalar(kind, v) if *kind != crate::ScalarKind::Int => {
            let shown = v.map_or_else(|| format!("{kind:?}"), |v| v.to_string());
            return Err(Fault::new(
                At::Param("start"),
                argument_error(op, format!("takes an integer start, not {shown}")),
            ));
        }
        _ => {}
    }
    Ok(target.to_vec())
}
