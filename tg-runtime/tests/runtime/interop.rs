//! tg on an application's Vulkan device: the application makes the instance, device, queue,
//! buffers and semaphores with ash; tg computes on its buffers in place and hands out its own,
//! the two ordered by semaphores; closing tg leaves the device as the application made it,
//! which the validation layer checks when the application destroys it.

use std::ffi::c_void;
use std::sync::Mutex;

use tg_runtime::ash::vk::Handle;
use tg_runtime::ash::{self, vk};
use tg_runtime::device::{Device, EnabledFeatures, RawDevice, Semaphore, SemaphoreSync};
use tg_runtime::{BinaryOp, DType, Lazy};

static MESSAGES: Mutex<Vec<String>> = Mutex::new(Vec::new());

unsafe extern "system" fn on_message(
    _severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _kind: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    _user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: the layer passes valid callback data for the duration of the call.
    if let Some(message) = unsafe { data.as_ref() }.and_then(|d| unsafe { d.message_as_c_str() }) {
        MESSAGES
            .lock()
            .unwrap()
            .push(message.to_string_lossy().into_owned());
    }
    vk::FALSE
}

/// The application's side: its instance, device, queue and helpers.
struct App {
    _entry: ash::Entry,
    instance: ash::Instance,
    messenger: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    physical: vk::PhysicalDevice,
    device: ash::Device,
    family: u32,
    queue: vk::Queue,
}

/// A host-visible buffer of the application's, mapped.
struct HostBuffer {
    raw: vk::Buffer,
    memory: vk::DeviceMemory,
    ptr: *mut f32,
    len: usize,
}

impl App {
    fn new() -> App {
        let validate = std::env::var("TG_VALIDATION").is_ok_and(|v| v == "1");
        // SAFETY: plain Vulkan set-up on handles made here, destroyed in `Drop`.
        unsafe {
            let entry = ash::Entry::load().expect("the Vulkan loader");
            let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_2);
            let layers = [c"VK_LAYER_KHRONOS_validation".as_ptr()];
            let extensions = [ash::ext::debug_utils::NAME.as_ptr()];
            let mut info = vk::InstanceCreateInfo::default().application_info(&app);
            if validate {
                info = info
                    .enabled_layer_names(&layers)
                    .enabled_extension_names(&extensions);
            }
            let instance = entry.create_instance(&info, None).unwrap();
            let messenger = validate.then(|| {
                let debug = ash::ext::debug_utils::Instance::new(&entry, &instance);
                let info = vk::DebugUtilsMessengerCreateInfoEXT::default()
                    .message_severity(
                        vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                            | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
                    )
                    .message_type(
                        vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                            | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
                    )
                    .pfn_user_callback(Some(on_message));
                let m = debug.create_debug_utils_messenger(&info, None).unwrap();
                (debug, m)
            });
            let physical = instance.enumerate_physical_devices().unwrap()[0];
            let family = instance
                .get_physical_device_queue_family_properties(physical)
                .iter()
                .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
                .unwrap() as u32;
            let priorities = [1.0];
            let queues = [vk::DeviceQueueCreateInfo::default()
                .queue_family_index(family)
                .queue_priorities(&priorities)];
            let mut f12 = vk::PhysicalDeviceVulkan12Features::default().timeline_semaphore(true);
            let info = vk::DeviceCreateInfo::default()
                .queue_create_infos(&queues)
                .push_next(&mut f12);
            let device = instance.create_device(physical, &info, None).unwrap();
            let queue = device.get_device_queue(family, 0);
            App {
                _entry: entry,
                instance,
                messenger,
                physical,
                device,
                family,
                queue,
            }
        }
    }

    fn raw(&self) -> RawDevice {
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

    fn host_buffer(&self, len: usize) -> HostBuffer {
        // SAFETY: a buffer and memory of this device, freed by `free`.
        unsafe {
            let usage = vk::BufferUsageFlags::STORAGE_BUFFER
                | vk::BufferUsageFlags::TRANSFER_SRC
                | vk::BufferUsageFlags::TRANSFER_DST;
            let bytes = (len * 4) as u64;
            let raw = self
                .device
                .create_buffer(
                    &vk::BufferCreateInfo::default().size(bytes).usage(usage),
                    None,
                )
                .unwrap();
            let req = self.device.get_buffer_memory_requirements(raw);
            let props = self
                .instance
                .get_physical_device_memory_properties(self.physical);
            let want =
                vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
            let index = (0..props.memory_type_count)
                .find(|&i| {
                    req.memory_type_bits & (1 << i) != 0
                        && props.memory_types[i as usize].property_flags.contains(want)
                })
                .unwrap();
            let memory = self
                .device
                .allocate_memory(
                    &vk::MemoryAllocateInfo::default()
                        .allocation_size(req.size)
                        .memory_type_index(index),
                    None,
                )
                .unwrap();
            self.device.bind_buffer_memory(raw, memory, 0).unwrap();
            let ptr = self
                .device
                .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                .unwrap() as *mut f32;
            HostBuffer {
                raw,
                memory,
                ptr,
                len,
            }
        }
    }

    fn free(&self, b: HostBuffer) {
        // SAFETY: no pending work uses the buffer.
        unsafe {
            self.device.destroy_buffer(b.raw, None);
            self.device.free_memory(b.memory, None);
        }
    }
}

impl HostBuffer {
    fn slice(&mut self) -> &mut [f32] {
        // SAFETY: the mapping covers `len` floats; callers access it when no work is pending.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl App {
    /// Destroys the device (the layer reports objects still alive on it: anything tg
    /// leaked) and the instance, and returns every validation message of the run.
    fn finish(mut self) -> Vec<String> {
        // SAFETY: the application destroys what it made, after tg closed.
        unsafe {
            self.device.destroy_device(None);
            if let Some((debug, m)) = self.messenger.take() {
                debug.destroy_debug_utils_messenger(m, None);
            }
            self.instance.destroy_instance(None);
        }
        std::mem::take(&mut *MESSAGES.lock().unwrap())
    }
}

#[test]
fn tg_computes_on_the_applications_device_and_buffers() {
    let app = App::new();
    // SAFETY: the handles live until `app` drops, after `close` below succeeded; the test
    // submits to the shared queue only through `with_queue`.
    let dev = unsafe { Device::from_raw(app.raw()) }.unwrap();
    assert!(dev.info().timeline_semaphores);
    assert!(
        !dev.info().shader_float16,
        "only what the application enabled"
    );

    let n = 256;
    let mut input = app.host_buffer(n);
    for (i, v) in input.slice().iter_mut().enumerate() {
        *v = i as f32;
    }
    let mut output = app.host_buffer(n);
    let mut copy = app.host_buffer(n);

    // SAFETY: the buffers are the device's, made with the usages tg needs, and outlive the
    // tensors over them (dropped before `free`).
    let (in_buf, out_buf) = unsafe {
        (
            dev.import_buffer(input.raw, 0, (n * 4) as u64).unwrap(),
            dev.import_buffer(output.raw, 0, (n * 4) as u64).unwrap(),
        )
    };
    let x = Lazy::from_buffer(in_buf, DType::F32, &[n]).unwrap();
    assert_eq!(x.device().unwrap().id(), dev.id());
    let two = Lazy::constant(2.0f32, DType::F32, &[n]).unwrap();
    let one = Lazy::constant(1.0f32, DType::F32, &[n]).unwrap();
    let y = x
        .binary(BinaryOp::Mul, &two)
        .unwrap()
        .binary(BinaryOp::Add, &one)
        .unwrap();

    // tg writes y into the application's output buffer in place, and also hands out y's own
    // buffer, which the application copies with a command buffer of its own that waits, on
    // the device, for tg's signal
    // SAFETY: a semaphore of the application's device, destroyed after its last use.
    let sem = unsafe {
        let mut kind = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(0);
        app.device
            .create_semaphore(
                &vk::SemaphoreCreateInfo::default().push_next(&mut kind),
                None,
            )
            .unwrap()
    };
    let target = Lazy::from_buffer(out_buf, DType::F32, &[n]).unwrap();
    let sync = SemaphoreSync {
        wait: vec![],
        signal: vec![Semaphore::timeline(sem, 1)],
    };
    let written = dev
        .synced(&sync, || {
            let w = target.assign(&y)?;
            tg_runtime::realize(&[&w, &y])?;
            Ok(w)
        })
        .unwrap();
    let tg_buffer = y.buffer().unwrap();
    assert!(!tg_buffer.is_external());
    // SAFETY: the application's objects, used as the spec allows (its submission waits for
    // tg's signal on the shared queue, under tg's lock), destroyed after the fence.
    unsafe {
        let pool = app
            .device
            .create_command_pool(
                &vk::CommandPoolCreateInfo::default().queue_family_index(app.family),
                None,
            )
            .unwrap();
        let cmd = app
            .device
            .allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(pool)
                    .command_buffer_count(1),
            )
            .unwrap()[0];
        app.device
            .begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .unwrap();
        let region = [vk::BufferCopy {
            src_offset: tg_buffer.offset(),
            dst_offset: 0,
            size: (n * 4) as u64,
        }];
        app.device
            .cmd_copy_buffer(cmd, tg_buffer.raw(), copy.raw, &region);
        let host = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        app.device.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &host,
            &[],
            &[],
        );
        app.device.end_command_buffer(cmd).unwrap();
        let fence = app
            .device
            .create_fence(&vk::FenceCreateInfo::default(), None)
            .unwrap();
        let cmds = [cmd];
        let waits = [sem];
        let values = [1u64];
        let stages = [vk::PipelineStageFlags::TRANSFER];
        let mut timeline =
            vk::TimelineSemaphoreSubmitInfo::default().wait_semaphore_values(&values);
        let submit = vk::SubmitInfo::default()
            .command_buffers(&cmds)
            .wait_semaphores(&waits)
            .wait_dst_stage_mask(&stages)
            .push_next(&mut timeline);
        dev.with_queue(|q| app.device.queue_submit(q, &[submit], fence))
            .unwrap();
        app.device
            .wait_for_fences(&[fence], true, u64::MAX)
            .unwrap();
        app.device.destroy_fence(fence, None);
        app.device.destroy_command_pool(pool, None);
    }
    let want: Vec<f32> = (0..n).map(|i| i as f32 * 2.0 + 1.0).collect();
    assert_eq!(
        copy.slice(),
        &want[..],
        "tg's buffer, read by the application"
    );
    // the fence above came after tg's signal, so the in-place write is done too
    assert_eq!(
        output.slice(),
        &want[..],
        "tg's write into the application's buffer"
    );
    assert_eq!(written.to_vec::<f32>().unwrap(), want);

    drop((x, y, written, target, tg_buffer));
    dev.close().unwrap();
    // SAFETY: no pending work uses the semaphore.
    unsafe { app.device.destroy_semaphore(sem, None) };
    for b in [input, output, copy] {
        app.free(b);
    }
    let validated = app.messenger.is_some();
    let messages = app.finish();
    assert!(messages.is_empty(), "validation: {messages:#?}");
    if std::env::var("TG_VALIDATION").is_ok_and(|v| v == "1") {
        assert!(validated);
    }
}

#[test]
fn bad_imports_are_refused() {
    let dev = Device::get().unwrap();
    let a = dev.info().window_alignment;
    // SAFETY: every call below is refused before the (null or bogus) handle is used.
    unsafe {
        assert!(dev.import_buffer(vk::Buffer::null(), 0, 64).is_err());
        let fake = vk::Buffer::from_raw(1);
        assert!(dev.import_buffer(fake, a / 2 + 1, 64).is_err());
        assert!(dev.import_buffer(fake, 0, 12).is_err());
        assert!(matches!(
            dev.import_buffer(
                fake,
                0,
                (dev.info().max_storage_buffer_range + 16).next_multiple_of(16)
            ),
            Err(tg_runtime::Error::BufferTooLarge { .. })
        ));
    }
}
