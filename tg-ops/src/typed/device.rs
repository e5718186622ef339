//! Typed forms of the device calls (`untyped/device.rs`): moving a tensor keeps its type.

use std::sync::Arc;

use tg_runtime::Result;
use tg_runtime::device::{Buffer, Device};

use crate::dtype::Dtype;
use crate::shape::{Shape, StaticShape};
use crate::tensor::Tensor;
use crate::untyped::DynTensor;

impl<S: Shape, T: Dtype> Tensor<S, T> {
    /// The device the tensor is computed on (see `DynTensor::device`).
    pub fn device(&self) -> Result<Device> {
        self.as_dyn().device()
    }

    /// The tensor on `device` (see `DynTensor::to`).
    ///
    /// ```
    /// use tg_ops::prelude::*;
    /// use tg_runtime::device::Device;
    /// let other = Device::open("0")?;
    /// let a = Tensor::<Rank1<3>>::from_slice(&[1.0, 2.0, 3.0])?;
    /// let b = a.to(&other)?;
    /// assert_eq!((&b * 2.0).to_vec()?, vec![2.0f32, 4.0, 6.0]);
    /// # Ok::<(), tg_runtime::Error>(())
    /// ```
    pub fn to(&self, device: &Device) -> Result<Self> {
        Ok(self.with_raw(self.as_dyn().to(device)?))
    }

    /// The device buffer holding the values (see `DynTensor::device_buffer`).
    pub fn device_buffer(&self) -> Result<Arc<Buffer>> {
        self.as_dyn().device_buffer()
    }

    /// A tensor of `shape` over a device buffer, no copy (see
    /// `DynTensor::from_device_buffer`).
    pub fn from_device_buffer_shape(shape: S, buffer: Arc<Buffer>) -> Result<Self> {
        let raw = DynTensor::from_device_buffer(buffer, &shape.dims(), T::DTYPE)?;
        Ok(Tensor::from_parts(raw, shape))
    }

    /// A tensor of the static shape `S` over a device buffer, no copy.
    pub fn from_device_buffer(buffer: Arc<Buffer>) -> Result<Self>
    where
        S: StaticShape,
    {
        Self::from_device_buffer_shape(S::default(), buffer)
    }
}

impl<S: Shape, T: Dtype> Tensor<S, T> {
    fn with_raw(&self, raw: DynTensor) -> Self {
        Tensor::from_parts(raw, self.shape())
    }
}
