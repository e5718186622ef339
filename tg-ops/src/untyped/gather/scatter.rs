//! scatter and scatter_reduce: values written along an axis at the positions an index holds.
//! Both group the writes by the position they name (`Lazy::writes_by_position`: a merge sort
//! and a binary search per position, `O((k + n) log k)` per column): a plain scatter takes
//! each position's last write, a reduction combines each group's writes in a tree
//! (`Lazy::combine_at`), where tinygrad's composition lays a one-hot mask of the index over
//! the output (`k n` per column).

use tg_runtime::{DType, Error, Lazy, Result, Scalar};

use super::check_index;
use super::search::last_writers;
use crate::untyped::elementwise::Operand;
use crate::untyped::{DynTensor, norm_axis_scalar_ok};

/// How `scatter` combines a value with the element it lands on (torch's and tinygrad's
/// `reduce="add"` / `"multiply"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScatterOp {
    /// Add the scalar at each position.
    Add,
    /// Multiply by the scalar at each position.
    Multiply,
}

/// The reductions of `scatter_reduce` (torch's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScatterReduce {
    /// The sum of what lands at a position.
    Sum,
    /// The product.
    Prod,
    /// The mean.
    Mean,
    /// The maximum.
    Amax,
    /// The minimum.
    Amin,
}

/// The extreme values of `dt` (with infinities for floats), as scalars.
fn extremes(dt: DType) -> (Scalar, Scalar) {
    if dt.is_float() {
        (
            Scalar::Float(f64::NEG_INFINITY),
            Scalar::Float(f64::INFINITY),
        )
    } else if dt.is_bool() {
        (Scalar::Bool(false), Scalar::Bool(true))
    } else if dt.is_unsigned() {
        (Scalar::UInt(0), Scalar::UInt(dt.int_max() as u64))
    } else {
        (
            Scalar::Int(dt.int_min() as i64),
            Scalar::Int(dt.int_max() as i64),
        )
    }
}

impl DynTensor {
    /// The checked operands of a scatter: the input, the index, the source cut to the index's
    /// shape (rank 0 made rank 1), and the axis.
    fn scatter_operands(
        &self,
        op: &'static str,
        dim: isize,
        index: &DynTensor,
        src: &DynTensor,
    ) -> Result<(DynTensor, DynTensor, DynTensor, usize)> {
        check_index(op, index)?;
        if index.ndim() != self.ndim() || src.ndim() != self.ndim() {
            return Err(Error::Shape {
                op,
                message: format!(
                    "input {:?}, index {:?} and src {:?} must have one rank",
                    self.shape(),
                    index.shape(),
                    src.shape()
                ),
            });
        }
        if src.dtype() != self.dtype() {
            return Err(Error::DTypeMismatch {
                op,
                lhs: self.dtype(),
                rhs: src.dtype(),
                message: "src must have the input's dtype (cast it first)".into(),
            });
        }
        let r = self.ndim();
        let d = norm_axis_scalar_ok(op, dim, self.shape())?;
        let (x, i, s) = if r == 0 {
            let one = |t: &DynTensor| t.reshape(&[1]);
            (one(self)?, one(index)?, one(src)?)
        } else {
            (self.clone(), index.clone(), src.clone())
        };
        let fits = (0..x.ndim())
            .all(|a| (a == d || x.shape()[a] >= i.shape()[a]) && s.shape()[a] >= i.shape()[a]);
        if !fits {
            return Err(Error::Shape {
                op,
                message: format!(
                    "index {:?} must be no larger than src {:?} on every axis and than the input {:?} on every axis but {dim}",
                    index.shape(),
                    src.shape(),
                    self.shape()
                ),
            });
        }
        let s = s.shrink_to(&i.shape().iter().map(|&v| Some(v)).collect::<Vec<_>>())?;
        Ok((x, i, s, d))
    }

    /// Writes `src` along `dim` at the positions `index` holds: for `dim` 0,
    /// `out[index[i][j]][j] = src[i][j]` (likewise for other axes), every other element as in
    /// `self`. `src` is a tensor (its leading part of `index`'s shape is used; it must have
    /// `self`'s dtype) or a scalar (converted). With `reduce`, a scalar is added to or
    /// multiplied into the element instead (`scatter_reduce` with `include_self`; the result
    /// then has that op's dtype). Where a position is written twice the last write wins
    /// (tinygrad's rule; torch leaves it undefined); positions out of range write nothing.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let z = DynTensor::zeros(&[2, 3], DType::I32).unwrap();
    /// let i = DynTensor::from_slice(&[1, 3], &[1i32, 0, 1]).unwrap();
    /// let s = DynTensor::from_slice(&[1, 3], &[7i32, 8, 9]).unwrap();
    /// assert_eq!(z.scatter(0, &i, &s, None).unwrap().to_vec::<i32>().unwrap(), vec![0, 8, 0, 7, 0, 9]);
    /// let f = DynTensor::full(&[1, 3], 2.0, DType::F32).unwrap();
    /// let j = DynTensor::from_slice(&[1, 1], &[2i32]).unwrap();
    /// let m = f.scatter(1, &j, 1.5, Some(ScatterOp::Multiply)).unwrap();
    /// assert_eq!(m.to_vec::<f32>().unwrap(), vec![2.0, 2.0, 3.0]);
    /// ```
    pub fn scatter<'a>(
        &self,
        dim: isize,
        index: &DynTensor,
        src: impl Into<Operand<'a>>,
        reduce: Option<ScatterOp>,
    ) -> Result<DynTensor> {
        let src = match src.into() {
            s @ (Operand::Scalar(_) | Operand::Var(..)) => {
                s.to_tensor(index.shape(), self.dtype())?
            }
            Operand::Tensor(_) if reduce.is_some() => {
                return Err(Error::Argument {
                    op: "scatter",
                    message: "reduce takes a scalar src; use scatter_reduce for a tensor".into(),
                });
            }
            Operand::Tensor(t) => t.into_owned(),
        };
        match reduce {
            Some(ScatterOp::Add) => {
                return self.scatter_reduce(dim, index, &src, ScatterReduce::Sum, true);
            }
            Some(ScatterOp::Multiply) => {
                return self.scatter_reduce(dim, index, &src, ScatterReduce::Prod, true);
            }
            None => {}
        }
        // each position along `dim` takes its last write, found by a binary search over the
        // writes sorted by position (`last_writers`), column by column
        let (x, i, s, d) = self.scatter_operands("scatter", dim, index, &src)?;
        let n = x.shape()[d];
        let (found, which) = last_writers(&i.transpose(d as isize, -1)?, n)?;
        let written = s.transpose(d as isize, -1)?.gather(-1, &which)?;
        let xt = x.transpose(d as isize, -1)?;
        let to: Vec<Option<usize>> = xt.shape().iter().map(|&v| Some(v)).collect();
        let merged = found
            .pad_to(&to)?
            .where_(&written.pad_to(&to)?, &xt)?
            .transpose(d as isize, -1)?;
        if self.ndim() == 0 {
            merged.reshape(&[])
        } else {
            Ok(merged)
        }
    }

    /// Combines `src` along `dim` into the positions `index` holds with `reduce` (sum, prod,
    /// mean, amax, amin); with `include_self` the element's own value takes part, without it
    /// only the values that land there (elements nothing lands on keep their value).
    ///
    /// Dtypes follow tinygrad's composition: a sum (and so `scatter` with `Add`) is
    /// accumulated and returned in the sum's dtype (i32 for narrow signed ints, u32 for
    /// narrow unsigned, f16 stays f16), a mean in the mean's (f32 for integers); prod, amax
    /// and amin keep the dtype. (torch keeps the input dtype throughout.)
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::ones(&[1, 3], DType::F32).unwrap();
    /// let i = DynTensor::from_slice(&[2, 3], &[0i32, 0, 0, 0, 0, 0]).unwrap();
    /// let s = DynTensor::from_slice(&[2, 3], &[1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    /// let r = t.scatter_reduce(0, &i, &s, ScatterReduce::Sum, true).unwrap();
    /// assert_eq!(r.to_vec::<f32>().unwrap(), vec![6.0, 8.0, 10.0]);
    /// let m = t.scatter_reduce(0, &i, &s, ScatterReduce::Amax, false).unwrap();
    /// assert_eq!(m.to_vec::<f32>().unwrap(), vec![4.0, 5.0, 6.0]);
    /// ```
    pub fn scatter_reduce(
        &self,
        dim: isize,
        index: &DynTensor,
        src: &DynTensor,
        reduce: ScatterReduce,
        include_self: bool,
    ) -> Result<DynTensor> {
        let (x, i, s, d) = self.scatter_operands("scatter_reduce", dim, index, src)?;
        let n = x.shape()[d];
        let to: Vec<Option<usize>> = x.shape().iter().map(|&v| Some(v)).collect();
        // per position along `dim`: the writes landing there combined (in a tree, through a
        // sort of the positions: `Lazy::combine_at`), and whether any does, laid over `x`
        let grouped = |values: &DynTensor,
                       combine: &dyn Fn(&DynTensor, &DynTensor) -> Result<DynTensor>|
         -> Result<(DynTensor, DynTensor)> {
            let lift = |a: &Lazy, b: &Lazy| {
                combine(&DynTensor::wrap(a.clone()), &DynTensor::wrap(b.clone()))
                    .map(DynTensor::into_lazy)
            };
            let (at, found) = values.lazy().combine_at(d, i.lazy(), n, &lift)?;
            Ok((
                DynTensor::wrap(at).pad_to(&to)?,
                DynTensor::wrap(found).pad_to(&to)?,
            ))
        };
        // the element's own value where it takes part, else `identity` where writes land
        let own = |found: &DynTensor, identity: Scalar| -> Result<DynTensor> {
            if include_self {
                Ok(x.clone())
            } else {
                found.where_(identity, &x)
            }
        };
        let sum = || -> Result<DynTensor> {
            let (at, found) = grouped(&s.cast(s.sum_acc_dtype()), &|a, b| a.add(b))?;
            found
                .where_(at.cast(s.dtype().sum_dtype()), 0)?
                .add(&own(&found, Scalar::Int(0))?)
        };
        let (lo, hi) = extremes(self.dtype());
        let out = match reduce {
            ScatterReduce::Sum => sum()?,
            ScatterReduce::Prod => {
                let (at, found) = grouped(&s, &|a, b| a.mul(b))?;
                found.where_(&at, 1)?.mul(&own(&found, Scalar::Int(1))?)?
            }
            ScatterReduce::Amax => {
                let (at, found) = grouped(&s, &|a, b| a.maximum(b))?;
                found.where_(&at, lo)?.maximum(&own(&found, lo)?)?
            }
            ScatterReduce::Amin => {
                let (at, found) = grouped(&s, &|a, b| a.minimum(b))?;
                found.where_(&at, hi)?.minimum(&own(&found, hi)?)?
            }
            ScatterReduce::Mean => {
                let ones = s.ones_like().cast(DType::I32);
                let (count, found) = grouped(&ones, &|a, b| a.add(b))?;
                let count = found.where_(&count, 0)?;
                let count = if include_self {
                    count.add(1)?
                } else {
                    count.add(&found.logical_not()?.where_(1, 0)?)?
                };
                sum()?.div(&count)?
            }
        };
        if self.ndim() == 0 {
            out.reshape(&[])
        } else {
            Ok(out)
        }
    }
}
