//! Device buffers: gpu-allocator for the memory, a pool for reuse, and host access to mapped
//! memory.

use std::fmt;
use std::mem::ManuallyDrop;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use ash::vk;
use gpu_allocator::vulkan::{
    Allocation, AllocationCreateDesc, AllocationScheme, Allocator, AllocatorCreateDesc,
};
use gpu_allocator::{AllocationError, AllocationSizes, AllocatorDebugSettings, MemoryLocation};

use super::placement::Placement;
use super::pool::{FreeLists, class_size};
use super::registry::DeviceId;
use super::{Core, lock};
use crate::{Error, Result};

const USAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::from_raw(
    vk::BufferUsageFlags::STORAGE_BUFFER.as_raw()
        | vk::BufferUsageFlags::TRANSFER_SRC.as_raw()
        | vk::BufferUsageFlags::TRANSFER_DST.as_raw()
        | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER.as_raw(),
);
/// The format of a buffer's texel view ([`Buffer::texel_view`]): 16 bytes a texel, which a
/// kernel reinterprets as its dtype.
pub(crate) const TEXEL_FORMAT: vk::Format = vk::Format::R32G32B32A32_UINT;
const MIB: u64 = 1 << 20;
/// The pool keeps at most this much (or half the heap, if less) for reuse.
const POOL_CAP: u64 = 1 << 30;

/// A device buffer, or a window (a byte range) of one, or an application's `VkBuffer` that tg
/// uses without owning it. A buffer's memory goes back to its device's pool when the last
/// `Arc` drops; a window holds its buffer until it drops. A buffer holds its device, which
/// stays alive (its Vulkan objects) while any of its buffers does.
pub struct Buffer {
    backing: Backing,
    core: Arc<Core>,
    /// Where the buffer starts in its `VkBuffer`, in bytes (0 but for windows).
    offset: u64,
    size: u64,
    id: u64,
    /// The last submission that wrote the buffer, and the last that used it at all (0:
    /// none): realizes return once submitted, so the host waits for these before it reads or
    /// writes the memory.
    last_write: AtomicU64,
    last_use: AtomicU64,
    /// The buffer's texel view, made the first time a kernel reads it as a uniform texel
    /// buffer (null until then); destroyed with the buffer.
    texel: Mutex<vk::BufferView>,
}

enum Backing {
    /// A `VkBuffer` of tg's own.
    Owned(ManuallyDrop<Slot>),
    /// A range of another buffer (never itself a window).
    Window(Arc<Buffer>),
    /// An application's `VkBuffer`: `capacity` bytes from the buffer's offset are tg's to
    /// bind; tg never maps, frees or destroys it.
    External { raw: vk::Buffer, capacity: u64 },
}

/// A `VkBuffer` with its memory, as the pool keeps it.
pub(crate) struct Slot {
    pub(crate) raw: vk::Buffer,
    /// The buffer's device address, where the device has buffer device addresses (else 0).
    pub(crate) address: u64,
    pub(crate) allocation: Allocation,
    /// Real size in bytes (the size class).
    pub(crate) capacity: u64,
}

impl Buffer {
    /// Bytes asked for (the real buffer may be larger).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Unique in this process; never reused.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The device the buffer belongs to.
    pub fn device_id(&self) -> DeviceId {
        self.core.id()
    }

    pub(crate) fn core(&self) -> &Arc<Core> {
        &self.core
    }

    /// The buffer that owns the memory: itself, or a window's buffer.
    fn root(&self) -> &Buffer {
        match &self.backing {
            Backing::Owned(_) | Backing::External { .. } => self,
            Backing::Window(parent) => parent,
        }
    }

    /// The `VkBuffer`, shared by a buffer and its windows; with [`Buffer::offset`] and
    /// [`Buffer::size`], the range an application's own pipelines may bind (interop). Use it
    /// only while the buffer lives, after tg's work on it completed or ordered by a semaphore
    /// ([`crate::device::Device::submit_synced`]).
    pub fn raw(&self) -> vk::Buffer {
        match &self.root().backing {
            Backing::Owned(slot) => slot.raw,
            Backing::External { raw, .. } => *raw,
            Backing::Window(_) => unreachable!("a window's parent is a buffer"),
        }
    }

    /// Whether the buffer is an application's (`Device::import_buffer`).
    pub fn is_external(&self) -> bool {
        matches!(self.root().backing, Backing::External { .. })
    }

    /// Where the buffer starts in its `VkBuffer`, in bytes.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Bytes kernels may touch from [`Buffer::offset`]: a buffer's size class, a window's
    /// size.
    pub(crate) fn capacity(&self) -> u64 {
        match &self.backing {
            Backing::Owned(slot) => slot.capacity,
            Backing::External { capacity, .. } => *capacity,
            Backing::Window(_) => self.size,
        }
    }

    /// The buffer as a uniform texel buffer of [`TEXEL_FORMAT`] from [`Buffer::offset`], made
    /// on first use and kept: what a CPU kernel reads its inputs through (lavapipe gathers a
    /// texel fetch, where it loads a storage buffer lane by lane). It spans the buffer's
    /// capacity in whole texels, at most the device's `maxTexelBufferElements` of them; a
    /// window's last partial texel reaches into its parent where the parent holds it.
    pub(crate) fn texel_view(&self) -> Result<vk::BufferView> {
        let mut view = lock(&self.texel);
        if *view != vk::BufferView::null() {
            return Ok(*view);
        }
        let bad = |message: String| Error::internal("Buffer::texel_view", message);
        if self.is_external() {
            return Err(bad(format!(
                "buffer {} is an application's, which tg reads as a storage buffer only",
                self.id
            )));
        }
        let root = self.root();
        let room = root.offset + root.capacity() - self.offset;
        let max = self.core.info.max_texel_buffer_elements * 16;
        let range = (self.capacity().next_multiple_of(16).min(room) / 16 * 16).min(max);
        if range == 0 {
            return Err(bad(format!(
                "buffer {} of {} bytes holds no whole texel (device maximum {} texels)",
                self.id,
                self.capacity(),
                max / 16
            )));
        }
        let info = vk::BufferViewCreateInfo::default()
            .buffer(self.raw())
            .format(TEXEL_FORMAT)
            .offset(self.offset)
            .range(range);
        // SAFETY: the buffer lives (it is `self`) and was made with `UNIFORM_TEXEL_BUFFER`
        // usage (tg's own, not an application's); the range lies within it.
        *view = unsafe { self.core.device.raw.create_buffer_view(&info, None) }
            .map_err(|e| Error::vk("vkCreateBufferView", e))?;
        Ok(*view)
    }

    /// tg's `VkBuffer` and memory, shared by a buffer and its windows (`None` for an
    /// application's buffer, whose memory tg does not know).
    pub(crate) fn slot(&self) -> Option<&Slot> {
        match &self.root().backing {
            Backing::Owned(slot) => Some(slot),
            Backing::External { .. } => None,
            Backing::Window(_) => unreachable!("a window's parent is a buffer"),
        }
    }

    /// Identifies the `VkBuffer` (shared by a buffer and its windows), for hazard tracking.
    pub(crate) fn memory_id(&self) -> u64 {
        self.root().id
    }

    /// The buffer's device address (0 where the device has no buffer device addresses).
    pub fn address(&self) -> u64 {
        match self.slot().map_or(0, |s| s.address) {
            0 => 0,
            a => a + self.offset,
        }
    }

    /// Notes that submission `id` uses the buffer (and writes it, if `writes`); a window's
    /// use counts as its buffer's, as they share memory.
    pub(crate) fn used_by(&self, id: u64, writes: bool) {
        let root = self.root();
        root.last_use.fetch_max(id, Ordering::AcqRel);
        if writes {
            root.last_write.fetch_max(id, Ordering::AcqRel);
        }
    }

    /// The last submission that wrote the buffer's memory (0: none).
    pub(crate) fn last_write(&self) -> u64 {
        self.root().last_write.load(Ordering::Acquire)
    }

    /// The last submission that used the buffer's memory (0: none).
    pub(crate) fn last_use(&self) -> u64 {
        self.root().last_use.load(Ordering::Acquire)
    }

    /// A window of `size` bytes at byte `offset` of this buffer: a buffer that shares this
    /// one's memory (writes through either are seen through both). Kernels bind it at its
    /// offset, so `offset` must be a multiple of `alignment` (at least 16; the device's is
    /// `DeviceInfo::window_alignment`).
    pub fn window(
        self: &Arc<Buffer>,
        offset: u64,
        size: u64,
        alignment: u64,
    ) -> Result<Arc<Buffer>> {
        let bad = |message: String| Error::Argument {
            op: "Buffer::window",
            message,
        };
        if offset.checked_add(size).is_none_or(|end| end > self.size) {
            return Err(bad(format!(
                "{size} bytes at {offset} do not fit in a buffer of {} bytes",
                self.size
            )));
        }
        let alignment = alignment.max(16);
        if !(self.offset + offset).is_multiple_of(alignment) {
            return Err(bad(format!(
                "offset {offset} is not a multiple of the device's window alignment {alignment}"
            )));
        }
        let parent = match &self.backing {
            Backing::Owned(_) | Backing::External { .. } => self.clone(),
            Backing::Window(p) => p.clone(),
        };
        Ok(Arc::new(Buffer {
            offset: self.offset + offset,
            core: self.core.clone(),
            backing: Backing::Window(parent),
            size,
            id: WINDOW_IDS.fetch_add(1, Ordering::Relaxed),
            last_write: AtomicU64::new(0),
            last_use: AtomicU64::new(0),
            texel: Mutex::new(vk::BufferView::null()),
        }))
    }
}

/// Ids of windows, counted from the top half so they never meet a buffer's.
static WINDOW_IDS: AtomicU64 = AtomicU64::new(u64::MAX / 2);
/// Ids of buffers, of every device: recordings and hazard tracking tell buffers apart by id.
static BUFFER_IDS: AtomicU64 = AtomicU64::new(1);

impl fmt::Debug for Buffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Buffer")
            .field("id", &self.id)
            .field("size", &self.size)
            .field("offset", &self.offset)
            .field("capacity", &self.capacity())
            .finish()
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        let view = *self.texel.get_mut().unwrap_or_else(|e| e.into_inner());
        if view != vk::BufferView::null() {
            // SAFETY: no submission uses the view: each holds its buffers until it completes.
            unsafe { self.core.device.raw.destroy_buffer_view(view, None) };
        }
        let Backing::Owned(slot) = &mut self.backing else {
            // a window: its parent `Arc` drops with it; an application's buffer is its own
            return;
        };
        // SAFETY: `slot` is not touched again.
        let slot = unsafe { ManuallyDrop::take(slot) };
        self.core.memory.release(slot);
    }
}

/// Pool and allocator figures, for tests and `TG_DEBUG`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryStats {
    /// Bytes (size classes) held by live buffers.
    pub live_bytes: u64,
    /// Bytes the pool keeps for reuse.
    pub pooled_bytes: u64,
    /// Buffers alive.
    pub live_buffers: usize,
    /// Buffers the pool could not serve, so far: each a new `VkBuffer` and its memory.
    /// (Staging buffers of the copy path are not counted.)
    pub allocations: u64,
}

struct PoolState {
    free: FreeLists<Slot>,
    live_bytes: u64,
    live_buffers: usize,
}

pub(crate) struct Memory {
    device: ash::Device,
    allocator: Mutex<Allocator>,
    pool: Mutex<PoolState>,
    pub(crate) placement: Placement,
    /// Bytes tg may hold at once: the heap's size, or less where `TG_MEMORY_LIMIT` says so.
    pub(crate) budget: u64,
    /// `nonCoherentAtomSize`: flush and invalidate granularity of non-coherent memory.
    atom: u64,
    max_range: u64,
    /// Buffers have device addresses, so kernels reach buffers larger than one binding's
    /// range through them.
    addresses: bool,
    allocations: AtomicU64,
}

impl Memory {
    pub(crate) fn new(
        instance: &ash::Instance,
        device: &ash::Device,
        physical: vk::PhysicalDevice,
        choose: impl FnOnce(&vk::PhysicalDeviceMemoryProperties, u32) -> Placement,
        limit: Option<u64>,
        addresses: bool,
    ) -> Result<Self> {
        // SAFETY: queries on live handles; the probe buffer is destroyed right away.
        let (props, limits, allowed) = unsafe {
            let props = instance.get_physical_device_memory_properties(physical);
            let limits = instance.get_physical_device_properties(physical).limits;
            let probe = device
                .create_buffer(&buffer_info(256, addresses), None)
                .map_err(|e| Error::vk("vkCreateBuffer", e))?;
            let allowed = device
                .get_buffer_memory_requirements(probe)
                .memory_type_bits;
            device.destroy_buffer(probe, None);
            (props, limits, allowed)
        };
        let placement = choose(&props, allowed);
        let budget = limit.map_or(placement.heap_size(), |l| l.min(placement.heap_size()));
        let allocator = Allocator::new(&AllocatorCreateDesc {
            instance: instance.clone(),
            device: device.clone(),
            physical_device: physical,
            debug_settings: AllocatorDebugSettings::default(),
            buffer_device_address: addresses,
            allocation_sizes: AllocationSizes::new(64 * MIB, 32 * MIB)
                .with_max_device_memblock_size(256 * MIB)
                .with_max_host_memblock_size(256 * MIB),
        })
        .map_err(|e| Error::Vulkan {
            call: "gpu_allocator",
            result: e.to_string(),
        })?;
        Ok(Memory {
            device: device.clone(),
            allocator: Mutex::new(allocator),
            pool: Mutex::new(PoolState {
                free: FreeLists::new(POOL_CAP.min(budget / 2)),
                live_bytes: 0,
                live_buffers: 0,
            }),
            placement,
            budget,
            atom: limits.non_coherent_atom_size.max(1),
            max_range: u64::from(limits.max_storage_buffer_range),
            addresses,
            allocations: AtomicU64::new(0),
        })
    }

    pub(crate) fn stats(&self) -> MemoryStats {
        let pool = lock(&self.pool);
        MemoryStats {
            live_bytes: pool.live_bytes,
            pooled_bytes: pool.free.held(),
            live_buffers: pool.live_buffers,
            allocations: self.allocations.load(Ordering::Relaxed),
        }
    }

    /// A buffer of at least `bytes`, from the pool when it has one of that class.
    pub(crate) fn alloc(&self, core: &Arc<Core>, bytes: u64) -> Result<Arc<Buffer>> {
        self.check_fits(bytes)?;
        if bytes > self.max_range && !self.addresses {
            return Err(Error::BufferTooLarge {
                bytes,
                max: self.max_range,
            });
        }
        let capacity = class_size(bytes, self.max_range);
        let pooled = lock(&self.pool).free.take(capacity);
        let slot = match pooled {
            Some(slot) => slot,
            None => self.create_slot(capacity)?,
        };
        let mut pool = lock(&self.pool);
        pool.live_bytes += capacity;
        pool.live_buffers += 1;
        drop(pool);
        let id = BUFFER_IDS.fetch_add(1, Ordering::Relaxed);
        Ok(Arc::new(Buffer {
            backing: Backing::Owned(ManuallyDrop::new(slot)),
            core: core.clone(),
            offset: 0,
            size: bytes,
            id,
            last_write: AtomicU64::new(0),
            last_use: AtomicU64::new(0),
            texel: Mutex::new(vk::BufferView::null()),
        }))
    }

    /// Refuses a request the heap cannot hold beside tg's live buffers, before the driver sees
    /// it: with overcommit (lavapipe on Linux) an allocation the machine cannot back may
    /// succeed and fail later, when the memory is touched.
    fn check_fits(&self, bytes: u64) -> Result<()> {
        let heap = self.budget;
        let in_use = lock(&self.pool).live_bytes;
        if bytes > heap.saturating_sub(in_use) {
            return Err(Error::OutOfMemory {
                bytes,
                heap,
                in_use,
                reason: "the request does not fit in the heap beside tg's live buffers".into(),
            });
        }
        Ok(())
    }

    /// Takes back a dropped buffer's slot; frees it when the pool is full.
    fn release(&self, slot: Slot) {
        let mut pool = lock(&self.pool);
        pool.live_bytes -= slot.capacity;
        pool.live_buffers -= 1;
        let rejected = pool.free.put(slot.capacity, slot);
        drop(pool);
        if let Some(slot) = rejected {
            self.free_slot(slot);
            // A drop cannot return an error: leave any message for the next checked call.
            super::validation::defer();
        }
    }

    /// Frees what the pool holds (the device is closing, or `Device::trim`).
    pub(crate) fn free_pool(&self) {
        let held = lock(&self.pool).free.drain();
        held.into_iter().for_each(|s| self.free_slot(s));
    }

    /// A buffer over an application's `VkBuffer`: `size` bytes at `offset`, which tg binds
    /// but never maps, frees or destroys.
    pub(crate) fn import(
        &self,
        core: &Arc<Core>,
        raw: vk::Buffer,
        offset: u64,
        size: u64,
    ) -> Arc<Buffer> {
        Arc::new(Buffer {
            backing: Backing::External {
                raw,
                capacity: size,
            },
            core: core.clone(),
            offset,
            size,
            id: BUFFER_IDS.fetch_add(1, Ordering::Relaxed),
            last_write: AtomicU64::new(0),
            last_use: AtomicU64::new(0),
            texel: Mutex::new(vk::BufferView::null()),
        })
    }

    fn create_slot(&self, capacity: u64) -> Result<Slot> {
        let location = match self.placement {
            Placement::Mapped {
                type_index,
                coherent,
                ..
            } => Target::Type {
                index: type_index,
                coherent,
            },
            Placement::Staged { .. } => Target::Location(MemoryLocation::GpuOnly),
        };
        let slot = match self.new_slot(capacity, location, "tg buffer") {
            Err(Error::OutOfMemory { .. }) => {
                // Memory may be sitting in the pool in other size classes: free it and retry.
                let held = lock(&self.pool).free.drain();
                held.into_iter().for_each(|s| self.free_slot(s));
                self.new_slot(capacity, location, "tg buffer")
            }
            other => other,
        }?;
        self.allocations.fetch_add(1, Ordering::Relaxed);
        Ok(slot)
    }

    /// A host-visible buffer for staging copies, outside the pool.
    pub(crate) fn staging(&self, bytes: u64, upload: bool) -> Result<Slot> {
        let location = if upload {
            MemoryLocation::CpuToGpu
        } else {
            MemoryLocation::GpuToCpu
        };
        self.new_slot(bytes.max(4), Target::Location(location), "tg staging")
    }

    fn new_slot(&self, capacity: u64, target: Target, name: &str) -> Result<Slot> {
        // SAFETY: creating and binding a buffer on a live device; on failure it is destroyed.
        let raw = unsafe {
            self.device
                .create_buffer(&buffer_info(capacity, self.addresses), None)
        }
        .map_err(|e| Error::vk("vkCreateBuffer", e))?;
        // SAFETY: `raw` is a live buffer of this device.
        let mut requirements = unsafe { self.device.get_buffer_memory_requirements(raw) };
        let location = match target {
            Target::Type { index, coherent } => {
                requirements.memory_type_bits &= 1 << index;
                if !coherent {
                    // Whole atoms, so flushes of any sub-range stay inside this allocation.
                    requirements.size = requirements.size.next_multiple_of(self.atom);
                    requirements.alignment = requirements.alignment.max(self.atom);
                }
                MemoryLocation::Unknown
            }
            Target::Location(location) => location,
        };
        let allocated = lock(&self.allocator).allocate(&AllocationCreateDesc {
            name,
            requirements,
            location,
            linear: true,
            allocation_scheme: AllocationScheme::GpuAllocatorManaged,
        });
        let allocation = match allocated {
            Ok(a) => a,
            Err(e) => {
                // SAFETY: `raw` is unused.
                unsafe { self.device.destroy_buffer(raw, None) };
                return Err(self.alloc_error(capacity, e));
            }
        };
        // SAFETY: the allocation satisfies `raw`'s requirements and is not bound elsewhere.
        let bound = unsafe {
            self.device
                .bind_buffer_memory(raw, allocation.memory(), allocation.offset())
        };
        let mut slot = Slot {
            raw,
            address: 0,
            allocation,
            capacity,
        };
        if let Err(e) = bound {
            self.free_slot(slot);
            return Err(Error::vk("vkBindBufferMemory", e));
        }
        if self.addresses {
            // SAFETY: a live buffer created with SHADER_DEVICE_ADDRESS usage, bound to memory
            // allocated with the device-address flag (gpu-allocator's `buffer_device_address`).
            slot.address = unsafe {
                self.device
                    .get_buffer_device_address(&vk::BufferDeviceAddressInfo::default().buffer(raw))
            };
        }
        Ok(slot)
    }

    pub(crate) fn free_slot(&self, slot: Slot) {
        // SAFETY: the slot's buffer is no longer used by any pending work (its last Arc is gone,
        // and `execute` holds Arcs until its fence signals).
        unsafe { self.device.destroy_buffer(slot.raw, None) };
        // Freeing can only fail for an allocation of another allocator; nothing to do then.
        let _ = lock(&self.allocator).free(slot.allocation);
    }

    /// Copies `data` into a mapped slot at `offset`.
    pub(crate) fn write_mapped(&self, slot: &Slot, offset: u64, data: &[u8]) -> Result<()> {
        let dst = mapped(slot)?;
        // SAFETY: the caller checked `offset + len <= capacity`; the mapping covers the allocation.
        unsafe {
            std::ptr::copy_nonoverlapping(
                data.as_ptr(),
                dst.as_ptr().add(offset as usize),
                data.len(),
            );
        }
        self.sync_range(slot, offset, data.len() as u64, true)
    }

    /// Copies from a mapped slot at `offset` into `out`.
    pub(crate) fn read_mapped(&self, slot: &Slot, offset: u64, out: &mut [u8]) -> Result<()> {
        let src = mapped(slot)?;
        self.sync_range(slot, offset, out.len() as u64, false)?;
        // SAFETY: as in `write_mapped`.
        unsafe {
            std::ptr::copy_nonoverlapping(
                src.as_ptr().add(offset as usize),
                out.as_mut_ptr(),
                out.len(),
            );
        }
        Ok(())
    }

    /// Flushes host writes to, or invalidates the host's view of, non-coherent memory.
    fn sync_range(&self, slot: &Slot, offset: u64, len: u64, flush: bool) -> Result<()> {
        let a = &slot.allocation;
        if len == 0
            || a.memory_properties()
                .contains(vk::MemoryPropertyFlags::HOST_COHERENT)
        {
            return Ok(());
        }
        let start = (a.offset() + offset) / self.atom * self.atom;
        let end = (a.offset() + offset + len).next_multiple_of(self.atom);
        // SAFETY: `memory()` is the allocation's live, mapped memory object.
        let range = [vk::MappedMemoryRange::default()
            .memory(unsafe { a.memory() })
            .offset(start)
            .size(end - start)];
        // SAFETY: the range lies inside this allocation, which is atom-aligned (see `new_slot`).
        unsafe {
            if flush {
                self.device.flush_mapped_memory_ranges(&range)
            } else {
                self.device.invalidate_mapped_memory_ranges(&range)
            }
        }
        .map_err(|e| Error::vk("vkFlushMappedMemoryRanges", e))
    }
}

#[derive(Clone, Copy)]
enum Target {
    /// A fixed memory type (the mapped placement).
    Type {
        index: u32,
        coherent: bool,
    },
    Location(MemoryLocation),
}

fn buffer_info(size: u64, addresses: bool) -> vk::BufferCreateInfo<'static> {
    let usage = if addresses {
        USAGE | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS
    } else {
        USAGE
    };
    vk::BufferCreateInfo::default()
        .size(size)
        .usage(usage)
        .sharing_mode(vk::SharingMode::EXCLUSIVE)
}

fn mapped(slot: &Slot) -> Result<NonNull<u8>> {
    slot.allocation
        .mapped_ptr()
        .map(NonNull::cast)
        .ok_or(Error::Vulkan {
            call: "vkMapMemory",
            result: "the buffer's memory is not mapped".into(),
        })
}

impl Memory {
    fn alloc_error(&self, bytes: u64, e: AllocationError) -> Error {
        match e {
            AllocationError::OutOfMemory => Error::OutOfMemory {
                bytes,
                heap: self.budget,
                in_use: lock(&self.pool).live_bytes,
                reason: e.to_string(),
            },
            e => Error::Vulkan {
                call: "gpu_allocator",
                result: e.to_string(),
            },
        }
    }
}
