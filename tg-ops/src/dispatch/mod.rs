//! Calling an op by name with argument values, as tg-core's op table states its signature:
//! arguments bound by position and name (the same binding as a kernel body's), defaults
//! filled in, the `DynTensor` op called (`invoke.rs`, generated from the table), and the
//! result's shapes and dtypes checked against the row's rules. A disagreement between the
//! table and the op is [`Error::Internal`]: the table is what the macros type kernel bodies
//! with, so every test that calls through here also checks the macros' knowledge.
//!
//! ```
//! use tg_ops::prelude::*;
//! use tg_ops::dispatch::{ArgValue, call};
//! let x = DynTensor::from_slice(&[2, 3], &[1.0f32, 2., 3., 4., 5., 6.]).unwrap();
//! let y = call("sum", Some(&x), &[(None, ArgValue::Int(1))]).unwrap();
//! assert_eq!(y[0].to_vec::<f32>().unwrap(), vec![6.0, 15.0]);
//! let e = call("sum", Some(&x), &[(Some("axis"), ArgValue::Int(1))]).unwrap_err();
//! assert!(e.to_string().contains("takes no keyword arguments"));
//! ```

#[rustfmt::skip]
mod invoke;
mod resolved;

/// The op table this dispatches by (tg-core's): an op's row, its parameters and their kinds.
pub use tg_core::ops::{Kind, OpSig, Param, lookup};

use tg_core::ops::{self, ArgDefault, Args, OpError, Pass, ShapeRule, Value, WindowField};
use tg_core::shape::window::Padding;
use tg_core::{Checker, ScalarKind};
use tg_runtime::{DType, Error, Result, Scalar};

use crate::untyped::DynTensor;
pub use resolved::Resolved;

/// An argument of a call by name.
#[derive(Clone, Debug)]
pub enum ArgValue {
    /// Absent (the op's `None`).
    None,
    /// A bool.
    Bool(bool),
    /// An integer (an axis, a size, a scalar).
    Int(i64),
    /// A float.
    Float(f64),
    /// Integers (axes, sizes, a target shape with `-1`).
    Ints(Vec<i64>),
    /// Floats (coefficients).
    Floats(Vec<f64>),
    /// `(before, after)` or `(start, end)` pairs.
    Pairs(Vec<(i64, i64)>),
    /// A name (a reduction, a mode, a Keccak sponge) or einsum's formula.
    Str(String),
    /// A dtype.
    DType(DType),
    /// A tensor.
    Tensor(DynTensor),
    /// Tensors (joined after the receiver).
    Tensors(Vec<DynTensor>),
}

impl From<&DynTensor> for ArgValue {
    fn from(t: &DynTensor) -> Self {
        ArgValue::Tensor(t.clone())
    }
}

impl From<i64> for ArgValue {
    fn from(v: i64) -> Self {
        ArgValue::Int(v)
    }
}

impl From<f64> for ArgValue {
    fn from(v: f64) -> Self {
        ArgValue::Float(v)
    }
}

impl From<bool> for ArgValue {
    fn from(v: bool) -> Self {
        ArgValue::Bool(v)
    }
}

impl From<&str> for ArgValue {
    fn from(v: &str) -> Self {
        ArgValue::Str(v.to_string())
    }
}

impl From<DType> for ArgValue {
    fn from(v: DType) -> Self {
        ArgValue::DType(v)
    }
}

/// A table error as tg's error.
pub fn error_of(e: OpError<usize>) -> Error {
    let message = e.to_string();
    match e {
        OpError::Rule(r) => r.into(),
        OpError::Need { op, dtype, .. } | OpError::IndexDType { op, dtype } => {
            Error::DType { op, dtype, message }
        }
        OpError::Bitwise { op, meet } => Error::DType {
            op,
            dtype: meet,
            message,
        },
        OpError::Bitcast { op, from, .. } => Error::DType {
            op,
            dtype: from,
            message,
        },
        OpError::Internal { op, .. } => Error::Internal {
            context: op,
            message,
        },
        OpError::NoKeywords { op }
        | OpError::Count { op, .. }
        | OpError::Positional { op, .. }
        | OpError::UnknownKeyword { op, .. }
        | OpError::Twice { op, .. }
        | OpError::Missing { op, .. }
        | OpError::Choice { op, .. }
        | OpError::Needs { op, .. }
        | OpError::Pieces { op, .. }
        | OpError::KeccakName { op, .. }
        | OpError::NotInKernel { op, .. } => Error::Argument { op, message },
    }
}

/// What the op table says of a call: each output's shape and dtype, or the error its rules
/// find; `None` where the table does not type the op (its shape depends on the data).
pub type Verdict = Option<std::result::Result<Vec<(Vec<usize>, DType)>, OpError<usize>>>;

/// The op a call names and its arguments, bound to the op's parameters and defaults filled
/// in (the binding errors of a kernel body's call).
pub fn resolve(name: &str, args: &[(Option<&str>, ArgValue)]) -> Result<Resolved> {
    let sig = ops::lookup(name).ok_or_else(|| Error::Argument {
        op: "call",
        message: format!("no op is named `{name}`"),
    })?;
    let names: Vec<Option<&str>> = args.iter().map(|(n, _)| *n).collect();
    let slots = ops::bind::<usize>(sig, sig.name, &names).map_err(|(_, e)| error_of(e))?;
    let vals = sig
        .params
        .iter()
        .zip(&slots)
        .map(|(p, s)| match s {
            Some(i) => Ok(args[*i].1.clone()),
            None => default(sig, p),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Resolved { sig, vals })
}

/// `call` with every argument named by its parameter, whether or not a kernel body may give
/// the op's arguments by name (fixture runners and importers name each argument as the op's
/// row does). A parameter not named takes its default.
pub fn call_named(
    name: &str,
    recv: Option<&DynTensor>,
    args: &[(&str, ArgValue)],
) -> Result<Vec<DynTensor>> {
    let sig = ops::lookup(name).ok_or_else(|| Error::Argument {
        op: "call",
        message: format!("no op is named `{name}`"),
    })?;
    if let Some((n, _)) = args.iter().find(|(n, _)| sig.param(n).is_none()) {
        return Err(error_of(OpError::UnknownKeyword {
            op: sig.name,
            name: n.to_string(),
            known: sig.keyword_names(),
        }));
    }
    // positionally, up to the last one named, the rest of the way by default
    let last = sig
        .params
        .iter()
        .rposition(|p| args.iter().any(|(n, _)| *n == p.name))
        .map_or(0, |i| i + 1);
    let positional = sig.params[..last]
        .iter()
        .map(|p| {
            let v = match args.iter().find(|(n, _)| *n == p.name) {
                Some((_, v)) => v.clone(),
                None => default(sig, p)?,
            };
            Ok(((p.pass == Pass::Keyword).then_some(p.name), v))
        })
        .collect::<Result<Vec<_>>>()?;
    if sig.keywords || positional.iter().all(|(n, _)| n.is_none()) {
        return call(sig.name, recv, &positional);
    }
    Err(Error::internal(
        "dispatch",
        format!(
            "`{}` has keyword-only parameters but takes no keywords",
            sig.name
        ),
    ))
}

/// What the op table says a call gives: each output's shape and dtype, or the error its
/// rules find (`None` where the table does not type the op: its shape depends on the data).
pub fn expect(
    name: &str,
    recv: Option<&DynTensor>,
    args: &[(Option<&str>, ArgValue)],
) -> Result<Verdict> {
    Ok(expected(&resolve(name, args)?, recv))
}

/// Calls op `name` on `recv` (`None` for an op without a receiver) with `args` (each with
/// its keyword, if given by name), and checks each output's shape and dtype against the op's
/// row. An error of the op (a value only the data shows) is returned as it is.
pub fn call(
    name: &str,
    recv: Option<&DynTensor>,
    args: &[(Option<&str>, ArgValue)],
) -> Result<Vec<DynTensor>> {
    let r = resolve(name, args)?;
    let sig = r.sig;
    let expected = expected(&r, recv);
    let got = invoke::invoke(sig.name, recv, &r)?;
    let expected = match expected {
        None => return Ok(got),
        Some(Err(e)) => {
            return Err(Error::Internal {
                context: "dispatch",
                message: format!(
                    "the op table rejects a call of `{}` that the op accepts: {e}",
                    sig.name
                ),
            });
        }
        Some(Ok(x)) => x,
    };
    let shown: Vec<(Vec<usize>, DType)> = got
        .iter()
        .map(|t| (t.shape().to_vec(), t.dtype()))
        .collect();
    if shown != expected {
        return Err(Error::Internal {
            context: "dispatch",
            message: format!(
                "`{}`: the op gave {shown:?}, its row in the op table says {expected:?}",
                sig.name
            ),
        });
    }
    Ok(got)
}

/// A parameter's default as an argument value.
fn default(sig: &OpSig, p: &tg_core::ops::Param) -> Result<ArgValue> {
    Ok(match p.default {
        ArgDefault::Required => {
            return Err(Error::internal(
                "dispatch",
                format!("`{}`: a required argument", sig.name),
            ));
        }
        ArgDefault::Absent => ArgValue::None,
        ArgDefault::Bool(b) => ArgValue::Bool(b),
        ArgDefault::Int(i) => ArgValue::Int(i),
        ArgDefault::F64(f) => ArgValue::Float(f),
        ArgDefault::Ints(v) => ArgValue::Ints(v.to_vec()),
        ArgDefault::Str(s) => match (p.kind, DType::from_rust_name(s)) {
            (Kind::DType, Some(d)) => ArgValue::DType(d),
            _ => ArgValue::Str(s.to_string()),
        },
    })
}

/// The outputs the row says a call has: `None` where the table does not type it (an op whose
/// shape depends on the data, or one the macros handle themselves); `Some(Err)` where the
/// table rejects the call.
fn expected(r: &Resolved, recv: Option<&DynTensor>) -> Verdict {
    let sig = r.sig;
    if matches!(sig.shape, ShapeRule::DataDependent | ShapeRule::Special) {
        return None;
    }
    let vals = match sig
        .params
        .iter()
        .zip(&r.vals)
        .map(|(p, v)| value(p.kind, v))
        .collect::<std::result::Result<Vec<_>, _>>()
    {
        Ok(v) => v,
        // a value of the wrong sort: the op's accessor reports it
        Err(()) => return None,
    };
    let a = Args {
        op: sig.name,
        sig,
        recv: recv.map_or(Value::Absent, |t| {
            Value::Tensor(t.shape().to_vec(), t.dtype())
        }),
        vals,
    };
    Some(ops::outputs(&mut Checker::new(), &a).map_err(|f| f.error))
}

/// What the rules see of an argument.
fn value(kind: Kind, v: &ArgValue) -> std::result::Result<Value<usize>, ()> {
    let usize_of = |i: i64| usize::try_from(i).map_err(|_| ());
    Ok(match (kind, v) {
        (_, ArgValue::None) => Value::Absent,
        (Kind::Tensors, ArgValue::Tensor(t)) => {
            Value::Tensors(vec![(t.shape().to_vec(), t.dtype())])
        }
        (_, ArgValue::Tensor(t)) => Value::Tensor(t.shape().to_vec(), t.dtype()),
        (_, ArgValue::Tensors(ts)) => {
            Value::Tensors(ts.iter().map(|t| (t.shape().to_vec(), t.dtype())).collect())
        }
        (Kind::Window(WindowField::Padding), ArgValue::Int(p)) => {
            Value::Padding(Padding::Uniform(*p as isize))
        }
        (Kind::Window(WindowField::Padding), ArgValue::Ints(v)) => {
            Value::Padding(Padding::PerAxis(v.iter().map(|&x| x as isize).collect()))
        }
        (Kind::Window(WindowField::Padding), ArgValue::Pairs(v)) => Value::Padding(Padding::Pairs(
            v.iter().map(|&(x, y)| (x as isize, y as isize)).collect(),
        )),
        (Kind::Sizes | Kind::OptSizes, ArgValue::Int(i)) => Value::Dims(vec![usize_of(*i)?]),
        (Kind::Keccak, ArgValue::Ints(v)) if v.len() == 2 => Value::Keccak {
            rate: v[0],
            dsbyte: v[1],
        },
        (Kind::Size | Kind::OptSize | Kind::SplitSizes, ArgValue::Int(i)) => {
            Value::Dim(usize_of(*i)?)
        }
        (Kind::Sizes | Kind::OptSizes | Kind::SplitSizes, ArgValue::Ints(v)) => Value::Dims(
            v.iter()
                .map(|&i| usize_of(i))
                .collect::<std::result::Result<_, _>>()?,
        ),
        (Kind::Shape | Kind::OptShape, ArgValue::Ints(v)) => Value::Target(
            v.iter()
                .map(|&i| {
                    if i == -1 {
                        Ok(None)
                    } else {
                        usize_of(i).map(Some)
                    }
                })
                .collect::<std::result::Result<_, _>>()?,
        ),
        (
            Kind::Operand | Kind::OptOperand | Kind::Fill | Kind::PadValue | Kind::F64,
            ArgValue::Int(i),
        ) => Value::Scalar(ScalarKind::Int, Some(*i as f64)),
        (_, ArgValue::Float(f)) => Value::Scalar(ScalarKind::Float, Some(*f)),
        (Kind::Operand | Kind::OptOperand | Kind::Fill | Kind::PadValue, ArgValue::Bool(b)) => {
            Value::Scalar(ScalarKind::Bool, Some(f64::from(u8::from(*b))))
        }
        (_, ArgValue::Bool(b)) => Value::Bool(*b),
        (Kind::Offset | Kind::OptI64 | Kind::I32, _) => Value::Opaque,
        (_, ArgValue::Int(i)) => Value::Int(*i),
        (_, ArgValue::Ints(v)) => Value::Ints(v.clone()),
        (_, ArgValue::Pairs(v)) => Value::Pairs(v.clone()),
        (_, ArgValue::DType(d)) => Value::DType(*d),
        (_, ArgValue::Floats(v)) => Value::Count(v.len()),
        (Kind::Choice(c) | Kind::OptChoice(c), ArgValue::Str(s)) => {
            Value::Choice(c.find(s).ok_or(())?)
        }
        (Kind::PadMode, ArgValue::Str(s)) => {
            Value::Choice(ops::Choices::PadMode.find(s).ok_or(())?)
        }
        (Kind::Keccak, ArgValue::Str(s)) => {
            let (_, _, rate, ds) = ops::KECCAK_NAMES.iter().find(|(n, ..)| n == s).ok_or(())?;
            Value::Keccak {
                rate: *rate as i64,
                dsbyte: *ds as i64,
            }
        }
        (Kind::Formula, ArgValue::Str(s)) => Value::Text(s.clone()),
        (_, ArgValue::Str(_)) => return Err(()),
    })
}

/// One tensor.
fn one(x: Result<DynTensor>) -> Result<Vec<DynTensor>> {
    x.map(|t| vec![t])
}

/// A pair.
fn pair(x: Result<(DynTensor, DynTensor)>) -> Result<Vec<DynTensor>> {
    x.map(|(a, b)| vec![a, b])
}

/// Three tensors.
fn triple(x: Result<(DynTensor, DynTensor, DynTensor)>) -> Result<Vec<DynTensor>> {
    x.map(|(a, b, c)| vec![a, b, c])
}

/// An op a call by name does not reach (it differentiates, writes in place, or indexes).
fn none(name: &'static str) -> Result<Vec<DynTensor>> {
    Err(Error::Argument {
        op: name,
        message: "this op is not called by name (it differentiates, writes in place or indexes)"
            .into(),
    })
}

/// A method called without a receiver.
fn no_receiver(name: &'static str) -> Error {
    Error::Argument {
        op: name,
        message: "a method of a tensor, called without one".into(),
    }
}

/// The scalar of an argument.
pub(crate) fn scalar(v: &ArgValue) -> Option<Scalar> {
    match v {
        ArgValue::Bool(b) => Some(Scalar::Bool(*b)),
        ArgValue::Int(i) => Some(Scalar::Int(*i)),
        ArgValue::Float(f) => Some(Scalar::Float(*f)),
        _ => None,
    }
}
