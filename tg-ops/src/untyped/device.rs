//! Devices of tensors: where a tensor lives, moving it to another device, and the device
//! buffers an application shares with tg (no copy either way).

use std::sync::Arc;

use tg_runtime::device::{Buffer, Device};
use tg_runtime::{DType, Lazy, Result};

use super::DynTensor;

impl DynTensor {
    /// The device the tensor is computed on: its own, or for a constant the current one
    /// (the thread's `Device::scope`, else the default).
    pub fn device(&self) -> Result<Device> {
        self.lazy.device()
    }

    /// The tensor on `device`: host data not yet uploaded is placed there, a constant is
    /// computed there, and a value of another device is copied through the host. An op
    /// mixing tensors of two devices is `Error::DeviceMismatch`; this is how to move one.
    pub fn to(&self, device: &Device) -> Result<DynTensor> {
        Ok(DynTensor::wrap(self.lazy.to(device)?))
    }

    /// The device buffer holding the values (realized first), for an application's own
    /// pipelines: row-major, little-endian, at the buffer's offset (see `Lazy::buffer`).
    pub fn device_buffer(&self) -> Result<Arc<Buffer>> {
        self.lazy.buffer()
    }

    /// A tensor over a device buffer, no copy: one of tg's, a window, or an application's
    /// (`Device::import_buffer`). The buffer holds `shape`'s elements of `dtype` row-major,
    /// rounded up to whole vectors of four; kernels read it in place.
    pub fn from_device_buffer(
        buffer: Arc<Buffer>,
        shape: &[usize],
        dtype: DType,
    ) -> Result<DynTensor> {
        Ok(DynTensor::wrap(Lazy::from_buffer(buffer, dtype, shape)?))
    }
}
