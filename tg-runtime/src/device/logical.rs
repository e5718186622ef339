//! Opening the chosen physical device: its properties, the features tg enables, one queue;
//! and describing a device, tg's or an application's, from its properties and features.

use ash::vk;

use super::info::{DeviceInfo, c_text, version};
use super::instance::Instance;
use super::memory::TEXEL_FORMAT;
use super::raw::EnabledFeatures;
use super::select::DeviceCandidate;
use crate::{Error, Result};

/// A logical device; one tg created destroys itself when dropped (see `Instance`), an
/// application's is left to the application.
pub(crate) struct LogicalDevice {
    pub(crate) raw: ash::Device,
    pub(crate) owned: bool,
}

impl Drop for LogicalDevice {
    fn drop(&mut self) {
        if self.owned {
            // SAFETY: everything created from the device is dropped before it.
            unsafe { self.raw.destroy_device(None) };
        }
    }
}

/// What start-up learned besides `DeviceInfo`.
pub(crate) struct Opened {
    pub(crate) device: LogicalDevice,
    pub(crate) info: DeviceInfo,
    pub(crate) queue: vk::Queue,
    pub(crate) queue_family: u32,
    /// Nanoseconds per timestamp tick.
    pub(crate) timestamp_period: f64,
    /// Mask of the bits a timestamp holds (0 = no timestamps).
    pub(crate) timestamp_mask: u64,
}

/// Opens `pd` with every optional feature tg uses that it has.
pub(crate) fn open(
    instance: &Instance,
    pd: vk::PhysicalDevice,
    candidate: &DeviceCandidate,
    validation: bool,
) -> Result<Opened> {
    let inst = &instance.raw;
    let present = supported(inst, pd);
    // SAFETY: `pd` comes from `inst`.
    let families = unsafe { inst.get_physical_device_queue_family_properties(pd) };
    let family = queue_family(&families).ok_or_else(|| Error::Unsupported {
        what: "tg".into(),
        feature: "a compute queue",
        device: candidate.name.clone(),
    })?;

    // Enable exactly what is present; DeviceInfo reports it so codegen can choose.
    let enable_core = vk::PhysicalDeviceFeatures::default()
        .shader_int64(present.shader_int64)
        .shader_float64(present.shader_float64)
        .shader_int16(present.shader_int16);
    let mut enable11 = vk::PhysicalDeviceVulkan11Features::default()
        .storage_buffer16_bit_access(present.storage_buffer_16bit);
    let mut enable12 = vk::PhysicalDeviceVulkan12Features::default()
        .shader_float16(present.shader_float16)
        .shader_int8(present.shader_int8)
        .storage_buffer8_bit_access(present.storage_buffer_8bit)
        .buffer_device_address(present.buffer_device_address)
        .timeline_semaphore(present.timeline_semaphore);
    let mut enable = vk::PhysicalDeviceFeatures2::default()
        .features(enable_core)
        .push_next(&mut enable11)
        .push_next(&mut enable12);
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(family)
        .queue_priorities(&priorities)];
    let create = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .push_next(&mut enable);
    // SAFETY: `pd` comes from `inst`; `create` and what it points to outlive the call.
    let raw = unsafe { inst.create_device(pd, &create, None) }
        .map_err(|e| Error::vk("vkCreateDevice", e))?;
    let device = LogicalDevice { raw, owned: true };
    // SAFETY: the device was created with one queue of `family`.
    let queue = unsafe { device.raw.get_device_queue(family, 0) };
    Ok(describe(
        inst, pd, candidate, &present, validation, device, queue, family,
    ))
}

/// The optional features tg uses that `pd` has.
pub(crate) fn supported(inst: &ash::Instance, pd: vk::PhysicalDevice) -> EnabledFeatures {
    let (mut f11, mut f12) = (
        vk::PhysicalDeviceVulkan11Features::default(),
        vk::PhysicalDeviceVulkan12Features::default(),
    );
    let core = {
        let mut f2 = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut f11)
            .push_next(&mut f12);
        // SAFETY: `pd` comes from `inst`, which supports Vulkan 1.2; the chained structs
        // outlive the call.
        unsafe { inst.get_physical_device_features2(pd, &mut f2) };
        f2.features
    };
    let on = |b: vk::Bool32| b == vk::TRUE;
    EnabledFeatures {
        shader_float16: on(f12.shader_float16),
        shader_int8: on(f12.shader_int8),
        shader_int16: on(core.shader_int16),
        shader_int64: on(core.shader_int64),
        shader_float64: on(core.shader_float64),
        storage_buffer_16bit: on(f11.storage_buffer16_bit_access),
        storage_buffer_8bit: on(f12.storage_buffer8_bit_access),
        buffer_device_address: on(f12.buffer_device_address),
        timeline_semaphore: on(f12.timeline_semaphore),
    }
}

/// What tg knows of an opened device: its properties, with the features that were enabled
/// on it (Vulkan cannot query those of a device someone else opened).
#[allow(clippy::too_many_arguments)]
pub(crate) fn describe(
    inst: &ash::Instance,
    pd: vk::PhysicalDevice,
    candidate: &DeviceCandidate,
    enabled: &EnabledFeatures,
    validation: bool,
    device: LogicalDevice,
    queue: vk::Queue,
    family: u32,
) -> Opened {
    let (mut p11, mut p12, mut driver) = (
        vk::PhysicalDeviceVulkan11Properties::default(),
        vk::PhysicalDeviceVulkan12Properties::default(),
        vk::PhysicalDeviceDriverProperties::default(),
    );
    let props = {
        let mut p2 = vk::PhysicalDeviceProperties2::default()
            .push_next(&mut p11)
            .push_next(&mut p12)
            .push_next(&mut driver);
        // SAFETY: `pd` comes from `inst`; the chained structs outlive the call.
        unsafe { inst.get_physical_device_properties2(pd, &mut p2) };
        p2.properties
    };
    // SAFETY: `pd` comes from `inst`.
    let families = unsafe { inst.get_physical_device_queue_family_properties(pd) };
    let timestamp_bits = families
        .get(family as usize)
        .map_or(0, |f| f.timestamp_valid_bits);
    let limits = &props.limits;
    // SAFETY: `pd` comes from `inst`.
    let texels = unsafe {
        inst.get_physical_device_format_properties(pd, TEXEL_FORMAT)
            .buffer_features
            .contains(vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER)
    };
    let compute = vk::ShaderStageFlags::COMPUTE;
    let ops = p11.subgroup_supported_operations;
    let subgroups = p11.subgroup_supported_stages.contains(compute);
    let info = DeviceInfo {
        index: candidate.index,
        name: candidate.name.clone(),
        device_type: candidate.device_type,
        api_version: version(props.api_version),
        driver: format!(
            "{} {}",
            c_text(driver.driver_name_as_c_str()),
            c_text(driver.driver_info_as_c_str())
        )
        .trim()
        .to_string(),
        vendor_id: props.vendor_id,
        device_id: props.device_id,
        max_storage_buffer_range: u64::from(limits.max_storage_buffer_range),
        max_storage_buffers: limits
            .max_per_stage_descriptor_storage_buffers
            .min(limits.max_descriptor_set_storage_buffers),
        max_workgroup_count: limits.max_compute_work_group_count,
        max_workgroup_size: limits.max_compute_work_group_size,
        max_workgroup_invocations: limits.max_compute_work_group_invocations,
        max_shared_memory: limits.max_compute_shared_memory_size,
        max_push_constant_bytes: limits.max_push_constants_size,
        shader_float16: enabled.shader_float16,
        shader_int8: enabled.shader_int8,
        storage_16bit: enabled.storage_buffer_16bit,
        storage_8bit: enabled.storage_buffer_8bit,
        shader_int64: enabled.shader_int64,
        shader_float64: enabled.shader_float64,
        shader_int16: enabled.shader_int16,
        subgroup_size: p11.subgroup_size,
        subgroup_arithmetic: subgroups && ops.contains(vk::SubgroupFeatureFlags::ARITHMETIC),
        subgroup_shuffle: subgroups && ops.contains(vk::SubgroupFeatureFlags::SHUFFLE),
        subgroup_ballot: subgroups && ops.contains(vk::SubgroupFeatureFlags::BALLOT),
        host_visible_device_memory: false, // set once memory placement is decided
        timestamps: timestamp_bits > 0 && limits.timestamp_period > 0.0,
        preserve_inf_nan_f32: p12.shader_signed_zero_inf_nan_preserve_float32 == vk::TRUE,
        preserve_inf_nan_f64: p12.shader_signed_zero_inf_nan_preserve_float64 == vk::TRUE,
        validation,
        loop_budget: super::info::loop_budget(
            driver.driver_id,
            &candidate.name,
            crate::config::text(crate::config::Var::LoopBudget).as_deref(),
        ),
        memory_budget: 0, // set once memory placement is decided
        buffer_device_address: enabled.buffer_device_address,
        timeline_semaphores: enabled.timeline_semaphore,
        window_alignment: limits
            .min_storage_buffer_offset_alignment
            .max(limits.min_texel_buffer_offset_alignment)
            .max(16),
        max_texel_buffer_elements: if texels {
            u64::from(limits.max_texel_buffer_elements)
        } else {
            0
        },
        storage_reads: false, // set with the device's other settings
        class_override: None, // set with the device's other settings
    };
    Opened {
        device,
        info,
        queue,
        queue_family: family,
        timestamp_period: f64::from(limits.timestamp_period),
        timestamp_mask: match timestamp_bits {
            0 => 0,
            64.. => u64::MAX,
            b => (1u64 << b) - 1,
        },
    }
}

/// A compute queue family; one without graphics first, since such a queue does not share its
/// time with a desktop's rendering.
fn queue_family(families: &[vk::QueueFamilyProperties]) -> Option<u32> {
    let has =
        |f: &vk::QueueFamilyProperties, flag| f.queue_count > 0 && f.queue_flags.contains(flag);
    let pick = |pred: &dyn Fn(&vk::QueueFamilyProperties) -> bool| families.iter().position(pred);
    pick(&|f| has(f, vk::QueueFlags::COMPUTE) && !has(f, vk::QueueFlags::GRAPHICS))
        .or_else(|| pick(&|f| has(f, vk::QueueFlags::COMPUTE)))
        .and_then(|i| u32::try_from(i).ok())
}
