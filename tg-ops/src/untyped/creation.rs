//! Tensors made from a value or from another tensor's shape. Constants take no memory until
//! realized and fold into the kernels that read them (`zeros`, `ones`, `full` themselves are
//! in `untyped/mod.rs`).

use super::DynTensor;
use tg_runtime::{DType, Element, Result, Scalar};

impl DynTensor {
    /// Zeros of this tensor's shape and dtype.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_slice(&[2], &[3i32, 4]).unwrap();
    /// assert_eq!(t.zeros_like().to_vec::<i32>().unwrap(), vec![0, 0]);
    /// ```
    pub fn zeros_like(&self) -> DynTensor {
        self.const_like(0)
    }

    /// Ones of this tensor's shape and dtype (`true` for bool).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[2], DType::Bool).unwrap();
    /// assert_eq!(t.ones_like().to_vec::<bool>().unwrap(), vec![true, true]);
    /// ```
    pub fn ones_like(&self) -> DynTensor {
        self.const_like(1)
    }

    /// `value`, converted to this tensor's dtype with tg's cast rules, in this tensor's shape.
    /// For another dtype, use `DynTensor::full(t.shape(), value, dtype).unwrap()`.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::zeros(&[3], DType::U8).unwrap();
    /// assert_eq!(t.full_like(300).to_vec::<u8>().unwrap(), vec![44, 44, 44]);
    /// ```
    pub fn full_like(&self, value: impl Into<Scalar>) -> DynTensor {
        self.const_like(value)
    }

    /// A tensor whose contents the caller promises to overwrite. tinygrad leaves the memory
    /// uninitialised; a lazy graph cannot, so tg's are zeros, which cost nothing until used.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::empty(&[2, 2], DType::F32).unwrap();
    /// assert_eq!(t.shape(), &[2, 2]);
    /// ```
    pub fn empty(shape: &[usize], dtype: DType) -> Result<DynTensor> {
        DynTensor::zeros(shape, dtype)
    }

    /// `empty` of this tensor's shape and dtype.
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::ones(&[3], DType::F16).unwrap().empty_like();
    /// assert_eq!((t.shape(), t.dtype()), (&[3usize][..], DType::F16));
    /// ```
    pub fn empty_like(&self) -> DynTensor {
        self.zeros_like()
    }

    /// A tensor holding `data` in row-major order, taking the vector (the length must match).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// let t = DynTensor::from_vec(&[2, 2], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
    /// assert_eq!(t.shape(), &[2, 2]);
    /// assert!(DynTensor::from_vec(&[3], vec![1u8]).is_err());
    /// ```
    pub fn from_vec<T: Element>(shape: &[usize], data: Vec<T>) -> Result<DynTensor> {
        DynTensor::from_slice(shape, &data)
    }
}
