//! What the rules of an op see of a call: the receiver and each parameter's value, as far as
//! it is known (shapes generic over [`Dim`], literals, chosen names), and the errors a call
//! can have, with the place they belong to.

use std::fmt;

use crate::dim::{Dim, ShowShape};
use crate::dtype::{DType, ScalarKind};
use crate::error::RuleError;
use crate::shape::window::Padding;

use super::sig::{Need, OpSig};

/// One argument as the rules see it. The macros know shapes symbolically and literals exactly
/// but not the value of a run-time number; the dispatcher knows everything.
#[derive(Clone, Debug, PartialEq)]
pub enum Value<D> {
    /// Not given, and without a default value (the op's own default applies).
    Absent,
    /// A tensor: its shape and dtype.
    Tensor(Vec<D>, DType),
    /// A list of tensors.
    Tensors(Vec<(Vec<D>, DType)>),
    /// A scalar: its kind, and its value where it is known.
    Scalar(ScalarKind, Option<f64>),
    /// `true` or `false`.
    Bool(bool),
    /// A literal integer.
    Int(i64),
    /// Literal integers (axes, offsets, counts, window sizes).
    Ints(Vec<i64>),
    /// A size known at compile time, perhaps only symbolically.
    Dim(D),
    /// Sizes known at compile time.
    Dims(Vec<D>),
    /// A target shape; `None` is a `-1`.
    Target(Vec<Option<D>>),
    /// `(before, after)` or `(start, end)` pairs.
    Pairs(Vec<(i64, i64)>),
    /// A window's padding, in any of its forms.
    Padding(Padding),
    /// A dtype.
    DType(DType),
    /// The index of a name in its parameter's [`Choices`](super::Choices).
    Choice(usize),
    /// Keccak's sponge as given: its rate in bytes and domain byte (checked by the rule).
    Keccak {
        /// Bytes absorbed per permutation.
        rate: i64,
        /// The domain separation byte.
        dsbyte: i64,
    },
    /// A string read by the rule (einsum's formula).
    Text(String),
    /// How many numbers a list holds (their values are only needed by the op).
    Count(usize),
    /// A value the rules do not read (a run-time offset).
    Opaque,
}

/// Where an error belongs: the macros point at it, the dispatcher names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum At {
    /// The call as a whole (the method's name).
    Call,
    /// The receiver.
    Receiver,
    /// A parameter, by name.
    Param(&'static str),
}

/// An error and where it belongs.
#[derive(Clone, Debug, PartialEq)]
pub struct Fault<D> {
    /// Where.
    pub at: At,
    /// What.
    pub error: OpError<D>,
}

impl<D> Fault<D> {
    /// `error` at `at`.
    pub fn new(at: At, error: impl Into<OpError<D>>) -> Self {
        Fault {
            at,
            error: error.into(),
        }
    }
}

/// Places a rule's error.
pub trait Place<T, D> {
    /// The error, if any, at `at`.
    fn at(self, at: At) -> Result<T, Fault<D>>;
}

impl<T, D, E: Into<OpError<D>>> Place<T, D> for Result<T, E> {
    fn at(self, at: At) -> Result<T, Fault<D>> {
        self.map_err(|e| Fault::new(at, e))
    }
}

/// What can be wrong with a call of an op: a shape rule's error, or one of the kinds of
/// mistake a signature itself makes visible (arguments, the receiver's dtype, a name).
#[derive(Clone, Debug, PartialEq)]
pub enum OpError<D> {
    /// A shape or dtype rule's error.
    Rule(RuleError<D>),
    /// The receiver's dtype is not what the op needs.
    Need {
        /// The op.
        op: &'static str,
        /// What it needs.
        need: Need,
        /// The receiver's shape.
        shape: Vec<D>,
        /// The receiver's dtype.
        dtype: DType,
    },
    /// Keyword arguments to an op that takes none.
    NoKeywords {
        /// The op.
        op: &'static str,
    },
    /// Too few or too many arguments.
    Count {
        /// The op.
        op: &'static str,
        /// The fewest it takes.
        min: usize,
        /// The most it takes.
        max: usize,
        /// How many were given.
        given: usize,
    },
    /// More positional arguments than the op takes by position.
    Positional {
        /// The op.
        op: &'static str,
        /// The most it takes by position.
        max: usize,
    },
    /// A keyword the op has no parameter for.
    UnknownKeyword {
        /// The op.
        op: &'static str,
        /// The keyword.
        name: String,
        /// The keywords it takes, comma-separated.
        known: String,
    },
    /// A parameter given twice.
    Twice {
        /// The op.
        op: &'static str,
        /// The parameter.
        name: &'static str,
        /// By position and by name (else by name twice).
        by_position: bool,
    },
    /// A required parameter not given.
    Missing {
        /// The op.
        op: &'static str,
        /// The parameter.
        name: &'static str,
        /// The op's call with its parameters.
        usage: String,
    },
    /// A string naming none of its choices.
    Choice {
        /// The op.
        op: &'static str,
        /// What the string names ("reduction").
        what: &'static str,
        /// The string.
        given: String,
        /// The names it may be.
        names: &'static [&'static str],
    },
    /// A bitwise op on operands that meet in a float dtype.
    Bitwise {
        /// The op (or operator).
        op: &'static str,
        /// The dtype they meet in.
        meet: DType,
    },
    /// A bitcast between dtypes of different sizes, or of bool.
    Bitcast {
        /// The op.
        op: &'static str,
        /// The receiver's dtype.
        from: DType,
        /// The dtype asked for.
        to: DType,
    },
    /// Indices that are not integers.
    IndexDType {
        /// The op.
        op: &'static str,
        /// The indices' dtype.
        dtype: DType,
    },
    /// An input or argument without what the op needs ("a matrix (rank 2 or more)").
    Needs {
        /// The op.
        op: &'static str,
        /// What it needs, and what it got.
        what: String,
    },
    /// A count of outputs that is not a literal.
    Pieces {
        /// The op.
        op: &'static str,
        /// What should be a literal ("chunk count").
        what: &'static str,
        /// What was given.
        found: String,
    },
    /// A Keccak configuration of no known name.
    KeccakName {
        /// The op.
        op: &'static str,
        /// The name given.
        given: String,
    },
    /// An op a kernel body cannot call.
    NotInKernel {
        /// The op.
        op: &'static str,
        /// Why.
        reason: &'static str,
    },
    /// The table and a rule disagree: a broken invariant of tg.
    Internal {
        /// The op.
        op: &'static str,
        /// What broke.
        message: String,
    },
}

impl<D> From<RuleError<D>> for OpError<D> {
    fn from(e: RuleError<D>) -> Self {
        OpError::Rule(e)
    }
}

impl<D: Dim> fmt::Display for OpError<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpError::Rule(e) => write!(f, "{e}"),
            OpError::Need {
                op,
                need,
                shape,
                dtype,
            } => {
                let dt = dtype.rust_name();
                match need {
                    Need::Any => write!(f, "`{op}`: internal: no requirement failed"),
                    Need::Bool => {
                        write!(f, "`{op}` is called on a bool condition, this one is {dt}")
                    }
                    Need::IntOrBool => {
                        write!(
                            f,
                            "`{op}` needs an integer or bool tensor, this one is {dt}"
                        )
                    }
                    Need::Int => {
                        write!(f, "`{op}` takes integer class indices, this tensor is {dt}")
                    }
                    Need::FloatDraw => write!(
                        f,
                        "`{op}` draws floats of its operand's dtype; the operand {} is {dt}: cast it to a float dtype first",
                        ShowShape(shape)
                    ),
                }
            }
            OpError::NoKeywords { op } => write!(f, "`{op}` takes no keyword arguments"),
            OpError::Count {
                op,
                min,
                max,
                given,
            } => {
                let want = if min == max {
                    format!("{min}")
                } else {
                    format!("{min} to {max}")
                };
                write!(f, "`{op}` takes {want} argument(s), {given} given")
            }
            OpError::Positional { op, max } => {
                write!(f, "`{op}` takes at most {max} positional argument(s)")
            }
            OpError::UnknownKeyword { op, name, known } => {
                write!(f, "`{op}` has no argument `{name}`; it takes {known}")
            }
            OpError::Twice {
                op,
                name,
                by_position,
            } => {
                if *by_position {
                    write!(
                        f,
                        "`{op}`: argument `{name}` is given by position and by name"
                    )
                } else {
                    write!(f, "`{op}`: argument `{name}` is given twice")
                }
            }
            OpError::Missing { op, name, usage } => {
                write!(f, "`{op}` needs `{name}`: `{usage}`")
            }
            OpError::Choice {
                op,
                what,
                given,
                names,
            } => {
                let list: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
                write!(
                    f,
                    "`{op}`: unknown {what} {given:?}; it is one of {}",
                    list.join(", ")
                )
            }
            OpError::Bitwise { op, meet } => write!(
                f,
                "`{op}` needs integer or bool tensors, these meet in {}",
                meet.rust_name()
            ),
            OpError::Bitcast { op, from, to } => write!(
                f,
                "`{op}` needs two non-bool dtypes of one size: {} -> {}",
                from.rust_name(),
                to.rust_name()
            ),
            OpError::IndexDType { op, dtype } => {
                write!(f, "`{op}` takes integer indices, not {}", dtype.rust_name())
            }
            OpError::Needs { op, what } => write!(f, "`{op}` needs {what}"),
            OpError::Pieces { op, what, found } => write!(
                f,
                "`{op}` needs a literal {what}: the number of tensors it returns must be known at compile time (found {found})"
            ),
            OpError::KeccakName { op, given } => {
                let names: Vec<String> = super::KECCAK_NAMES
                    .iter()
                    .map(|(n, ..)| format!("{n:?}"))
                    .collect();
                write!(
                    f,
                    "`{op}`: unknown configuration {given:?}; it takes {} or a (rate, dsbyte) pair",
                    names.join(", ")
                )
            }
            OpError::NotInKernel { op, reason } => {
                write!(f, "`{op}` is not available in a #[kernel] body: {reason}")
            }
            OpError::Internal { op, message } => write!(f, "internal: `{op}`: {message}"),
        }
    }
}

impl<D: Dim> std::error::Error for OpError<D> {}

/// A call as the rules see it: the op, its receiver and one value per parameter (defaults
/// filled in).
#[derive(Clone, Debug)]
pub struct Args<D> {
    /// The name errors give the op (its name, or an operator's symbol).
    pub op: &'static str,
    /// The op.
    pub sig: &'static OpSig,
    /// The receiver (a tensor; a scalar for an operator's left operand).
    pub recv: Value<D>,
    /// One value per parameter of `sig`, in order.
    pub vals: Vec<Value<D>>,
}

impl<D: Dim> Args<D> {
    /// An error of the table itself: a rule asked for what the op's row does not give.
    pub fn internal(&self, message: impl Into<String>) -> Fault<D> {
        Fault::new(
            At::Call,
            OpError::Internal {
                op: self.op,
                message: message.into(),
            },
        )
    }

    /// The value of parameter `name`.
    pub fn get(&self, name: &str) -> Result<&Value<D>, Fault<D>> {
        match self.sig.param(name) {
            Some((i, _)) => self
                .vals
                .get(i)
                .ok_or_else(|| self.internal(format!("no value for `{name}`"))),
            None => Err(self.internal(format!("the rule reads `{name}`, not a parameter"))),
        }
    }

    /// The receiver's shape and dtype.
    pub fn input(&self) -> Result<(&[D], DType), Fault<D>> {
        match &self.recv {
            Value::Tensor(s, d) => Ok((s, *d)),
            _ => Err(self.internal("the receiver is not a tensor")),
        }
    }

    /// The receiver's shape.
    pub fn shape(&self) -> Result<&[D], Fault<D>> {
        Ok(self.input()?.0)
    }

    /// Tensor parameter `name` (shape and dtype), if given.
    pub fn tensor(&self, name: &str) -> Result<Option<(&[D], DType)>, Fault<D>> {
        match self.get(name)? {
            Value::Tensor(s, d) => Ok(Some((s, *d))),
            Value::Absent => Ok(None),
            other => Err(self.internal(format!("`{name}` is {other:?}, not a tensor"))),
        }
    }

    /// Tensor parameter `name`, which must be given.
    pub fn required(&self, name: &str) -> Result<(&[D], DType), Fault<D>> {
        self.tensor(name)?
            .ok_or_else(|| self.internal(format!("`{name}` is absent")))
    }

    /// Literal integer parameter `name`, if given.
    pub fn int(&self, name: &str) -> Result<Option<i64>, Fault<D>> {
        match self.get(name)? {
            Value::Int(i) => Ok(Some(*i)),
            Value::Absent => Ok(None),
            other => Err(self.internal(format!("`{name}` is {other:?}, not an integer"))),
        }
    }

    /// An axis parameter (a literal that fits `isize`).
    pub fn axis(&self, name: &str) -> Result<isize, Fault<D>> {
        let v = self
            .int(name)?
            .ok_or_else(|| self.internal(format!("axis `{name}` is absent")))?;
        isize::try_from(v).map_err(|_| self.internal(format!("axis {v} is out of range")))
    }

    /// An optional axis parameter.
    pub fn opt_axis(&self, name: &str) -> Result<Option<isize>, Fault<D>> {
        match self.int(name)? {
            Some(v) => {
                Ok(Some(isize::try_from(v).map_err(|_| {
                    self.internal(format!("{v} is out of range"))
                })?))
            }
            None => Ok(None),
        }
    }

    /// Literal integers parameter `name` (`None` if absent).
    pub fn ints(&self, name: &str) -> Result<Option<Vec<i64>>, Fault<D>> {
        match self.get(name)? {
            Value::Ints(v) => Ok(Some(v.clone())),
            Value::Int(i) => Ok(Some(vec![*i])),
            Value::Absent => Ok(None),
            other => Err(self.internal(format!("`{name}` is {other:?}, not integers"))),
        }
    }

    /// Axes parameter `name` as `isize`s (`None` if absent).
    pub fn axes(&self, name: &str) -> Result<Option<Vec<isize>>, Fault<D>> {
        Ok(self
            .ints(name)?
            .map(|v| v.into_iter().map(|x| x as isize).collect()))
    }

    /// Bool parameter `name`.
    pub fn flag(&self, name: &str) -> Result<bool, Fault<D>> {
        match self.get(name)? {
            Value::Bool(b) => Ok(*b),
            other => Err(self.internal(format!("`{name}` is {other:?}, not a bool"))),
        }
    }

    /// Size parameter `name` (a dimension, perhaps symbolic), if given.
    pub fn dim(&self, name: &str) -> Result<Option<D>, Fault<D>> {
        match self.get(name)? {
            Value::Dim(d) => Ok(Some(d.clone())),
            Value::Int(i) => Ok(usize::try_from(*i).ok().map(D::lit)),
            Value::Absent => Ok(None),
            other => Err(self.internal(format!("`{name}` is {other:?}, not a size"))),
        }
    }

    /// Size parameter `name`, which must be a literal (it counts outputs or rebuilds an
    /// axis the rule computes with); the error names the op and says so.
    pub fn literal(&self, name: &'static str) -> Result<usize, Fault<D>> {
        let d = self
            .dim(name)?
            .ok_or_else(|| self.internal(format!("`{name}` is absent")))?;
        d.known().ok_or_else(|| {
            Fault::new(
                At::Param(name),
                crate::error::argument_error(
                    self.op,
                    format!("{name} must be a literal integer here, found {d}"),
                ),
            )
        })
    }

    /// Sizes parameter `name`, if given.
    pub fn dims(&self, name: &str) -> Result<Option<Vec<D>>, Fault<D>> {
        match self.get(name)? {
            Value::Dims(v) => Ok(Some(v.clone())),
            Value::Dim(d) => Ok(Some(vec![d.clone()])),
            Value::Absent => Ok(None),
            other => Err(self.internal(format!("`{name}` is {other:?}, not sizes"))),
        }
    }

    /// Target-shape parameter `name`.
    pub fn target(&self, name: &str) -> Result<Vec<Option<D>>, Fault<D>> {
        match self.get(name)? {
            Value::Target(v) => Ok(v.clone()),
            other => Err(self.internal(format!("`{name}` is {other:?}, not a shape"))),
        }
    }

    /// Pairs parameter `name`.
    pub fn pairs(&self, name: &str) -> Result<Vec<(i64, i64)>, Fault<D>> {
        match self.get(name)? {
            Value::Pairs(v) => Ok(v.clone()),
            other => Err(self.internal(format!("`{name}` is {other:?}, not pairs"))),
        }
    }

    /// Choice parameter `name` (the index of the name), if given.
    pub fn choice(&self, name: &str) -> Result<Option<usize>, Fault<D>> {
        match self.get(name)? {
            Value::Choice(i) => Ok(Some(*i)),
            Value::Absent => Ok(None),
            other => Err(self.internal(format!("`{name}` is {other:?}, not a choice"))),
        }
    }

    /// Dtype parameter `name`, if given.
    pub fn dtype(&self, name: &str) -> Result<Option<DType>, Fault<D>> {
        match self.get(name)? {
            Value::DType(d) => Ok(Some(*d)),
            Value::Absent => Ok(None),
            other => Err(self.internal(format!("`{name}` is {other:?}, not a dtype"))),
        }
    }

    /// The known value of number parameter `name`, if it is known.
    pub fn number(&self, name: &str) -> Result<Option<f64>, Fault<D>> {
        match self.get(name)? {
            Value::Scalar(_, v) => Ok(*v),
            Value::Absent => Ok(None),
            other => Err(self.internal(format!("`{name}` is {other:?}, not a number"))),
        }
    }
}
