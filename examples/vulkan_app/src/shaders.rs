//! The application's own compute shaders on its [`App`]: pipelines of GLSL compiled with the
//! compiler tg uses, dispatched on the queue the application shares with tg and ordered
//! against tg's work by a timeline semaphore.

use std::error::Error;

use tg::runtime::ash::vk;
use tg::runtime::device::{Device, KernelLayout};

use crate::App;

/// One of the application's compute pipelines.
pub struct AppPipeline {
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    module: vk::ShaderModule,
    descriptors: vk::DescriptorPool,
    set: vk::DescriptorSet,
}

/// The application's own shaders: pipelines of its GLSL, run on the queue it shares with tg.
impl App {
    /// A compute pipeline of `glsl` with `bindings` storage buffers and a `uint n` push
    /// constant, compiled here with the same compiler tg uses.
    pub fn pipeline(&self, glsl: &str, bindings: u32) -> Result<AppPipeline, Box<dyn Error>> {
        let spirv = tg::runtime::compile::compile_glsl(glsl)?;
        // storage buffers at set 0, bindings 0..bindings: the convention of tg's kernels
        let binding = KernelLayout {
            bindings,
            texels: 0,
            push_constant_bytes: 4,
        }
        .descriptor_bindings();
        // SAFETY: objects of this device, destroyed in `destroy`.
        unsafe {
            let set_layout = self.device.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&binding),
                None,
            )?;
            let ranges = [vk::PushConstantRange::default()
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
                .size(4)];
            let layouts = [set_layout];
            let layout = self.device.create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default()
                    .set_layouts(&layouts)
                    .push_constant_ranges(&ranges),
                None,
            )?;
            let module = self
                .device
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&spirv), None)?;
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(c"main");
            let pipeline = self
                .device
                .create_compute_pipelines(
                    vk::PipelineCache::null(),
                    &[vk::ComputePipelineCreateInfo::default()
                        .stage(stage)
                        .layout(layout)],
                    None,
                )
                .map_err(|(_, e)| e)?[0];
            let sizes = [vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(bindings)];
            let descriptors = self.device.create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(1)
                    .pool_sizes(&sizes),
                None,
            )?;
            let set = self.device.allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(descriptors)
                    .set_layouts(&layouts),
            )?[0];
            Ok(AppPipeline {
                set_layout,
                layout,
                pipeline,
                module,
                descriptors,
                set,
            })
        }
    }

    /// Runs `p` over `n` elements (its shader's workgroups are 64 wide) with `buffers` (buffer, offset, range) bound in order, on the
    /// queue it shares with tg: on the device, the work waits for `sem` to reach `wait` and
    /// then signals `signal`. The command buffer lives until the pool is destroyed.
    pub fn dispatch(
        &self,
        tg_device: &Device,
        p: &AppPipeline,
        n: u32,
        buffers: &[(vk::Buffer, u64, u64)],
        sem: vk::Semaphore,
        (wait, signal): (Option<u64>, u64),
    ) -> Result<(), vk::Result> {
        let infos: Vec<[vk::DescriptorBufferInfo; 1]> = buffers
            .iter()
            .map(|&(buffer, offset, range)| {
                [vk::DescriptorBufferInfo {
                    buffer,
                    offset,
                    range,
                }]
            })
            .collect();
        let writes: Vec<_> = infos
            .iter()
            .enumerate()
            .map(|(b, info)| {
                vk::WriteDescriptorSet::default()
                    .dst_set(p.set)
                    .dst_binding(b as u32)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .buffer_info(info)
            })
            .collect();
        // SAFETY: the set is not in use by pending work (each pipeline runs once); the command
        // buffer is recorded and submitted here, the queue taken under tg's lock.
        unsafe {
            self.device.update_descriptor_sets(&writes, &[]);
            let cmd = self.device.allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(self.pool)
                    .command_buffer_count(1),
            )?[0];
            self.device.begin_command_buffer(
                cmd,
                &vk::CommandBufferBeginInfo::default()
                    .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
            )?;
            self.device
                .cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, p.pipeline);
            self.device.cmd_bind_descriptor_sets(
                cmd,
                vk::PipelineBindPoint::COMPUTE,
                p.layout,
                0,
                &[p.set],
                &[],
            );
            self.device.cmd_push_constants(
                cmd,
                p.layout,
                vk::ShaderStageFlags::COMPUTE,
                0,
                &n.to_ne_bytes(),
            );
            self.device.cmd_dispatch(cmd, n.div_ceil(64), 1, 1);
            // the host reads the output once the semaphore says the work is done
            let host = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            self.device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &host,
                &[],
                &[],
            );
            self.device.end_command_buffer(cmd)?;
            let cmds = [cmd];
            let waits: Vec<_> = wait.iter().map(|_| sem).collect();
            let wait_values: Vec<_> = wait.into_iter().collect();
            let stages: Vec<_> = wait
                .iter()
                .map(|_| vk::PipelineStageFlags::COMPUTE_SHADER)
                .collect();
            let signals = [sem];
            let signal_values = [signal];
            let mut timeline = vk::TimelineSemaphoreSubmitInfo::default()
                .wait_semaphore_values(&wait_values)
                .signal_semaphore_values(&signal_values);
            let submit = vk::SubmitInfo::default()
                .command_buffers(&cmds)
                .wait_semaphores(&waits)
                .wait_dst_stage_mask(&stages)
                .signal_semaphores(&signals)
                .push_next(&mut timeline);
            tg_device.with_queue(|q| self.device.queue_submit(q, &[submit], vk::Fence::null()))
        }
    }

    /// Blocks the host until `sem` reaches `value`.
    pub fn wait(&self, sem: vk::Semaphore, value: u64) -> Result<(), vk::Result> {
        let sems = [sem];
        let values = [value];
        // SAFETY: a semaphore of this device.
        unsafe {
            self.device.wait_semaphores(
                &vk::SemaphoreWaitInfo::default()
                    .semaphores(&sems)
                    .values(&values),
                u64::MAX,
            )
        }
    }

    /// Waits until the device has finished everything submitted to it. A timeline value
    /// reached on the host does not mean the driver and the validation layer have retired
    /// the submission that signalled it (on lavapipe with the layer, destroying the semaphore
    /// before then crashes a driver thread now and then), so the application idles before it
    /// destroys what its submissions used.
    pub fn idle(&self) -> Result<(), vk::Result> {
        // SAFETY: the device is alive; the application holds the queue's external
        // synchronisation here (tg has no realize in flight).
        unsafe { self.device.device_wait_idle() }
    }

    /// Destroys `p`, and `sem` unless it is null, once no pending work uses them.
    pub fn destroy(&self, p: AppPipeline, sem: vk::Semaphore) {
        // SAFETY: no pending work uses these objects.
        unsafe {
            self.device.destroy_pipeline(p.pipeline, None);
            self.device.destroy_shader_module(p.module, None);
            self.device.destroy_pipeline_layout(p.layout, None);
            self.device.destroy_descriptor_pool(p.descriptors, None);
            self.device
                .destroy_descriptor_set_layout(p.set_layout, None);
            if sem != vk::Semaphore::null() {
                self.device.destroy_semaphore(sem, None);
            }
        }
    }
}
