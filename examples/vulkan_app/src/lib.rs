//! The application's side of `examples/vulkan_app`: its instance (with a validation messenger
//! under `TG_VALIDATION=1`), device, queue, command pool and buffers, made with ash as any
//! Vulkan program makes them. It is the `vulkan_app` package's library, so that the package's
//! test (`tests/interop.rs`) hands tg a device made exactly as the application makes it.
//! Its own shaders (pipelines of its GLSL on the queue it shares with tg) are in [`shaders`].

use std::ffi::c_void;
use std::sync::Mutex;

use tg::runtime::ash::{self, vk};
use tg::runtime::device::{EnabledFeatures, RawDevice, validation_messenger_info};

pub mod shaders;

pub use shaders::AppPipeline;

/// Validation messages for the application's own messenger.
static MESSAGES: Mutex<Vec<String>> = Mutex::new(Vec::new());

unsafe extern "system" fn on_message(
    _severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _kind: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    _user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: the layer passes valid callback data for the duration of the call.
    if let Some(text) = unsafe { data.as_ref() }.and_then(|d| unsafe { d.message_as_c_str() }) {
        let text = text.to_string_lossy().into_owned();
        eprintln!("validation: {text}");
        MESSAGES.lock().unwrap().push(text);
    }
    vk::FALSE
}

/// The application: its instance, device, queue and command pool.
pub struct App {
    _entry: ash::Entry,
    /// The instance.
    pub instance: ash::Instance,
    /// The application's own validation messenger, under `TG_VALIDATION=1`.
    pub messenger: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    /// The physical device the device was made on.
    pub physical: vk::PhysicalDevice,
    /// The logical device, which tg is handed too.
    pub device: ash::Device,
    /// The compute queue's family.
    pub family: u32,
    /// The compute queue, shared with tg.
    pub queue: vk::Queue,
    /// The command pool of the application's own work.
    pub pool: vk::CommandPool,
}

/// One of the application's buffers, of `len` floats.
pub struct AppBuffer {
    /// The buffer.
    pub raw: vk::Buffer,
    memory: vk::DeviceMemory,
    mapped: Option<*mut f32>,
    len: usize,
}

impl AppBuffer {
    /// The floats of a host-visible buffer, for the host to read or write while no work on
    /// the device uses it.
    pub fn host(&mut self) -> &mut [f32] {
        let ptr = self.mapped.expect("a host-visible buffer");
        // SAFETY: the mapping covers `len` floats, and no pending work uses them (the caller
        // waited for the work writing them).
        unsafe { std::slice::from_raw_parts_mut(ptr, self.len) }
    }
}

impl App {
    /// The instance (with the application's messenger under `TG_VALIDATION=1`), a device of
    /// the first physical device with one compute queue, and a command pool.
    pub fn new() -> Result<App, vk::Result> {
        let validate = std::env::var("TG_VALIDATION").is_ok_and(|v| v == "1");
        // SAFETY: plain Vulkan set-up on handles made here and destroyed in `finish`.
        unsafe {
            let entry = ash::Entry::load().expect("the Vulkan loader");
            let info = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_2);
            let layers = [c"VK_LAYER_KHRONOS_validation".as_ptr()];
            let extensions = [ash::ext::debug_utils::NAME.as_ptr()];
            let mut create = vk::InstanceCreateInfo::default().application_info(&info);
            if validate {
                create = create
                    .enabled_layer_names(&layers)
                    .enabled_extension_names(&extensions);
            }
            let instance = entry.create_instance(&create, None)?;
            let messenger = if validate {
                let debug = ash::ext::debug_utils::Instance::new(&entry, &instance);
                // the messages tg's own validation reports
                let info = validation_messenger_info(Some(on_message));
                let m = debug.create_debug_utils_messenger(&info, None)?;
                Some((debug, m))
            } else {
                None
            };
            let physical = instance.enumerate_physical_devices()?[0];
            let family = instance
                .get_physical_device_queue_family_properties(physical)
                .iter()
                .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
                .expect("a compute queue") as u32;
            let priorities = [1.0];
            let queues = [vk::DeviceQueueCreateInfo::default()
                .queue_family_index(family)
                .queue_priorities(&priorities)];
            let mut f12 = vk::PhysicalDeviceVulkan12Features::default().timeline_semaphore(true);
            let create = vk::DeviceCreateInfo::default()
                .queue_create_infos(&queues)
                .push_next(&mut f12);
            let device = instance.create_device(physical, &create, None)?;
            let queue = device.get_device_queue(family, 0);
            let pool = device.create_command_pool(
                &vk::CommandPoolCreateInfo::default().queue_family_index(family),
                None,
            )?;
            Ok(App {
                _entry: entry,
                instance,
                messenger,
                physical,
                device,
                family,
                queue,
                pool,
            })
        }
    }

    /// The device as tg adopts it, with the one optional feature this application enabled.
    pub fn raw(&self) -> RawDevice {
        RawDevice {
            instance: self.instance.clone(),
            physical_device: self.physical,
            device: self.device.clone(),
            queue_family: self.family,
            queue: self.queue,
            features: EnabledFeatures {
                timeline_semaphore: true,
                ..Default::default()
            },
        }
    }

    /// A buffer of `n` floats with the usages tg needs to adopt it; mapped when `host`.
    pub fn buffer(&self, n: usize, host: bool) -> Result<AppBuffer, vk::Result> {
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST;
        let want = if host {
            vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT
        } else {
            vk::MemoryPropertyFlags::DEVICE_LOCAL
        };
        // SAFETY: a buffer and its memory on this device, freed in `free`.
        unsafe {
            let raw = self.device.create_buffer(
                &vk::BufferCreateInfo::default()
                    .size((n * 4) as u64)
                    .usage(usage),
                None,
            )?;
            let req = self.device.get_buffer_memory_requirements(raw);
            let props = self
                .instance
                .get_physical_device_memory_properties(self.physical);
            let index = (0..props.memory_type_count)
                .find(|&i| {
                    req.memory_type_bits & (1 << i) != 0
                        && props.memory_types[i as usize].property_flags.contains(want)
                })
                .expect("a memory type");
            let memory = self.device.allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(req.size)
                    .memory_type_index(index),
                None,
            )?;
            self.device.bind_buffer_memory(raw, memory, 0)?;
            let mapped = if host {
                let ptr = self.device.map_memory(
                    memory,
                    0,
                    vk::WHOLE_SIZE,
                    vk::MemoryMapFlags::empty(),
                )?;
                Some(ptr as *mut f32)
            } else {
                None
            };
            Ok(AppBuffer {
                raw,
                memory,
                mapped,
                len: n,
            })
        }
    }

    /// A timeline semaphore at 0.
    pub fn timeline(&self) -> Result<vk::Semaphore, vk::Result> {
        let mut kind = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(0);
        // SAFETY: a semaphore of this device, destroyed in `destroy`.
        unsafe {
            self.device.create_semaphore(
                &vk::SemaphoreCreateInfo::default().push_next(&mut kind),
                None,
            )
        }
    }

    /// Destroys `b` and frees its memory, once no pending work uses it.
    pub fn free(&self, b: AppBuffer) {
        // SAFETY: no pending work uses the buffer (the last dispatch was waited for).
        unsafe {
            self.device.destroy_buffer(b.raw, None);
            self.device.free_memory(b.memory, None);
        }
    }

    /// Destroys the device (the layer reports any object left on it: anything tg leaked)
    /// and the instance; returns the run's validation messages.
    pub fn finish(mut self) -> Vec<String> {
        // SAFETY: the application destroys what it made, after tg closed.
        unsafe {
            self.device.destroy_command_pool(self.pool, None);
            self.device.destroy_device(None);
            if let Some((debug, m)) = self.messenger.take() {
                debug.destroy_debug_utils_messenger(m, None);
            }
            self.instance.destroy_instance(None);
        }
        std::mem::take(&mut *MESSAGES.lock().unwrap())
    }
}
