//! Compute pipelines, cached in memory by the caller's key.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use ash::vk;

use super::registry::DeviceId;
use super::{Core, lock};
use crate::{Error, Result};

/// The resources a kernel declares: storage buffers at set 0, bindings `0..bindings`, then
/// uniform texel buffers (of `R32G32B32A32_UINT`, read-only) at bindings
/// `bindings..bindings + texels`, and `push_constant_bytes` bytes of push constants (0 =
/// none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernelLayout {
    /// Storage buffers.
    pub bindings: u32,
    /// Uniform texel buffers, after the storage buffers.
    pub texels: u32,
    /// Push-constant bytes.
    pub push_constant_bytes: u32,
}

impl KernelLayout {
    /// The set-0 layout bindings of this layout's buffers (one each, compute stage): what tg
    /// builds its pipelines with, and what an application building compute pipelines of its
    /// own on tg's device can use for the same convention.
    pub fn descriptor_bindings(&self) -> Vec<vk::DescriptorSetLayoutBinding<'static>> {
        (0..self.bindings + self.texels)
            .map(|b| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b)
                    .descriptor_type(self.descriptor_type(b))
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect()
    }

    /// The descriptor type of binding `b`: a storage buffer, or past them a uniform texel
    /// buffer.
    pub fn descriptor_type(&self, b: u32) -> vk::DescriptorType {
        if b < self.bindings {
            vk::DescriptorType::STORAGE_BUFFER
        } else {
            vk::DescriptorType::UNIFORM_TEXEL_BUFFER
        }
    }

    /// Descriptors in all.
    pub fn descriptors(&self) -> u32 {
        self.bindings + self.texels
    }
}

/// A compute pipeline with its layouts. Its device keeps it until the device closes, then
/// destroys it (a handle held past that is inert: dispatching it anywhere is an error).
pub struct Pipeline {
    key: u64,
    device: DeviceId,
    layout_info: KernelLayout,
    pub(crate) set_layout: vk::DescriptorSetLayout,
    pub(crate) layout: vk::PipelineLayout,
    pub(crate) raw: vk::Pipeline,
}

impl Pipeline {
    /// The key it was created and cached under.
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The resources the kernel declares.
    pub fn kernel_layout(&self) -> KernelLayout {
        self.layout_info
    }

    /// The device it was made on.
    pub fn device_id(&self) -> DeviceId {
        self.device
    }

    /// Destroys the Vulkan objects (its device is closing, no work uses them).
    pub(crate) fn destroy(&self, d: &ash::Device) {
        destroy(d, self.raw, self.layout, self.set_layout);
    }
}

impl fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pipeline")
            .field("key", &format_args!("{:016x}", self.key))
            .field("layout", &self.layout_info)
            .finish()
    }
}

fn destroy(d: &ash::Device, p: vk::Pipeline, l: vk::PipelineLayout, s: vk::DescriptorSetLayout) {
    // SAFETY: null handles are ignored; the objects are unused (the last Arc is gone, and
    // `execute` holds Arcs until its fence signals).
    unsafe {
        d.destroy_pipeline(p, None);
        d.destroy_pipeline_layout(l, None);
        d.destroy_descriptor_set_layout(s, None);
    }
}

impl Core {
    pub(crate) fn pipeline_impl(
        &self,
        key: u64,
        spirv: &[u32],
        layout: KernelLayout,
    ) -> Result<Arc<Pipeline>> {
        if let Some(p) = lock(&self.pipelines).get(&key) {
            return same_layout(p, layout);
        }
        // Built outside the lock: creation can take long (lavapipe compiles with LLVM), and
        // two threads racing on one key merely build it twice.
        let built = Arc::new(self.build_pipeline(key, spirv, layout)?);
        self.pipeline_cache_dirty.store(true, Ordering::Relaxed);
        let kept = Arc::clone(
            lock(&self.pipelines)
                .entry(key)
                .or_insert_with(|| built.clone()),
        );
        if !Arc::ptr_eq(&kept, &built) {
            // another thread built the same one first (a realize prepares its kernels on
            // several threads, and two of them may share a shader): the spare is destroyed
            // with the device, as every pipeline is
            lock(&self.retired).push(built);
        }
        same_layout(&kept, layout)
    }

    fn build_pipeline(&self, key: u64, spirv: &[u32], layout: KernelLayout) -> Result<Pipeline> {
        let bad = |message: String| Error::Argument {
            op: "Device::pipeline",
            message,
        };
        if spirv.first() != Some(&0x0723_0203) {
            return Err(bad("the code is not SPIR-V (no magic number)".into()));
        }
        let max_push = self.info.max_push_constant_bytes;
        if !layout.push_constant_bytes.is_multiple_of(4) || layout.push_constant_bytes > max_push {
            return Err(bad(format!(
                "{} bytes of push constants: must be a multiple of 4 and at most {max_push}",
                layout.push_constant_bytes
            )));
        }
        let d = &self.device.raw;
        let bindings = layout.descriptor_bindings();
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .size(layout.push_constant_bytes)];
        let ranges = if layout.push_constant_bytes > 0 {
            &ranges[..]
        } else {
            &[]
        };
        let mut p = Pipeline {
            key,
            device: self.id(),
            layout_info: layout,
            set_layout: vk::DescriptorSetLayout::null(),
            layout: vk::PipelineLayout::null(),
            raw: vk::Pipeline::null(),
        };
        // SAFETY: objects are created on a live device; on failure `destroy` below frees what
        // was made. The shader module is only needed during creation.
        let made = unsafe {
            (|| -> Result<()> {
                let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
                p.set_layout = d
                    .create_descriptor_set_layout(&info, None)
                    .map_err(|e| Error::vk("vkCreateDescriptorSetLayout", e))?;
                let sets = [p.set_layout];
                let info = vk::PipelineLayoutCreateInfo::default()
                    .set_layouts(&sets)
                    .push_constant_ranges(ranges);
                p.layout = d
                    .create_pipeline_layout(&info, None)
                    .map_err(|e| Error::vk("vkCreatePipelineLayout", e))?;
                let module = d
                    .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(spirv), None)
                    .map_err(|e| Error::vk("vkCreateShaderModule", e))?;
                let stage = vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::COMPUTE)
                    .module(module)
                    .name(c"main");
                let info = [vk::ComputePipelineCreateInfo::default()
                    .stage(stage)
                    .layout(p.layout)];
                let created = d.create_compute_pipelines(self.pipeline_cache, &info, None);
                d.destroy_shader_module(module, None);
                p.raw = created.map_err(|(_, e)| Error::vk("vkCreateComputePipelines", e))?[0];
                Ok(())
            })()
        };
        match made {
            Ok(()) => Ok(p),
            Err(e) => {
                p.destroy(d);
                Err(e)
            }
        }
    }
}

/// One key must always mean one shader; a different layout under a known key is a caller bug
/// (or a hash collision) that would otherwise bind the wrong resources.
fn same_layout(p: &Arc<Pipeline>, layout: KernelLayout) -> Result<Arc<Pipeline>> {
    if p.layout_info == layout {
        return Ok(Arc::clone(p));
    }
    Err(Error::Argument {
        op: "Device::pipeline",
        message: format!(
            "key {:016x} is cached with layout {:?}, requested with {layout:?}",
            p.key, p.layout_info
        ),
    })
}
