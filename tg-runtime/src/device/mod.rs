//! The Vulkan device: a lazily created, process-wide singleton that owns memory, pipelines and
//! the queue.
//!
//! Read once, when the device is created:
//! - `TG_DEVICE`: an index into `vkEnumeratePhysicalDevices` or part of a device name
//!   (see [`choose_device`]);
//! - `TG_VALIDATION=1`: the Khronos validation layer with synchronization validation. Every
//!   public method then fails with [`crate::Error::Validation`] when the layer reported
//!   anything during the call, so tests fail at the call that misused Vulkan;
//! - `TG_STAGING=1`: device-local buffers reached through staging copies even where memory
//!   is host-visible, to exercise the discrete-GPU path on lavapipe.

mod barriers;
mod execute;
mod frame;
mod info;
mod instance;
mod logical;
mod memory;
mod pipeline;
mod pipeline_cache;
mod placement;
mod pool;
mod select;
mod transfer;
mod validation;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use ash::vk;

pub use execute::{Binding, Dispatch, ExecReport};
pub use info::{DeviceInfo, DeviceType};
pub use instance::list_devices;
pub use memory::{Buffer, MemoryStats};
pub use pipeline::{KernelLayout, Pipeline};
pub use select::{DeviceCandidate, choose_device};
pub use validation::take_validation_messages;

use crate::{Error, Result, config};
use frame::Frame;
use logical::LogicalDevice;
use memory::Memory;

/// The Vulkan device tg runs on. Shared by all threads; see [`Device::get`].
///
/// ```
/// use tg_runtime::device::Device;
/// let device = Device::get()?;
/// let buf = device.alloc(8)?;
/// device.write(&buf, 0, &[1, 2, 3, 4, 5, 6, 7, 8])?;
/// let mut back = [0u8; 8];
/// device.read(&buf, 0, &mut back)?;
/// assert_eq!(back, [1, 2, 3, 4, 5, 6, 7, 8]);
/// # Ok::<(), tg_runtime::Error>(())
/// ```
pub struct Device {
    // Field order is drop order; the singleton is never dropped, but a start-up that fails
    // half-way drops its parts, and each must go before what it was made from.
    info: DeviceInfo,
    frames: Mutex<Vec<Frame>>,
    /// Submissions not yet known to be complete, oldest first.
    in_flight: Mutex<std::collections::VecDeque<execute::InFlight>>,
    /// Ids of submissions: the last one made, and the highest known complete (submissions
    /// complete in order on tg's one queue).
    submitted: std::sync::atomic::AtomicU64,
    completed: std::sync::atomic::AtomicU64,
    pipelines: Mutex<HashMap<u64, Arc<Pipeline>>>,
    pipeline_cache: vk::PipelineCache,
    pipeline_cache_path: Option<PathBuf>,
    pipeline_cache_dirty: AtomicBool,
    memory: Memory,
    queue: Mutex<vk::Queue>,
    queue_family: u32,
    timestamp_period: f64,
    timestamp_mask: u64,
    device: LogicalDevice,
    _instance: instance::Instance,
}

static DEVICE: OnceLock<Result<Device>> = OnceLock::new();

/// The singleton, if it was created successfully (for `Drop` impls, which cannot fail).
fn singleton() -> Option<&'static Device> {
    DEVICE.get().and_then(|d| d.as_ref().ok())
}

/// Locks a mutex, ignoring poisoning: every critical section here leaves its data consistent
/// even when a panic unwinds through it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Device {
    /// The process-wide device, created on first use from `TG_DEVICE` and `TG_VALIDATION`.
    /// If creation failed, every call returns the same error.
    pub fn get() -> Result<&'static Device> {
        match DEVICE.get_or_init(Device::create) {
            Ok(device) => device.checked(Ok(device)),
            Err(e) => Err(e.clone()),
        }
    }

    fn create() -> Result<Device> {
        let validate = validation::requested();
        let instance = instance::Instance::new(validate)?;
        let candidates = instance.candidates()?;
        let list: Vec<DeviceCandidate> = candidates.iter().map(|(_, c)| c.clone()).collect();
        let wanted = config::text(config::Var::Device);
        let index = choose_device(&list, wanted.as_deref())?;
        let (physical, candidate) = &candidates[index];
        let opened = logical::open(&instance, *physical, candidate, validate)?;
        let mut info = opened.info;
        let staging = config::switch(config::Var::Staging);
        let device_type = info.device_type;
        let memory = Memory::new(
            &instance.raw,
            &opened.device.raw,
            *physical,
            |props, allowed| placement::choose(props, allowed, device_type, staging),
            memory_limit(config::text(config::Var::MemoryLimit).as_deref())?,
            info.buffer_device_address,
        )?;
        info.host_visible_device_memory =
            matches!(memory.placement, placement::Placement::Mapped { .. });
        info.memory_budget = memory.budget;
        // SAFETY: a query on a live physical device.
        let props = unsafe { instance.raw.get_physical_device_properties(*physical) };
        let cache_path = pipeline_cache::path(crate::compile::ShaderCache::global().dir(), &props);
        let pipeline_cache = pipeline_cache::load(&opened.device.raw, cache_path.as_deref())?;
        Ok(Device {
            info,
            frames: Mutex::new(Vec::new()),
            in_flight: Mutex::new(std::collections::VecDeque::new()),
            submitted: std::sync::atomic::AtomicU64::new(0),
            completed: std::sync::atomic::AtomicU64::new(0),
            pipelines: Mutex::new(HashMap::new()),
            pipeline_cache,
            pipeline_cache_path: cache_path,
            pipeline_cache_dirty: AtomicBool::new(false),
            memory,
            queue: Mutex::new(opened.queue),
            queue_family: opened.queue_family,
            timestamp_period: opened.timestamp_period,
            timestamp_mask: opened.timestamp_mask,
            device: opened.device,
            _instance: instance,
        })
    }

    /// Turns validation messages raised during a call into that call's error.
    fn checked<T>(&self, result: Result<T>) -> Result<T> {
        if !self.info.validation {
            return result;
        }
        validation::check()?;
        result
    }

    /// What the device is and which optional features tg enabled on it.
    pub fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// A buffer of at least `bytes` bytes (0 allowed), from the pool when possible. Its real
    /// size is rounded up to a size class (a multiple of 32 bytes at least), which kernels may
    /// write past the logical end. More than `max_storage_buffer_range` bytes is
    /// [`crate::Error::BufferTooLarge`].
    pub fn alloc(&self, bytes: u64) -> Result<Arc<Buffer>> {
        self.checked(self.memory.alloc(bytes))
    }

    /// Copies `data` into `buf` at byte `offset`.
    pub fn write(&self, buf: &Buffer, offset: u64, data: &[u8]) -> Result<()> {
        self.checked(self.write_impl(buf, offset, data))
    }

    /// Copies from `buf` at byte `offset` into `out`.
    pub fn read(&self, buf: &Buffer, offset: u64, out: &mut [u8]) -> Result<()> {
        self.checked(self.read_impl(buf, offset, out))
    }

    /// The compute pipeline for `spirv`, cached under `key` (a hash of the shader source, e.g.
    /// [`crate::compile::stable_hash`]). The shader must declare exactly what `layout` says.
    pub fn pipeline(&self, key: u64, spirv: &[u32], layout: KernelLayout) -> Result<Arc<Pipeline>> {
        let result = self.checked(self.pipeline_impl(key, spirv, layout));
        if let Err(Error::Validation { .. }) = result {
            // Do not hand out, from the cache, a pipeline the layer objected to.
            lock(&self.pipelines).remove(&key);
        }
        result
    }

    /// Runs `dispatches` in order in one command buffer, one submit, one fence wait, with
    /// buffer barriers only where one dispatch depends on another's writes. With `timing`,
    /// also measures each dispatch on the GPU.
    pub fn execute(&self, dispatches: &[Dispatch], timing: bool) -> Result<ExecReport> {
        self.checked(self.execute_impl(dispatches, timing))
    }

    /// Records `dispatches` as [`Device::execute`] does and submits them without waiting;
    /// returns the submission's id (0 when there was nothing to run). The dispatches' buffers
    /// and pipelines stay alive until it completes. Work runs in submission order, each
    /// submission after the ones before; the host waits only where it touches memory a
    /// pending submission uses ([`Device::read`], [`Device::write`]) or asks to
    /// ([`Device::wait`], [`Device::synchronize`]).
    pub fn submit(&self, dispatches: Vec<Dispatch>) -> Result<u64> {
        self.checked(self.submit_impl(dispatches))
    }

    /// Waits until submission `id` (and every one before it) has completed.
    pub fn wait(&self, id: u64) -> Result<()> {
        self.checked(self.wait_impl(id))
    }

    /// Waits until everything submitted so far has completed.
    pub fn synchronize(&self) -> Result<()> {
        let last = self.submitted.load(std::sync::atomic::Ordering::Acquire);
        self.checked(self.wait_impl(last))
    }

    /// Writes the pipeline cache to disk if pipelines were created since the last save. A
    /// disabled or uncreatable cache folder is not an error.
    pub fn save_pipeline_cache(&self) -> Result<()> {
        self.checked(self.save_pipeline_cache_impl())
    }

    /// Bytes and buffers live and pooled, and real allocations so far (after releasing what
    /// completed submissions held).
    pub fn memory_stats(&self) -> MemoryStats {
        // a failure here resurfaces at the next call that waits
        let _ = self.retire_finished();
        self.memory.stats()
    }
}

// Every field is a handle, a lock or plain data; assert it so a change that breaks sharing
// fails here rather than at a distant use.
const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<Device>();
    shared::<Buffer>();
    shared::<Pipeline>();
};

/// `TG_MEMORY_LIMIT`: bytes, or a number with `K`, `M` or `G` (powers of 1024), that caps the
/// device memory tg's buffers may hold, to share a device with other work.
fn memory_limit(value: Option<&str>) -> Result<Option<u64>> {
    let Some(v) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let (digits, unit) = match v.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => v.split_at(i),
        None => (v, ""),
    };
    let scale: u64 = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches(['B', 'I'])
    {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        _ => 0,
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .filter(|&n| n > 0)
        .map(Some)
        .ok_or_else(|| Error::Argument {
            op: "TG_MEMORY_LIMIT",
            message: format!("{v:?} is not a size such as 512M or 4G"),
        })
}

impl std::fmt::Debug for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Device({})", self.info)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn memory_limits_parse() {
        use super::memory_limit;
        assert_eq!(memory_limit(None).unwrap(), None);
        assert_eq!(memory_limit(Some("")).unwrap(), None);
        assert_eq!(memory_limit(Some("4096")).unwrap(), Some(4096));
        assert_eq!(memory_limit(Some("64M")).unwrap(), Some(64 << 20));
        assert_eq!(memory_limit(Some("2GiB")).unwrap(), Some(2 << 30));
        assert_eq!(memory_limit(Some("512k")).unwrap(), Some(512 << 10));
        for bad in ["lots", "12Q", "0", "-5", "99999999999999999999G"] {
            assert!(memory_limit(Some(bad)).is_err(), "{bad}");
        }
    }
}
