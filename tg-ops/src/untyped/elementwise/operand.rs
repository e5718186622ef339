//! Operands of binary ops: a tensor or a Rust scalar, and how two of them meet in one shape
//! and one dtype.

use std::borrow::Cow;

use half::f16;
use tg_core::ScalarKind;
use tg_runtime::{DType, Element, Error, Result, Scalar};

use crate::untyped::DynTensor;

/// One side of a binary elementwise op: a tensor (borrowed or owned), or a scalar.
///
/// A scalar is *weak*, as a Python number is in tinygrad: it takes the tensor's dtype, except
/// that a float scalar with an integer or bool tensor gives the default float (f32), and an
/// integer scalar with a bool tensor gives the default int (i32). Its value is then converted
/// with tg's cast rules (`u8_tensor + 300` adds 44).
///
/// ```
/// use tg_ops::prelude::*;
/// let t = DynTensor::from_slice(&[2], &[1u8, 2]).unwrap();
/// assert_eq!(t.add(1.5).unwrap().dtype(), DType::F32); // float scalar: default float
/// assert_eq!(t.add(300).unwrap().to_vec::<u8>().unwrap(), vec![45, 46]); // 300 wraps to 44
/// assert_eq!(t.add(&t).unwrap().dtype(), DType::U8);
/// ```
#[derive(Clone, Debug)]
pub enum Operand<'a> {
    /// A tensor, borrowed or owned.
    Tensor(Cow<'a, DynTensor>),
    /// A weak Rust scalar.
    Scalar(Scalar),
    /// A weak scalar whose value a replay may rebind: var `id` of the runtime
    /// (`Lazy::var`), read by kernels as data. `#[kernel]` passes its scalar arguments so,
    /// and a recorded call then replays with new values instead of recording anew.
    Var(u64, Scalar),
}

impl<'a> From<&'a DynTensor> for Operand<'a> {
    fn from(t: &'a DynTensor) -> Self {
        Operand::Tensor(Cow::Borrowed(t))
    }
}

impl From<DynTensor> for Operand<'static> {
    fn from(t: DynTensor) -> Self {
        Operand::Tensor(Cow::Owned(t))
    }
}

impl From<Scalar> for Operand<'static> {
    fn from(s: Scalar) -> Self {
        Operand::Scalar(s)
    }
}

macro_rules! scalar_operand {
    ($($t:ty),*) => {$(
        impl From<$t> for Operand<'static> {
            fn from(v: $t) -> Self {
                Operand::Scalar(Element::to_scalar(v))
            }
        }
    )*};
}

scalar_operand!(bool, i8, u8, i16, u16, i32, u32, i64, u64, f16, f32, f64);

impl Operand<'_> {
    /// The tensor, if this operand is one.
    pub fn tensor(&self) -> Option<&DynTensor> {
        match self {
            Operand::Tensor(t) => Some(t),
            Operand::Scalar(_) | Operand::Var(..) => None,
        }
    }

    /// The value, if this operand is a scalar (a var: the value it has now).
    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Operand::Tensor(_) => None,
            Operand::Scalar(s) | Operand::Var(_, s) => Some(*s),
        }
    }

    /// This operand as a tensor of `shape` and `dtype` (broadcast, converted); a var stays a
    /// var, so a replay can rebind it.
    pub fn to_tensor(&self, shape: &[usize], dtype: DType) -> Result<DynTensor> {
        match self {
            Operand::Tensor(t) => t.cast(dtype).broadcast_to(shape),
            Operand::Scalar(s) => Ok(DynTensor::full(shape, *s, dtype)?),
            Operand::Var(id, s) => Ok(DynTensor::wrap(tg_runtime::Lazy::var(
                *id, *s, dtype, shape,
            )?)),
        }
    }

    /// This operand as a position `op` reads on the device, a tensor of `shape` (of one
    /// element): a one-element integer tensor reshaped, an integer scalar made one (a var
    /// stays a var, so a replay can rebind it); anything else is `op`'s error.
    pub fn position(&self, op: &'static str, shape: &[usize]) -> Result<DynTensor> {
        match self {
            Operand::Tensor(t) if !t.dtype().is_int() => Err(Error::DType {
                op,
                dtype: t.dtype(),
                message: "a position tensor holds an integer".into(),
            }),
            Operand::Tensor(t) if t.numel() != 1 => Err(Error::Shape {
                op,
                message: format!(
                    "a position tensor holds one element; got shape {:?}",
                    t.shape()
                ),
            }),
            Operand::Tensor(t) => {
                let dims: Vec<isize> = shape.iter().map(|&d| d as isize).collect();
                t.reshape(&dims)
            }
            Operand::Scalar(s) | Operand::Var(_, s) if s.kind() == ScalarKind::Int => {
                self.to_tensor(shape, self.dtype())
            }
            Operand::Scalar(s) | Operand::Var(_, s) => Err(Error::Argument {
                op,
                message: format!(
                    "takes an integer position; got the {:?} scalar {s:?}",
                    s.kind()
                ),
            }),
        }
    }

    /// The dtype this operand has on its own (a scalar's default dtype).
    pub fn dtype(&self) -> DType {
        match self {
            Operand::Tensor(t) => t.dtype(),
            Operand::Scalar(s) | Operand::Var(_, s) => DType::of_scalar(s.kind()),
        }
    }
}

/// The dtype `a` and `b` meet in: tinygrad's least upper dtype for two tensors, the tensor's
/// dtype (weakly promoted) for a tensor and a scalar.
pub fn result_dtype(a: &Operand, b: &Operand) -> DType {
    match (a, b) {
        (Operand::Tensor(x), Operand::Tensor(y)) => x.dtype().least_upper(y.dtype()),
        (Operand::Tensor(t), s) | (s, Operand::Tensor(t)) => t
            .dtype()
            .weak(s.scalar().map_or(ScalarKind::Float, |v| v.kind())),
        (x, y) => x.dtype().least_upper(y.dtype()),
    }
}

/// Broadcasts `a` and `b` to one shape and converts them to `dtype` (default: the dtype they
/// meet in). At least one must be a tensor.
pub fn meet(
    op: &'static str,
    a: &Operand,
    b: &Operand,
    dtype: Option<DType>,
) -> Result<(DynTensor, DynTensor)> {
    let dt = dtype.unwrap_or_else(|| result_dtype(a, b));
    match (a, b) {
        (Operand::Tensor(x), Operand::Tensor(y)) => DynTensor::align(op, x, y, Some(dt)),
        (Operand::Tensor(t), s) => Ok((t.cast(dt), s.to_tensor(t.shape(), dt)?)),
        (s, Operand::Tensor(t)) => Ok((s.to_tensor(t.shape(), dt)?, t.cast(dt))),
        _ => Err(Error::Argument {
            op,
            message: "needs at least one tensor operand, got two scalars".into(),
        }),
    }
}

/// Broadcasts three operands to one shape and converts them to the dtype all meet in (or
/// `dtype`). At least one must be a tensor.
pub fn meet3(
    op: &'static str,
    a: &Operand,
    b: &Operand,
    c: &Operand,
    dtype: Option<DType>,
) -> Result<(DynTensor, DynTensor, DynTensor)> {
    if [a, b, c].iter().all(|o| o.tensor().is_none()) {
        return Err(Error::Argument {
            op,
            message: "needs at least one tensor operand, got three scalars".into(),
        });
    }
    let shape = meet_shape(op, &[], &[a, b, c])?;
    let dt = dtype.unwrap_or_else(|| meet_dtype3(a, b, c));
    Ok((
        a.to_tensor(&shape, dt)?,
        b.to_tensor(&shape, dt)?,
        c.to_tensor(&shape, dt)?,
    ))
}

/// The dtype of three operands: the tensors' least upper dtype, then weakly promoted by each
/// scalar (as tinygrad folds its operands left to right).
fn meet_dtype3(a: &Operand, b: &Operand, c: &Operand) -> DType {
    meet_dtype(&[a, b, c])
}

/// The dtype several operands meet in: the tensors' least upper dtype, then weakly promoted by
/// each scalar (as tinygrad folds its operands left to right). Scalars alone meet in their
/// default dtypes.
pub(crate) fn meet_dtype(ops: &[&Operand]) -> DType {
    let tensors = ops.iter().filter_map(|o| o.tensor()).map(|t| t.dtype());
    let Some(mut dt) = tensors.reduce(|x, y| x.least_upper(y)) else {
        return ops
            .iter()
            .map(|o| o.dtype())
            .reduce(|x, y| x.least_upper(y))
            .unwrap_or(DType::F32);
    };
    for o in ops {
        if let Some(s) = o.scalar() {
            dt = dt.weak(s.kind());
        }
    }
    dt
}

/// The broadcast shape of the tensors among `ops` and `extra`.
pub(crate) fn meet_shape(
    op: &'static str,
    extra: &[&[usize]],
    ops: &[&Operand],
) -> Result<Vec<usize>> {
    let mut shapes: Vec<&[usize]> = extra.to_vec();
    shapes.extend(ops.iter().filter_map(|o| o.tensor()).map(|t| t.shape()));
    crate::untyped::broadcast_shapes(op, &shapes)
}
