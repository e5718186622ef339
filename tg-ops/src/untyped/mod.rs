//! `DynTensor`: the op library written once, on shapes known at run time.
//!
//! Every op here is composed of the runtime's primitives, as tinygrad's op mixins compose
//! them, so fusion, dtypes and devices work for all ops at once. Each checks its arguments and
//! returns an `Error` naming the op and the shapes involved. The typed `Tensor` wraps these
//! calls; `#[kernel]` bodies call them directly once the macro has proved the shapes.

mod attention;
pub mod autograd;
mod broadcast;
pub mod conv;
pub mod creation;
pub mod creation_ranges;
mod device;
pub mod einsum;
pub mod elementwise;
pub mod gather;
pub mod hash;
mod image;
pub mod indexing;
pub mod linalg;
pub mod loss;
pub mod matmul;
pub mod movement;
mod norm;
pub mod pad_modes;
pub mod pool;
pub mod random;
pub mod reduce;
mod sampling;
pub mod scan;
pub mod sort;
pub mod stats;

pub use broadcast::broadcast_shapes;

use tg_runtime::{DType, Element, Lazy, Result, Scalar};

/// A tensor whose shape and dtype are known at run time only. Cloning is cheap.
#[derive(Clone)]
pub struct DynTensor {
    pub(crate) lazy: Lazy,
    /// The gradient `backward` accumulates, shared by the clones of a tensor that requires
    /// gradients (see `autograd.rs`).
    pub(crate) grad: Option<autograd::GradCell>,
}

/// Normalizes a possibly negative axis of `shape` (numpy's convention; tg-core's rule).
pub fn norm_axis(op: &'static str, axis: isize, shape: &[usize]) -> Result<usize> {
    Ok(tg_core::shape::norm_axis(op, axis, shape)?)
}

/// [`norm_axis`] where a rank-0 tensor takes axis 0 and -1 as if it had one axis (the
/// single-axis ops of tinygrad accept them on a scalar).
pub fn norm_axis_scalar_ok(op: &'static str, axis: isize, shape: &[usize]) -> Result<usize> {
    Ok(tg_core::shape::norm_axis_scalar_ok(op, axis, shape)?)
}

impl DynTensor {
    /// Wraps a primitive-graph node.
    pub fn from_lazy(lazy: Lazy) -> DynTensor {
        DynTensor { lazy, grad: None }
    }
    /// The primitive-graph node.
    pub fn lazy(&self) -> &Lazy {
        &self.lazy
    }
    /// The primitive-graph node, by value.
    pub fn into_lazy(self) -> Lazy {
        self.lazy
    }
    /// The sizes.
    pub fn shape(&self) -> &[usize] {
        self.lazy.shape()
    }
    /// The element type.
    pub fn dtype(&self) -> DType {
        self.lazy.dtype()
    }
    /// The number of axes.
    pub fn ndim(&self) -> usize {
        self.lazy.ndim()
    }
    /// The element count.
    pub fn numel(&self) -> usize {
        self.lazy.numel()
    }

    /// A tensor holding `data` in row-major order; the length must match the shape.
    pub fn from_slice<T: Element>(shape: &[usize], data: &[T]) -> Result<DynTensor> {
        Ok(DynTensor::wrap(Lazy::from_slice(shape, data)?))
    }

    /// `value` (converted to `dtype`) everywhere; no memory until realized, and free to fuse.
    /// A shape whose element count or byte size overflows is [`Error::SizeOverflow`](tg_runtime::Error::SizeOverflow).
    pub fn full(shape: &[usize], value: impl Into<Scalar>, dtype: DType) -> Result<DynTensor> {
        Ok(DynTensor::wrap(Lazy::constant(value, dtype, shape)?))
    }

    /// Zeros of `shape` (see [`DynTensor::full`]).
    pub fn zeros(shape: &[usize], dtype: DType) -> Result<DynTensor> {
        DynTensor::full(shape, 0, dtype)
    }

    /// Ones of `shape` (see [`DynTensor::full`]).
    pub fn ones(shape: &[usize], dtype: DType) -> Result<DynTensor> {
        DynTensor::full(shape, 1, dtype)
    }

    /// A constant of this tensor's shape and dtype.
    pub fn const_like(&self, value: impl Into<Scalar>) -> DynTensor {
        DynTensor::wrap(self.lazy.constant_like(value, self.dtype()))
    }

    /// Computes the tensor into device memory.
    pub fn realize(&self) -> Result<&DynTensor> {
        self.lazy.realize()?;
        Ok(self)
    }

    /// The values in row-major order, converted to `T` with tg's cast rules.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        self.lazy.to_vec::<T>()
    }

    /// Converts to `dtype` (ints wrap, floats saturate into ints, NaN -> 0, f16 rounds to
    /// nearest even).
    pub fn cast(&self, dtype: DType) -> DynTensor {
        DynTensor::wrap(self.lazy.cast(dtype))
    }

    /// Reinterprets each element's bits as `dtype` (same size).
    pub fn bitcast(&self, dtype: DType) -> Result<DynTensor> {
        Ok(DynTensor::wrap(self.lazy.bitcast(dtype)?))
    }

    /// The same values, computed into a buffer of their own when realized (a fusion boundary).
    pub fn contiguous(&self) -> DynTensor {
        DynTensor::wrap(self.lazy.contiguous())
    }

    pub(crate) fn wrap(lazy: Lazy) -> DynTensor {
        DynTensor { lazy, grad: None }
    }
}

impl std::fmt::Debug for DynTensor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::typed::display::debug_dyn(self, f)
    }
}
