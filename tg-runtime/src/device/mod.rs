//! Vulkan devices: the process-wide default, created on first use, and others opened or
//! adopted from an application; each owns its memory, pipelines and queue.
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
mod raw;
mod registry;
mod select;
mod sync;
mod transfer;
mod validation;

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use ash::vk;

pub use execute::{Binding, Dispatch, ExecReport};
pub use info::{DeviceInfo, DeviceType, KernelClass};
pub use instance::list_devices;
pub use memory::{Buffer, MemoryStats};
pub use pipeline::{KernelLayout, Pipeline};
pub use raw::{EnabledFeatures, RawDevice};
pub use registry::{DeviceId, current_device};
pub(crate) use registry::{label as registry_label, lookup, scoped as registry_scoped};
pub use select::{DeviceCandidate, choose_device};
pub use sync::{Semaphore, SemaphoreSync};
pub use validation::{take_validation_messages, validation_messenger_info};

use crate::{Error, Result, config};
use frame::Frame;
use logical::LogicalDevice;
use memory::Memory;

/// A Vulkan device tg runs on: a cheap handle, shared by threads and cloned freely.
///
/// [`Device::get`] is the process-wide default that tensors use unless told otherwise;
/// [`Device::open`] opens another (another GPU, or a second logical device of the same one),
/// and [`Device::from_raw`] adopts a device an application made. Each device has its own
/// pipelines, buffer pool and kernel caches; a tensor knows its device, and an op mixing
/// tensors of two devices is [`Error::DeviceMismatch`].
///
/// A device stays open while a handle to it lives: when the last handle drops, tg waits for
/// the device's work and releases its caches, and the Vulkan objects go once the last buffer
/// of it (a realized tensor) drops too. [`Device::close`] does the same and says whether
/// something still holds the device.
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
#[derive(Clone)]
pub struct Device {
    handle: Arc<Handle>,
}

/// What the handles of one device share. Its drop is the device's close: the work finishes
/// and the per-device caches go, which releases their buffers.
struct Handle {
    core: Arc<Core>,
}

impl Drop for Handle {
    fn drop(&mut self) {
        self.core.release_local();
        // a drop cannot fail; a device lost here shows at the next call on it, if any
        let _ = self.core.synchronize_impl();
        validation::defer();
    }
}

/// The device itself: Vulkan objects, memory, pipelines, the queue. Buffers hold it (their
/// memory returns to its pool), so it outlives every handle while realized tensors live.
pub(crate) struct Core {
    // Field order is drop order (after `Drop::drop` destroyed what tg made from the device):
    // each part goes before what it was made from.
    id: DeviceId,
    info: DeviceInfo,
    frames: Mutex<Vec<Frame>>,
    /// Submissions not yet known to be complete, oldest first.
    in_flight: Mutex<std::collections::VecDeque<execute::InFlight>>,
    /// Ids of submissions: the last one made, and the highest known complete (submissions
    /// complete in order on tg's one queue).
    submitted: AtomicU64,
    completed: AtomicU64,
    /// Every pipeline made on this device; destroyed with it.
    pipelines: Mutex<HashMap<u64, Arc<Pipeline>>>,
    /// Pipelines dropped from `pipelines` (the layer objected to them), or built twice by
    /// racing threads: destroyed with the device, since a handle may still hold them.
    retired: Mutex<Vec<Arc<Pipeline>>>,
    pipeline_cache: vk::PipelineCache,
    pipeline_cache_path: Option<PathBuf>,
    pipeline_cache_dirty: AtomicBool,
    /// State of the layers above, per device ([`Device::local`]).
    local: Mutex<HashMap<(TypeId, usize), Arc<dyn Any + Send + Sync>>>,
    memory: Memory,
    queue: Mutex<vk::Queue>,
    queue_family: u32,
    timestamp_period: f64,
    timestamp_mask: u64,
    device: LogicalDevice,
    /// The instance, when tg created it (an adopted device's belongs to the application).
    _instance: Option<instance::Instance>,
}

static DEVICE: OnceLock<Result<Device>> = OnceLock::new();

/// Locks a mutex, ignoring poisoning: every critical section here leaves its data consistent
/// even when a panic unwinds through it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Device {
    /// The process-wide default device, created on first use from `TG_DEVICE` and
    /// `TG_VALIDATION`. If creation failed, every call returns the same error.
    pub fn get() -> Result<&'static Device> {
        match DEVICE.get_or_init(|| {
            let wanted = config::text(config::Var::Device);
            Core::open(wanted.as_deref()).map(Device::adopt)
        }) {
            Ok(device) => device.checked(Ok(device)),
            Err(e) => Err(e.clone()),
        }
    }

    /// The default device if it was created (no start-up).
    pub(crate) fn default_if_open() -> Option<&'static Device> {
        DEVICE.get().and_then(|d| d.as_ref().ok())
    }

    /// Opens a device of its own, chosen by `selector` as `TG_DEVICE` chooses (an index into
    /// [`list_devices`] or part of a name), with validation when `TG_VALIDATION` asks. Opening
    /// the device the default uses gives a second logical device of it: separate memory,
    /// pipelines and queue.
    pub fn open(selector: &str) -> Result<Device> {
        let device = Device::adopt(Core::open(Some(selector))?);
        device.checked(Ok(device.clone()))
    }

    /// Wraps a new core in the first handle and registers it.
    fn adopt(core: Core) -> Device {
        let device = Device {
            handle: Arc::new(Handle {
                core: Arc::new(core),
            }),
        };
        registry::register(&device);
        device
    }

    pub(crate) fn core(&self) -> &Arc<Core> {
        &self.handle.core
    }

    /// Identifies the device in this process (never reused).
    pub fn id(&self) -> DeviceId {
        self.handle.core.id
    }

    /// Turns validation messages raised during a call into that call's error.
    fn checked<T>(&self, result: Result<T>) -> Result<T> {
        self.core().checked(result)
    }

    /// What the device is and which optional features tg enabled on it.
    pub fn info(&self) -> &DeviceInfo {
        &self.core().info
    }

    /// A buffer of at least `bytes` bytes (0 allowed), from the pool when possible. Its real
    /// size is rounded up to a size class (a multiple of 32 bytes at least), which kernels may
    /// write past the logical end. More than `max_storage_buffer_range` bytes is
    /// [`crate::Error::BufferTooLarge`] where the device has no buffer device addresses.
    pub fn alloc(&self, bytes: u64) -> Result<Arc<Buffer>> {
        self.checked(self.core().memory.alloc(self.core(), bytes))
    }

    /// Copies `data` into `buf` at byte `offset`.
    pub fn write(&self, buf: &Buffer, offset: u64, data: &[u8]) -> Result<()> {
        self.checked(
            self.owns(buf, "Device::write")
                .and_then(|()| self.core().write_impl(buf, offset, data)),
        )
    }

    /// Copies from `buf` at byte `offset` into `out`.
    pub fn read(&self, buf: &Buffer, offset: u64, out: &mut [u8]) -> Result<()> {
        self.checked(
            self.owns(buf, "Device::read")
                .and_then(|()| self.core().read_impl(buf, offset, out)),
        )
    }

    /// `buf` belongs to this device, or the error naming both.
    fn owns(&self, buf: &Buffer, op: &'static str) -> Result<()> {
        registry::same(op, self.id(), buf.device_id())
    }

    /// The compute pipeline for `spirv`, cached under `key` (a hash of the shader source, e.g.
    /// [`crate::compile::stable_hash`]). The shader must declare exactly what `layout` says.
    pub fn pipeline(&self, key: u64, spirv: &[u32], layout: KernelLayout) -> Result<Arc<Pipeline>> {
        let core = self.core();
        let result = self.checked(core.pipeline_impl(key, spirv, layout));
        if let Err(Error::Validation { .. }) = result {
            // Do not hand out, from the cache, a pipeline the layer objected to.
            if let Some(p) = lock(&core.pipelines).remove(&key) {
                lock(&core.retired).push(p);
            }
        }
        result
    }

    /// Runs `dispatches` in order in one command buffer, one submit, one fence wait, with
    /// buffer barriers only where one dispatch depends on another's writes. With `timing`,
    /// also measures each dispatch on the GPU.
    pub fn execute(&self, dispatches: &[Dispatch], timing: bool) -> Result<ExecReport> {
        self.checked(self.core().execute_impl(dispatches, timing))
    }

    /// Records `dispatches` as [`Device::execute`] does and submits them without waiting;
    /// returns the submission's id (0 when there was nothing to run). The dispatches' buffers
    /// and pipelines stay alive until it completes. Work runs in submission order, each
    /// submission after the ones before; the host waits only where it touches memory a
    /// pending submission uses ([`Device::read`], [`Device::write`]) or asks to
    /// ([`Device::wait`], [`Device::synchronize`]).
    pub fn submit(&self, dispatches: Vec<Dispatch>) -> Result<u64> {
        self.checked(
            self.core()
                .submit_impl(dispatches, &SemaphoreSync::default()),
        )
    }

    /// [`Device::submit`] that first waits, on the device, for the application's semaphores
    /// in `sync.wait` and signals those in `sync.signal` once the dispatches are done (with
    /// no dispatches, it still waits and signals, in order with tg's other work). The host
    /// never waits for the device here.
    pub fn submit_synced(&self, dispatches: Vec<Dispatch>, sync: &SemaphoreSync) -> Result<u64> {
        self.checked(self.core().submit_impl(dispatches, sync))
    }

    /// Waits until submission `id` (and every one before it) has completed.
    pub fn wait(&self, id: u64) -> Result<()> {
        self.checked(self.core().wait_impl(id))
    }

    /// Waits until everything submitted so far has completed.
    pub fn synchronize(&self) -> Result<()> {
        self.checked(self.core().synchronize_impl())
    }

    /// Writes the pipeline cache to disk if pipelines were created since the last save. A
    /// disabled or uncreatable cache folder is not an error.
    pub fn save_pipeline_cache(&self) -> Result<()> {
        self.checked(self.core().save_pipeline_cache_impl())
    }

    /// Bytes tg's buffers may still take before the budget (the heap, or `TG_MEMORY_LIMIT`)
    /// is full, as of now (without waiting for submissions).
    pub(crate) fn unused_budget(&self) -> u64 {
        let memory = &self.core().memory;
        memory.budget.saturating_sub(memory.stats().live_bytes)
    }

    /// Bytes and buffers live and pooled, and real allocations so far (after releasing what
    /// completed submissions held).
    pub fn memory_stats(&self) -> MemoryStats {
        // a failure here resurfaces at the next call that waits
        let _ = self.core().retire_finished();
        self.core().memory.stats()
    }

    /// Hands the memory that the pool keeps for reuse back to the driver. The pool serves
    /// realizes that free and allocate buffers of the same sizes over and over; a program
    /// that has recorded its steps allocates nothing more (a replay writes its recording's
    /// arena), so what the recording run freed would otherwise stay held. Buffers still in
    /// use are not touched.
    pub fn trim(&self) {
        // a failure here resurfaces at the next call that waits
        let _ = self.core().retire_finished();
        self.core().memory.free_pool();
    }

    /// State that a layer above keeps per device (compiled kernels, `#[kernel]` recordings),
    /// one `T` per `key`, made on first use. It goes when the device closes, so what it holds
    /// (buffers, pipelines) goes with the device rather than outliving it in a static.
    pub fn local<T: Default + Send + Sync + 'static>(&self, key: usize) -> Arc<T> {
        let mut local = lock(&self.core().local);
        let entry = local
            .entry((TypeId::of::<T>(), key))
            .or_insert_with(|| Arc::new(T::default()));
        Arc::clone(entry)
            .downcast::<T>()
            .expect("the entry of T's TypeId holds a T")
    }

    /// Makes this the device that work of this thread goes to while `f` runs, unless a
    /// tensor says otherwise: host data made inside (`from_slice`) is placed here, and
    /// constants realized alone run here. Scopes nest.
    pub fn scope<R>(&self, f: impl FnOnce() -> R) -> R {
        registry::scope(self.id(), f)
    }

    /// Closes this handle: waits for the device's work and drops its caches (the kernels
    /// and recordings tg keeps for it), as dropping the last handle does. Fails with
    /// [`Error::DeviceInUse`] when other handles or realized tensors (their buffers) still
    /// hold the device; it then stays open for them. An application that gave tg its device
    /// ([`Device::from_raw`]) destroys it only after this succeeds.
    pub fn close(self) -> Result<()> {
        let core = Arc::clone(self.core());
        let others = Arc::strong_count(&self.handle) - 1;
        let name = core.info.name.clone();
        drop(self);
        core.checked(Ok(()))?;
        // the handle's drop released the caches if it was the last; count what is left
        let holders = Arc::strong_count(&core) - 1;
        if others > 0 || holders > 0 {
            return Err(Error::DeviceInUse {
                device: name,
                handles: others,
                buffers: holders,
            });
        }
        let validated = core.info.validation;
        // the last reference: the device goes now, and what the layer says of it is ours
        drop(core);
        if validated {
            validation::check()?;
        }
        Ok(())
    }
}

impl Core {
    fn open(wanted: Option<&str>) -> Result<Core> {
        let validate = validation::requested();
        let instance = instance::Instance::new(validate)?;
        let candidates = instance.candidates()?;
        let list: Vec<DeviceCandidate> = candidates.iter().map(|(_, c)| c.clone()).collect();
        let index = choose_device(&list, wanted)?;
        let (physical, candidate) = &candidates[index];
        let opened = logical::open(&instance, *physical, candidate, validate)?;
        let raw = instance.raw.clone();
        Core::new(&raw, *physical, opened, Some(instance))
    }

    /// The core over an opened device: memory, the pipeline cache, the rest empty.
    fn new(
        instance: &ash::Instance,
        physical: vk::PhysicalDevice,
        opened: logical::Opened,
        owned_instance: Option<instance::Instance>,
    ) -> Result<Core> {
        let mut info = opened.info;
        let staging = config::switch(config::Var::Staging);
        let device_type = info.device_type;
        let memory = Memory::new(
            instance,
            &opened.device.raw,
            physical,
            |props, allowed| placement::choose(props, allowed, device_type, staging),
            memory_limit(config::text(config::Var::MemoryLimit).as_deref())?,
            info.buffer_device_address,
        )?;
        info.class_override =
            info::class_override(config::text(config::Var::DeviceClass).as_deref())?;
        info.storage_reads = config::switch(config::Var::StorageReads);
        info.host_visible_device_memory =
            matches!(memory.placement, placement::Placement::Mapped { .. });
        info.memory_budget = memory.budget;
        // SAFETY: a query on a live physical device.
        let props = unsafe { instance.get_physical_device_properties(physical) };
        let cache_path = pipeline_cache::path(crate::compile::ShaderCache::global().dir(), &props);
        let pipeline_cache = pipeline_cache::load(&opened.device.raw, cache_path.as_deref())?;
        Ok(Core {
            id: registry::next_id(),
            info,
            frames: Mutex::new(Vec::new()),
            in_flight: Mutex::new(std::collections::VecDeque::new()),
            submitted: AtomicU64::new(0),
            completed: AtomicU64::new(0),
            pipelines: Mutex::new(HashMap::new()),
            retired: Mutex::new(Vec::new()),
            pipeline_cache,
            pipeline_cache_path: cache_path,
            pipeline_cache_dirty: AtomicBool::new(false),
            local: Mutex::new(HashMap::new()),
            memory,
            queue: Mutex::new(opened.queue),
            queue_family: opened.queue_family,
            timestamp_period: opened.timestamp_period,
            timestamp_mask: opened.timestamp_mask,
            device: opened.device,
            _instance: owned_instance,
        })
    }

    pub(crate) fn id(&self) -> DeviceId {
        self.id
    }

    pub(crate) fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Turns validation messages raised during a call into that call's error.
    pub(crate) fn checked<T>(&self, result: Result<T>) -> Result<T> {
        if !self.info.validation {
            return result;
        }
        validation::check()?;
        result
    }

    pub(crate) fn synchronize_impl(&self) -> Result<()> {
        self.wait_impl(self.submitted.load(Ordering::Acquire))
    }

    /// Drops the per-device state of the layers above.
    fn release_local(&self) {
        let local = std::mem::take(&mut *lock(&self.local));
        drop(local);
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        // Every buffer is gone (each held the core), so only in-flight work can still use
        // what is destroyed below: wait for it first.
        let _ = self.synchronize_impl();
        let _ = self.save_pipeline_cache_impl();
        self.release_local();
        let d = &self.device.raw;
        let pipelines: Vec<Arc<Pipeline>> = lock(&self.pipelines)
            .drain()
            .map(|(_, p)| p)
            .chain(lock(&self.retired).drain(..))
            .collect();
        for p in pipelines {
            p.destroy(d);
        }
        for f in lock(&self.frames).drain(..) {
            f.destroy(d);
        }
        self.memory.free_pool();
        // SAFETY: no pipeline made with the cache remains.
        unsafe { d.destroy_pipeline_cache(self.pipeline_cache, None) };
        validation::defer();
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
        write!(f, "Device({} #{})", self.info(), self.id().0)
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
