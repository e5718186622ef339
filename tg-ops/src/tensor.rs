//! `Tensor<S, T>`: a lazy tensor whose shape type `S` and element type `T` are checked by the
//! compiler.

use std::marker::PhantomData;

use crate::dtype::Dtype;
use crate::shape::{MAX_RANK, Shape, StaticShape, dims_fit, padded_dims};
use crate::untyped::DynTensor;
use tg_runtime::{Error, Result};

/// A lazily evaluated tensor of shape `S` and element type `T`.
///
/// Nothing runs on the device until a value is read (`to_vec`, `item`, printing) or
/// `realize` is called; the ops in between fuse into as few kernels as possible.
///
/// ```
/// use tg_ops::prelude::*;
/// let a = Tensor::<Rank2<2, 2>>::from_slice(&[1.0, 2.0, 3.0, 4.0]).unwrap();
/// assert_eq!(a.dims(), vec![2, 2]);
/// assert_eq!(a.to_vec().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
/// ```
pub struct Tensor<S: Shape, T: Dtype = f32> {
    raw: DynTensor,
    shape: S,
    _t: PhantomData<fn() -> T>,
}

impl<S: Shape, T: Dtype> Clone for Tensor<S, T> {
    fn clone(&self) -> Self {
        Tensor {
            raw: self.raw.clone(),
            shape: self.shape,
            _t: PhantomData,
        }
    }
}

/// Unwraps the result of an op whose arguments only a run could check (dynamic dims): the
/// typed API panics with the op's message, at its caller; the `try_` forms return it
/// instead. Typed layers elsewhere (tg-nn's `forward` over `try_forward`) panic through it
/// too.
///
/// Generic code here is compiled once per shape and dtype, so it stays a bare `match`: the
/// panic (formatting the message) is one non-generic function.
#[track_caller]
#[inline(always)]
pub fn ok<R>(r: Result<R>) -> R {
    match r {
        Ok(v) => v,
        Err(e) => fail(e),
    }
}

#[cold]
#[inline(never)]
#[track_caller]
fn fail(e: Error) -> ! {
    panic!("{e}")
}

/// `raw` and its dims if it fits a tensor type of dtype `dtype` and static dims `dims`, else
/// the error naming `shape_type`. Non-generic, so that `try_from_dyn`, compiled once per shape
/// and dtype, stays a call and a constructor.
fn fit(
    raw: DynTensor,
    dtype: tg_runtime::DType,
    dims: &[Option<usize>],
    shape_type: fn() -> &'static str,
) -> Result<(DynTensor, [usize; MAX_RANK])> {
    if raw.dtype() != dtype {
        return Err(Error::DTypeMismatch {
            op: "Tensor::from_dyn",
            lhs: raw.dtype(),
            rhs: dtype,
            message: "the tensor's dtype is not the type's".into(),
        });
    }
    if !dims_fit(raw.shape(), dims) {
        return Err(Error::Shape {
            op: "Tensor::from_dyn",
            message: format!(
                "shape {:?} does not fit the type {}",
                raw.shape(),
                shape_type()
            ),
        });
    }
    let sizes = padded_dims(raw.shape());
    Ok((raw, sizes))
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// Wraps an untyped tensor, checking its shape against `S` and its dtype against `T`.
    pub fn try_from_dyn(raw: DynTensor) -> Result<Self> {
        match fit(raw, T::DTYPE, S::DIMS, std::any::type_name::<S>) {
            Ok((raw, sizes)) => Ok(Tensor {
                raw,
                shape: S::from_checked_dims(&sizes),
                _t: PhantomData,
            }),
            Err(e) => Err(e),
        }
    }

    /// A tensor of `raw` and its shape value, which agree (the caller made `raw` from it).
    pub(crate) fn from_parts(raw: DynTensor, shape: S) -> Self {
        Tensor {
            raw,
            shape,
            _t: PhantomData,
        }
    }

    /// Like `try_from_dyn`, panicking with the mismatch.
    #[track_caller]
    #[inline(always)]
    pub fn from_dyn(raw: DynTensor) -> Self {
        ok(Self::try_from_dyn(raw))
    }

    #[inline(always)]
    /// The untyped tensor underneath.
    pub fn as_dyn(&self) -> &DynTensor {
        &self.raw
    }

    /// The untyped tensor underneath, by value.
    pub fn into_dyn(self) -> DynTensor {
        self.raw
    }

    /// The shape value (zero-sized when every dimension is static).
    pub fn shape(&self) -> S {
        self.shape
    }

    /// The sizes of the dimensions.
    pub fn dims(&self) -> Vec<usize> {
        self.raw.shape().to_vec()
    }

    /// The number of axes (`S::RANK`).
    pub fn ndim(&self) -> usize {
        S::RANK
    }

    /// The element count.
    pub fn numel(&self) -> usize {
        self.raw.numel()
    }

    /// The runtime dtype (`T`'s).
    pub fn dtype(&self) -> tg_runtime::DType {
        T::DTYPE
    }

    /// A tensor of `shape` holding `data` in row-major order.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<shape![2, _], i32>::from_slice_shape((Const, 3), &[1, 2, 3, 4, 5, 6]).unwrap();
    /// assert_eq!(t.dims(), vec![2, 3]);
    /// ```
    pub fn from_slice_shape(shape: S, data: &[T]) -> Result<Self> {
        Ok(Tensor {
            raw: DynTensor::from_slice(&shape.dims(), data)?,
            shape,
            _t: PhantomData,
        })
    }

    /// Computes the tensor into device memory now.
    pub fn realize(&self) -> Result<&Self> {
        self.raw.realize()?;
        Ok(self)
    }

    /// The values in row-major order.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>, u8>::from_slice(&[7, 8, 9]).unwrap();
    /// assert_eq!(t.to_vec().unwrap(), vec![7u8, 8, 9]);
    /// ```
    pub fn to_vec(&self) -> Result<Vec<T>> {
        self.raw.to_vec::<T>()
    }

    /// The one value of a tensor with one element.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank2<1, 1>>::from_slice(&[2.5]).unwrap();
    /// assert_eq!(t.item().unwrap(), 2.5);
    /// ```
    pub fn item(&self) -> Result<T> {
        if self.numel() != 1 {
            return Err(Error::Shape {
                op: "item",
                message: format!(
                    "item needs exactly one element, shape {:?} has {}",
                    self.dims(),
                    self.numel()
                ),
            });
        }
        Ok(self.to_vec()?[0])
    }

    /// Converts the elements to `U` (ints wrap, floats saturate into ints, NaN -> 0, f16
    /// rounds to nearest even, anything -> bool is `!= 0`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<Rank1<3>>::from_slice(&[1.7, -2.5, 300.0]).unwrap();
    /// assert_eq!(t.cast::<u8>().to_vec().unwrap(), vec![1, 0, 255]);
    /// ```
    pub fn cast<U: Dtype>(&self) -> Tensor<S, U> {
        Tensor {
            raw: self.raw.cast(U::DTYPE),
            shape: self.shape,
            _t: PhantomData,
        }
    }

    /// Converts a tensor with dynamic dims into one of shape `S2`, checking the sizes.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = Tensor::<shape![_, 2]>::from_slice_shape((3, Const), &[0.0; 6]).unwrap();
    /// let s: Tensor<Rank2<3, 2>> = t.into_static().unwrap();
    /// assert_eq!(s.dims(), vec![3, 2]);
    /// ```
    pub fn into_static<S2: Shape>(self) -> Result<Tensor<S2, T>> {
        Tensor::try_from_dyn(self.raw)
    }
}

// The bounds are on each method, not the impl: a call with the wrong shape or dtype then
// fails with the bound's own message (E0277) instead of "method exists but its trait
// bounds were not satisfied" (E0599).
impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// A tensor of the static shape `S` holding `data` in row-major order.
    pub fn from_slice(data: &[T]) -> Result<Self>
    where
        S: StaticShape,
    {
        Self::from_slice_shape(S::default(), data)
    }

    /// What `tensor!` literals expand to; the macro has checked the length against `S`.
    #[doc(hidden)]
    #[track_caller]
    pub fn from_literal(data: &[T]) -> Self
    where
        S: StaticShape,
    {
        ok(Self::from_slice(data))
    }
}

impl<S: Shape, T: Dtype> std::fmt::Debug for Tensor<S, T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::typed::display::debug_typed(self.as_dyn(), f)
    }
}
