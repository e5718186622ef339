//! Adopting an application's Vulkan device and buffers: tg runs on the device the application
//! already has, shares its queue under one lock, and reads and writes its buffers in place.
//! tg never destroys what it did not create.

use std::sync::Arc;

use ash::vk;

use super::logical::{self, LogicalDevice};
use super::select::DeviceCandidate;
use super::{Buffer, Core, Device, lock};
use crate::{Error, Result};

/// The optional features tg uses, as enabled on a device. tg enables each one a device has
/// when it opens the device itself; an application states what it enabled on its own device
/// ([`RawDevice`]), since Vulkan cannot be asked. Codegen uses only what is enabled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EnabledFeatures {
    /// `shaderFloat16` (Vulkan 1.2): f16 arithmetic.
    pub shader_float16: bool,
    /// `shaderInt8` (Vulkan 1.2): i8 and u8 arithmetic.
    pub shader_int8: bool,
    /// `shaderInt16`: i16 and u16 arithmetic.
    pub shader_int16: bool,
    /// `shaderInt64`: i64 and u64.
    pub shader_int64: bool,
    /// `shaderFloat64`: f64.
    pub shader_float64: bool,
    /// `storageBuffer16BitAccess` (Vulkan 1.1): 16-bit tensors in buffers.
    pub storage_buffer_16bit: bool,
    /// `storageBuffer8BitAccess` (Vulkan 1.2): 8-bit tensors in buffers.
    pub storage_buffer_8bit: bool,
    /// `bufferDeviceAddress` (Vulkan 1.2): tensors larger than one binding's range.
    pub buffer_device_address: bool,
    /// `timelineSemaphore` (Vulkan 1.2): timeline semaphores in [`super::SemaphoreSync`].
    pub timeline_semaphore: bool,
}

/// An application's Vulkan device, for [`Device::from_raw`]. The instance and device must be
/// Vulkan 1.2 or later; the queue must support compute.
pub struct RawDevice {
    /// The application's instance.
    pub instance: ash::Instance,
    /// The physical device the device was made from.
    pub physical_device: vk::PhysicalDevice,
    /// The application's logical device.
    pub device: ash::Device,
    /// The queue family of `queue`.
    pub queue_family: u32,
    /// The queue tg submits to (it may be one the application uses too: see
    /// [`Device::with_queue`]).
    pub queue: vk::Queue,
    /// The features the application enabled on `device`.
    pub features: EnabledFeatures,
}

impl Device {
    /// Runs tg on an application's device: tg makes its memory pool, pipelines and command
    /// buffers on it and submits to the given queue, and destroys only those.
    ///
    /// # Safety
    /// The handles are valid and stay so until this device is closed: [`Device::close`]
    /// succeeded, or every handle and every tensor of it was dropped. Vulkan queues are
    /// externally synchronized: the application submits to the queue only inside
    /// [`Device::with_queue`] (or uses another queue). `features` lists no feature that is
    /// not enabled on the device. Validation messages go to the application's own debug
    /// messenger; tg's `TG_VALIDATION` applies to devices tg opens.
    pub unsafe fn from_raw(raw: RawDevice) -> Result<Device> {
        let inst = &raw.instance;
        let pd = raw.physical_device;
        // SAFETY: queries on the application's live instance and physical device.
        let (props, families, index) = unsafe {
            let props = inst.get_physical_device_properties(pd);
            let families = inst.get_physical_device_queue_family_properties(pd);
            let index = inst
                .enumerate_physical_devices()
                .map_err(|e| Error::vk("vkEnumeratePhysicalDevices", e))?
                .iter()
                .position(|&p| p == pd)
                .unwrap_or(usize::MAX);
            (props, families, index)
        };
        let compute = families
            .get(raw.queue_family as usize)
            .is_some_and(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE));
        let candidate = DeviceCandidate::from_props(index, &props, compute);
        if !candidate.compute {
            return Err(Error::Unsupported {
                what: format!("tg on queue family {}", raw.queue_family),
                feature: "a compute queue",
                device: candidate.name,
            });
        }
        if !candidate.usable() {
            return Err(Error::Unsupported {
                what: "tg".into(),
                feature: "Vulkan 1.2",
                device: candidate.name,
            });
        }
        let device = LogicalDevice {
            raw: raw.device.clone(),
            owned: false,
        };
        let opened = logical::describe(
            inst,
            pd,
            &candidate,
            &raw.features,
            false,
            device,
            raw.queue,
            raw.queue_family,
        );
        Ok(Device::adopt(Core::new(inst, pd, opened, None)?))
    }

    /// Runs `f` with tg's queue, holding the lock tg submits under: where the application
    /// shares its queue with tg, it submits through this.
    pub fn with_queue<R>(&self, f: impl FnOnce(vk::Queue) -> R) -> R {
        let queue = lock(&self.core().queue);
        f(*queue)
    }

    /// The Vulkan device tg runs on (for interop: making semaphores, reading buffers tg
    /// hands out). tg keeps it alive while this handle lives.
    pub fn raw_device(&self) -> &ash::Device {
        &self.core().device.raw
    }

    /// The queue family tg submits to.
    pub fn queue_family(&self) -> u32 {
        self.core().queue_family
    }

    /// An application's buffer as a tg buffer, no copy: `size` bytes at `offset` of `raw`,
    /// for [`crate::Lazy::from_buffer`] (then a tensor over the application's data, which
    /// kernels read and may write in place) or as a kernel's binding.
    ///
    /// # Safety
    /// `raw` is a buffer of this device, created with `STORAGE_BUFFER`, `TRANSFER_SRC` and
    /// `TRANSFER_DST` usage and bound to memory, and stays valid while the returned buffer
    /// (and any tensor over it) lives and tg's work on it is pending. `offset + size` lies
    /// within it. Kernels read and write whole vectors of four elements: a tensor over it
    /// needs its element count rounded up to a multiple of four within `size` (the padding
    /// may be written by an in-place assign). The application orders its own use of the
    /// memory against tg's with semaphores ([`Device::submit_synced`]) or waits
    /// ([`Device::synchronize`]).
    pub unsafe fn import_buffer(
        &self,
        raw: vk::Buffer,
        offset: u64,
        size: u64,
    ) -> Result<Arc<Buffer>> {
        let info = self.info();
        let bad = |message: String| Error::Argument {
            op: "Device::import_buffer",
            message,
        };
        if raw == vk::Buffer::null() {
            return Err(bad("a null buffer".into()));
        }
        if !offset.is_multiple_of(info.window_alignment) {
            return Err(bad(format!(
                "offset {offset} is not a multiple of the device's alignment {}",
                info.window_alignment
            )));
        }
        if size == 0 || !size.is_multiple_of(16) {
            return Err(bad(format!(
                "{size} bytes: a buffer tg binds holds whole 16-byte vectors, at least one"
            )));
        }
        if size > info.max_storage_buffer_range {
            return Err(Error::BufferTooLarge {
                bytes: size,
                max: info.max_storage_buffer_range,
            });
        }
        Ok(self.core().memory.import(self.core(), raw, offset, size))
    }
}
