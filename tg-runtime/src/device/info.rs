//! What the chosen device is and can do, read once at start-up.

use std::fmt;

use ash::vk;

/// The kind of a Vulkan device, in tg's order of preference.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DeviceType {
    /// A GPU of its own.
    Discrete,
    /// A GPU sharing memory with the CPU.
    Integrated,
    /// A virtualized GPU.
    Virtual,
    /// A software implementation such as lavapipe.
    Cpu,
    #[default]
    /// Anything else.
    Other,
}

impl DeviceType {
    pub(crate) fn from_vk(t: vk::PhysicalDeviceType) -> Self {
        match t {
            vk::PhysicalDeviceType::DISCRETE_GPU => DeviceType::Discrete,
            vk::PhysicalDeviceType::INTEGRATED_GPU => DeviceType::Integrated,
            vk::PhysicalDeviceType::VIRTUAL_GPU => DeviceType::Virtual,
            vk::PhysicalDeviceType::CPU => DeviceType::Cpu,
            _ => DeviceType::Other,
        }
    }

    /// Lower is preferred when `TG_DEVICE` is not set.
    pub(crate) fn rank(self) -> u8 {
        self as u8
    }
}

impl fmt::Display for DeviceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DeviceType::Discrete => "discrete",
            DeviceType::Integrated => "integrated",
            DeviceType::Virtual => "virtual",
            DeviceType::Cpu => "cpu",
            DeviceType::Other => "other",
        })
    }
}

/// The class of device tg plans and renders kernels for: it sets the tile defaults, how a
/// row is shared, and how many vectors an invocation loads and stores (`target::ClassDefaults`,
/// `target::Target::of`). A CPU driver runs a subgroup's lanes in lockstep on a few
/// cores, a GPU runs thousands of invocations; the two want different kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelClass {
    /// Kernels for a CPU driver (lavapipe, SwiftShader).
    Cpu,
    /// Kernels for a GPU: every device type but a CPU.
    Gpu,
}

impl fmt::Display for KernelClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KernelClass::Cpu => "cpu",
            KernelClass::Gpu => "gpu",
        })
    }
}

/// `TG_DEVICE_CLASS`: `cpu` or `gpu` (any case), or unset / empty for the device's own.
pub(crate) fn class_override(value: Option<&str>) -> crate::Result<Option<KernelClass>> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        None | Some("") => Ok(None),
        Some("cpu") => Ok(Some(KernelClass::Cpu)),
        Some("gpu") => Ok(Some(KernelClass::Gpu)),
        Some(other) => Err(crate::Error::Argument {
            op: "TG_DEVICE_CLASS",
            message: format!("{other:?} is not a device class: cpu or gpu"),
        }),
    }
}

/// The device tg runs on: identity, limits, and the optional features it enabled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Index in `vkEnumeratePhysicalDevices`, as `TG_DEVICE` takes it.
    pub index: usize,
    /// The device's name.
    pub name: String,
    /// Its kind.
    pub device_type: DeviceType,
    /// `(major, minor, patch)` of its Vulkan version.
    pub api_version: (u32, u32, u32),
    /// `driverName driverInfo`, e.g. "llvmpipe Mesa 22.3.6 (LLVM 15.0.6)".
    pub driver: String,
    /// PCI vendor id.
    pub vendor_id: u32,
    /// PCI device id.
    pub device_id: u32,
    /// The largest storage buffer one binding can hold, in bytes.
    pub max_storage_buffer_range: u64,
    /// Storage buffers one kernel may bind (`maxPerStageDescriptorStorageBuffers`, and
    /// `maxDescriptorSetStorageBuffers` where smaller): the scheduler packs elementwise kernels
    /// into one multi-output dispatch only within it. 0 (as `Default` has it): no packing.
    pub max_storage_buffers: u32,
    /// Workgroups per dispatch, per dimension.
    pub max_workgroup_count: [u32; 3],
    /// Invocations per workgroup, per dimension.
    pub max_workgroup_size: [u32; 3],
    /// Invocations per workgroup in all.
    pub max_workgroup_invocations: u32,
    /// Shared memory per workgroup, in bytes.
    pub max_shared_memory: u32,
    /// Push-constant bytes a pipeline may declare.
    pub max_push_constant_bytes: u32,
    /// 16-bit float arithmetic in shaders.
    pub shader_float16: bool,
    /// 8-bit integer arithmetic in shaders.
    pub shader_int8: bool,
    /// 16-bit storage buffers.
    pub storage_16bit: bool,
    /// 8-bit storage buffers.
    pub storage_8bit: bool,
    /// 64-bit integers in shaders (needed by i64 and u64).
    pub shader_int64: bool,
    /// 64-bit floats in shaders (needed by f64).
    pub shader_float64: bool,
    /// 16-bit integers in shaders.
    pub shader_int16: bool,
    /// Invocations per subgroup.
    pub subgroup_size: u32,
    /// Shaders can ask that signed zeros, infinities and NaN survive optimisation (float
    /// controls); without it a driver may fold `x * 0.0` to `0.0` even for an infinite `x`.
    pub preserve_inf_nan_f32: bool,
    /// The same for 64-bit floats.
    pub preserve_inf_nan_f64: bool,
    /// The compute stage supports subgroup arithmetic (`subgroupAdd` ...).
    pub subgroup_arithmetic: bool,
    /// Subgroup shuffles (`subgroupShuffle`).
    pub subgroup_shuffle: bool,
    /// Subgroup ballots (`subgroupBallot`).
    pub subgroup_ballot: bool,
    /// Every buffer is mapped, so reads and writes are plain copies (lavapipe, integrated GPUs,
    /// resizable BAR).
    pub host_visible_device_memory: bool,
    /// The queue tg uses can write timestamps, so `execute` can time kernels.
    pub timestamps: bool,
    /// The Khronos validation layer is on (`TG_VALIDATION=1`).
    pub validation: bool,
    /// Loop back-edges one shader invocation may take before the driver silently ends its
    /// loops: 65,535 on llvmpipe (lavapipe), `None` elsewhere. `TG_LOOP_BUDGET=n` sets a
    /// smaller one (to exercise the splitting that a budget causes on any device).
    pub loop_budget: Option<u64>,
    /// Bytes of device memory tg's buffers may hold at once: the size of the heap they come
    /// from, or less where `TG_MEMORY_LIMIT` caps it. A request past it is
    /// `Error::OutOfMemory`, checked by tg before the driver sees it.
    pub memory_budget: u64,
    /// Buffers have device addresses (`bufferDeviceAddress`): kernels then reach a buffer
    /// larger than `max_storage_buffer_range` through its address, so tensors are limited by
    /// memory, not by one binding's range.
    pub buffer_device_address: bool,
    /// Timeline semaphores are enabled, so an application's timeline semaphores can order
    /// tg's work ([`crate::device::SemaphoreSync`]).
    pub timeline_semaphores: bool,
    /// What a window's offset must be a multiple of ([`crate::device::Buffer::window`]): the
    /// device's `minStorageBufferOffsetAlignment` and `minTexelBufferOffsetAlignment`, and at
    /// least 16 (kernels read and write four elements at a time).
    pub window_alignment: u64,
    /// Texels one uniform texel buffer may hold (`maxTexelBufferElements`), each 16 bytes of
    /// `R32G32B32A32_UINT`; 0 where the device cannot read that format as a uniform texel
    /// buffer. CPU kernels read their inputs through such views where they fit (see
    /// [`crate::target::Lowering::texel_bytes`]) unless [`DeviceInfo::storage_reads`].
    pub max_texel_buffer_elements: u64,
    /// CPU kernels read their inputs as storage buffers even where texel buffers would do
    /// (`TG_STORAGE_READS`, read when the device is created).
    pub storage_reads: bool,
    /// The class kernels are planned for in place of the device's own (`TG_DEVICE_CLASS`,
    /// read when the device is created): `gpu` runs a GPU's kernels on lavapipe, so tests
    /// without a GPU execute them. See [`DeviceInfo::kernel_class`].
    pub class_override: Option<KernelClass>,
}

/// llvmpipe's budget: `LP_MAX_TGSI_LOOP_ITERATIONS` in Mesa's gallivm, shared by all loops
/// of an invocation and counted at every back-edge (measured on Mesa 22.3).
pub const LLVMPIPE_LOOP_BUDGET: u64 = 65_535;

/// The loop budget of a driver, with the `TG_LOOP_BUDGET` override applied.
pub(crate) fn loop_budget(driver: vk::DriverId, name: &str, wanted: Option<&str>) -> Option<u64> {
    let native = (driver == vk::DriverId::MESA_LLVMPIPE || name.contains("llvmpipe"))
        .then_some(LLVMPIPE_LOOP_BUDGET);
    match wanted.and_then(|w| w.trim().parse::<u64>().ok()) {
        Some(b) => Some(native.map_or(b, |n| n.min(b)).max(1)),
        None => native,
    }
}

impl DeviceInfo {
    /// The class tg plans kernels for: [`DeviceInfo::class_override`] where set, else CPU
    /// kernels for a CPU device and GPU kernels for every other type.
    pub fn kernel_class(&self) -> KernelClass {
        self.class_override.unwrap_or(match self.device_type {
            DeviceType::Cpu => KernelClass::Cpu,
            DeviceType::Discrete
            | DeviceType::Integrated
            | DeviceType::Virtual
            | DeviceType::Other => KernelClass::Gpu,
        })
    }

    /// One line with the optional features, for logs and bug reports.
    pub fn summary(&self) -> String {
        let flags = [
            (self.shader_float16, "f16"),
            (self.shader_int8, "i8"),
            (self.shader_int16, "i16"),
            (self.shader_int64, "i64"),
            (self.shader_float64, "f64"),
            (self.storage_16bit, "storage16"),
            (self.storage_8bit, "storage8"),
            (self.subgroup_arithmetic, "subgroup-arith"),
            (self.subgroup_shuffle, "subgroup-shuffle"),
            (self.subgroup_ballot, "subgroup-ballot"),
            (self.host_visible_device_memory, "mapped"),
            (self.buffer_device_address, "addresses"),
            (self.timeline_semaphores, "timeline"),
            (self.timestamps, "timestamps"),
            (self.validation, "validation"),
        ];
        let on: Vec<&str> = flags
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| *n)
            .collect();
        let mut budget = format!(", memory {} MiB", self.memory_budget >> 20);
        if let Some(b) = self.loop_budget {
            budget.push_str(&format!(", loop budget {b}"));
        }
        format!(
            "{self}; subgroup {}, max buffer {} MiB, shared {} KiB, workgroup {} ({:?}){budget}; {}",
            self.subgroup_size,
            self.max_storage_buffer_range >> 20,
            self.max_shared_memory >> 10,
            self.max_workgroup_invocations,
            self.max_workgroup_size,
            on.join(" "),
        )
    }

    /// The driver without build details, and without its name where the device name repeats
    /// it ("llvmpipe Mesa 22.3.6 (LLVM 15.0.6)" on "llvmpipe (...)" gives "Mesa 22.3.6").
    fn short_driver(&self) -> &str {
        let d = self.driver.split(" (").next().unwrap_or_default();
        match d.split_once(' ') {
            Some((first, rest)) if self.name.starts_with(first) => rest,
            _ => d,
        }
    }
}

impl fmt::Display for DeviceInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (ma, mi, pa) = self.api_version;
        write!(
            f,
            "{} [{}, Vulkan {ma}.{mi}.{pa}, {}]",
            self.name,
            self.device_type,
            self.short_driver()
        )?;
        match self.class_override {
            Some(class) => write!(f, " planning {class} kernels"),
            None => Ok(()),
        }
    }
}

/// Reads a fixed-size C string array from a Vulkan struct.
pub(crate) fn c_text(raw: Result<&std::ffi::CStr, std::ffi::FromBytesUntilNulError>) -> String {
    raw.map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Splits a packed Vulkan version.
pub(crate) fn version(v: u32) -> (u32, u32, u32) {
    (
        vk::api_version_major(v),
        vk::api_version_minor(v),
        vk::api_version_patch(v),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_is_short() {
        let info = DeviceInfo {
            name: "llvmpipe (LLVM 15.0.6, 256 bits)".into(),
            device_type: DeviceType::Cpu,
            api_version: (1, 3, 230),
            driver: "llvmpipe Mesa 22.3.6 (LLVM 15.0.6)".into(),
            ..Default::default()
        };
        assert_eq!(
            info.to_string(),
            "llvmpipe (LLVM 15.0.6, 256 bits) [cpu, Vulkan 1.3.230, Mesa 22.3.6]"
        );
        let nv = DeviceInfo {
            name: "NVIDIA H200".into(),
            device_type: DeviceType::Discrete,
            api_version: (1, 3, 277),
            driver: "NVIDIA 550.54.15".into(),
            ..Default::default()
        };
        assert_eq!(
            nv.to_string(),
            "NVIDIA H200 [discrete, Vulkan 1.3.277, 550.54.15]"
        );
        let as_gpu = DeviceInfo {
            class_override: Some(KernelClass::Gpu),
            ..info
        };
        assert!(
            as_gpu
                .to_string()
                .ends_with("Mesa 22.3.6] planning gpu kernels")
        );
    }

    #[test]
    fn kernel_class_follows_the_device_unless_overridden() {
        let mut info = DeviceInfo {
            device_type: DeviceType::Cpu,
            ..Default::default()
        };
        assert_eq!(info.kernel_class(), KernelClass::Cpu);
        info.class_override = Some(KernelClass::Gpu);
        assert_eq!(info.kernel_class(), KernelClass::Gpu);
        for t in [
            DeviceType::Discrete,
            DeviceType::Integrated,
            DeviceType::Virtual,
            DeviceType::Other,
        ] {
            let gpu = DeviceInfo {
                device_type: t,
                ..Default::default()
            };
            assert_eq!(gpu.kernel_class(), KernelClass::Gpu, "{t}");
        }
    }

    #[test]
    fn device_class_values_parse() {
        assert_eq!(class_override(None).unwrap(), None);
        assert_eq!(class_override(Some(" ")).unwrap(), None);
        assert_eq!(class_override(Some("GPU")).unwrap(), Some(KernelClass::Gpu));
        assert_eq!(class_override(Some("cpu")).unwrap(), Some(KernelClass::Cpu));
        let err = class_override(Some("tpu")).unwrap_err();
        assert!(
            matches!(&err, crate::Error::Argument { op: "TG_DEVICE_CLASS", message } if message.contains("\"tpu\"")),
            "{err}"
        );
    }
}
