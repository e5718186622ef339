//! tg inside a Vulkan application.
//!
//! The application creates its own instance and device with ash, fills a buffer with a compute
//! shader of its own, hands that buffer to a `#[kernel]` function (no copy), and reads tg's
//! output buffer in a second shader of its own. Neither side waits on the host between them:
//! one timeline semaphore orders the fill (value 1), tg's kernels (2) and the read (3). Closing
//! tg leaves the device as the application made it, which the validation layer checks when the
//! application destroys it: run with `TG_VALIDATION=1` to have every message fail the run.
//!
//! `cargo run -p vulkan_app`

use std::error::Error;

use tg::prelude::*;
use tg::runtime::ash::vk;
use tg::runtime::device::{Device, KernelLayout, Semaphore, SemaphoreSync};
use vulkan_app::App;

/// Elements of the application's buffers (a multiple of four: tg's kernels move whole vec4s).
const N: usize = 4096;

/// The application's first shader: `data[i] = 3 sin(i / 50) + 1`.
const FILL: &str = "#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { float data[]; };
layout(push_constant) uniform Push { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) data[i] = 3.0 * sin(float(i) / 50.0) + 1.0;
}
";

/// The application's second shader: it reads tg's output, `out[i] = 100 y[i]`.
const READ: &str = "#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float y[]; };
layout(set = 0, binding = 1) buffer Out { float o[]; };
layout(push_constant) uniform Push { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) o[i] = 100.0 * y[i];
}
";

/// tg's part: scale to zero mean and unit RMS, then squash.
#[kernel]
fn standardize<const L: usize>(x: Tensor<shape![L]>) -> Tensor<shape![L]> {
    let centered = x - x.mean();
    let rms = (centered * centered).mean().sqrt();
    (centered / rms).tanh()
}

fn main() -> Result<(), Box<dyn Error>> {
    let app = App::new()?;
    // SAFETY: every handle in `raw` lives until `app.finish`, after `close` below succeeded;
    // the application submits to the shared queue only inside `with_queue`.
    let tg_device = unsafe { Device::from_raw(app.raw())? };
    println!("tg on the application's device: {}", tg_device.info().name);

    let input = app.buffer(N, false)?;
    let mut output = app.buffer(N, true)?;
    let sem = app.timeline()?;
    let fill = app.pipeline(FILL, 1)?;
    let read = app.pipeline(READ, 2)?;

    // 1. the application fills `input` and signals 1
    let bytes = (N * 4) as u64;
    app.dispatch(&tg_device, &fill, &[(input.raw, 0, bytes)], sem, (None, 1))?;

    // 2. tg waits for 1, runs `standardize` on the application's buffer, signals 2
    // SAFETY: `input` is a storage buffer of this device with transfer usage, alive until
    // `app.free` below, after the tensors over it were dropped and tg closed.
    let x = Tensor::<shape![N]>::from_device_buffer(unsafe {
        tg_device.import_buffer(input.raw, 0, bytes)?
    })?;
    let sync = SemaphoreSync {
        wait: vec![Semaphore::timeline(sem, 1)],
        signal: vec![Semaphore::timeline(sem, 2)],
    };
    let y = tg_device.synced(&sync, || {
        let y = standardize(x.clone());
        y.realize()?;
        Ok(y)
    })?;
    let y_buffer = y.device_buffer()?;
    println!(
        "tg's output: {} bytes at offset {} of its buffer",
        y_buffer.size(),
        y_buffer.offset()
    );

    // 3. the application waits for 2, reads tg's buffer in its own shader, signals 3
    app.dispatch(
        &tg_device,
        &read,
        &[
            (y_buffer.raw(), y_buffer.offset(), bytes),
            (output.raw, 0, bytes),
        ],
        sem,
        (Some(2), 3),
    )?;
    app.wait(sem, 3)?;

    // the host checks the application's output against its own arithmetic
    let xs: Vec<f64> = (0..N)
        .map(|i| 3.0 * (i as f64 / 50.0).sin() + 1.0)
        .collect();
    let mean = xs.iter().sum::<f64>() / N as f64;
    let rms = (xs.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / N as f64).sqrt();
    let got = output.host().to_vec();
    let worst = xs
        .iter()
        .zip(&got)
        .map(|(v, g)| (100.0 * ((v - mean) / rms).tanh() - *g as f64).abs())
        .fold(0.0, f64::max);
    println!("first values read back by the application: {:?}", &got[..4]);
    println!("largest error against the host's arithmetic: {worst:.2e} (of values up to 100)");

    drop((x, y, y_buffer));
    tg_device.close()?;
    app.idle()?;
    app.free(input);
    app.free(output);
    app.destroy(fill, sem);
    app.destroy(read, vk::Semaphore::null());
    let messages = app.finish();
    if !messages.is_empty() {
        return Err(format!("validation messages: {messages:#?}").into());
    }
    if worst > 1e-2 {
        return Err(format!("wrong result: error {worst}").into());
    }
    println!("ok: tg closed, the application destroyed its device with nothing left on it");
    Ok(())
}

/// One of the application's compute pipelines.
struct AppPipeline {
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    module: vk::ShaderModule,
    descriptors: vk::DescriptorPool,
    set: vk::DescriptorSet,
}

/// The application's own shaders on its [`App`] (a trait: `App` is the library's type):
/// pipelines of its GLSL, run on the queue it shares with tg.
trait Shaders {
    /// A compute pipeline of `glsl` with `bindings` storage buffers and a `uint n` push
    /// constant, compiled here with the same compiler tg uses.
    fn pipeline(&self, glsl: &str, bindings: u32) -> Result<AppPipeline, Box<dyn Error>>;

    /// Runs `p` over N elements with `buffers` (buffer, offset, range) bound in order, on the
    /// queue it shares with tg: on the device, the work waits for `sem` to reach `wait` and
    /// then signals `signal`. The command buffer lives until the pool is destroyed.
    fn dispatch(
        &self,
        tg_device: &Device,
        p: &AppPipeline,
        buffers: &[(vk::Buffer, u64, u64)],
        sem: vk::Semaphore,
        wait_signal: (Option<u64>, u64),
    ) -> Result<(), vk::Result>;

    /// Blocks the host until `sem` reaches `value`.
    fn wait(&self, sem: vk::Semaphore, value: u64) -> Result<(), vk::Result>;

    /// Waits until the device has finished everything submitted to it. A timeline value
    /// reached on the host does not mean the driver and the validation layer have retired
    /// the submission that signalled it (on lavapipe with the layer, destroying the semaphore
    /// before then crashes a driver thread now and then), so the application idles before it
    /// destroys what its submissions used.
    fn idle(&self) -> Result<(), vk::Result>;

    /// Destroys `p`, and `sem` unless it is null, once no pending work uses them.
    fn destroy(&self, p: AppPipeline, sem: vk::Semaphore);
}

impl Shaders for App {
    fn pipeline(&self, glsl: &str, bindings: u32) -> Result<AppPipeline, Box<dyn Error>> {
        let spirv = tg::runtime::compile::compile_glsl(glsl)?;
        // storage buffers at set 0, bindings 0..bindings: the convention of tg's kernels
        let binding = KernelLayout {
            bindings,
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

    fn dispatch(
        &self,
        tg_device: &Device,
        p: &AppPipeline,
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
                &(N as u32).to_ne_bytes(),
            );
            self.device.cmd_dispatch(cmd, N.div_ceil(64) as u32, 1, 1);
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

    fn wait(&self, sem: vk::Semaphore, value: u64) -> Result<(), vk::Result> {
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

    fn idle(&self) -> Result<(), vk::Result> {
        // SAFETY: the device is alive; the application holds the queue's external
        // synchronisation here (tg has no realize in flight).
        unsafe { self.device.device_wait_idle() }
    }

    fn destroy(&self, p: AppPipeline, sem: vk::Semaphore) {
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
