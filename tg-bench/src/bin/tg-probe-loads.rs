//! `cargo run --release --bin tg-probe-loads`: what a kernel pays to read memory on the
//! selected device, by the path it reads through. Each of 4096 invocations folds its own
//! row of 768 words (12 MiB in all, as a matrix-vector product reads its weights) read as
//! a storage buffer's `uvec4`s, as its `u64vec4`s, and as a uniform texel buffer's
//! `R32G32B32A32_UINT` texels; a dispatch's wall time from submit to fence (the first one,
//! which compiles, apart), median and fastest of 21, three rounds in turn, and a checksum
//! (the `uvec4` and texel reads fold the same values). It maps its buffers, so it runs where
//! every memory type is host-visible (`DeviceInfo::host_visible_device_memory`: lavapipe,
//! integrated GPUs).
//!
//! Why: tg reads every input as a storage buffer, and lavapipe (Mesa 22.3) loads a storage
//! buffer at a varying address lane by lane, a loop with a bounds check and a branch per
//! lane and component, where it fetches texels as a gather. Measured on this project's
//! 2-core VM: 5.3 GB/s in `uvec4`s, 10.1-10.4 in `u64vec4`s, 24-26 in texels.
//!
//! This probe talks to Vulkan directly (through tg's device, `Device::raw_device`), since tg
//! has no texel-buffer path yet.

use std::time::Instant;

use tg::runtime::ash::vk;
use tg::runtime::device::Device;

const INVOCATIONS: u32 = 4096;
const WORDS: u32 = 768;
const RUNS: u32 = 21;

/// How the probe reads the rows.
#[derive(Clone, Copy, PartialEq)]
enum Path {
    Vectors,
    Pairs,
    Texels,
}

impl Path {
    fn name(self) -> &'static str {
        match self {
            Path::Vectors => "storage buffer, uvec4",
            Path::Pairs => "storage buffer, u64vec4",
            Path::Texels => "uniform texel buffer",
        }
    }

    /// The kernel: `o[q]` is the sum over the row of each four words' xor (the pairs' fold
    /// takes eight words a step, so its sum differs).
    fn shader(self) -> String {
        let (decl, step) = match self {
            Path::Vectors => (
                "layout(std430, set = 0, binding = 1) restrict readonly buffer In { uvec4 v[]; };",
                "for (uint r = 0u; r < W / 4u; r++) { uvec4 w = v[q * (W / 4u) + r]; acc += w.x ^ w.y ^ w.z ^ w.w; }",
            ),
            Path::Pairs => (
                "#extension GL_ARB_gpu_shader_int64 : require\nlayout(std430, set = 0, binding = 1) restrict readonly buffer In { u64vec4 v[]; };",
                "for (uint r = 0u; r < W / 8u; r++) { u64vec4 w = v[q * (W / 8u) + r]; u64vec4 x = w ^ (w >> 32); acc += uint(x.x ^ x.y ^ x.z ^ x.w); }",
            ),
            Path::Texels => (
                "layout(set = 0, binding = 1) uniform usamplerBuffer t;",
                "for (uint r = 0u; r < W / 4u; r++) { uvec4 w = texelFetch(t, int(q * (W / 4u) + r)); acc += w.x ^ w.y ^ w.z ^ w.w; }",
            ),
        };
        format!(
            "#version 450\n{decl}\nlayout(local_size_x = 64) in;\n#define W {WORDS}u\nlayout(std430, set = 0, binding = 0) writeonly buffer Out {{ uint o[]; }};\nvoid main() {{\n  uint q = gl_GlobalInvocationID.x;\n  uint acc = 0u;\n  {step}\n  o[q] = acc;\n}}\n"
        )
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dev = Device::get()?;
    println!("device: {}", dev.info().name);
    if !dev.info().host_visible_device_memory {
        println!("the probe maps its buffers: it needs a device whose memory is host-visible");
        return Ok(());
    }
    let d = dev.raw_device();
    let bytes = u64::from(INVOCATIONS * WORDS * 4);
    let out_bytes = u64::from(INVOCATIONS * 4);
    // SAFETY: every handle is made here on tg's live device and destroyed before it returns;
    // the mapped ranges lie within their allocations; submissions go through `with_queue`
    // (tg's queue lock) and are waited for before their resources are read or destroyed.
    unsafe {
        let buffer = |size: u64, usage: vk::BufferUsageFlags| -> Result<_, vk::Result> {
            let b = d.create_buffer(
                &vk::BufferCreateInfo::default().size(size).usage(usage),
                None,
            )?;
            let req = d.get_buffer_memory_requirements(b);
            let m = d.allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(req.size)
                    .memory_type_index(req.memory_type_bits.trailing_zeros()),
                None,
            )?;
            d.bind_buffer_memory(b, m, 0)?;
            Ok((b, m))
        };
        let (input, input_mem) = buffer(
            bytes,
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER,
        )?;
        let words = d.map_memory(input_mem, 0, bytes, vk::MemoryMapFlags::empty())? as *mut u32;
        for i in 0..(INVOCATIONS * WORDS) as usize {
            words
                .add(i)
                .write(((i as u32).wrapping_mul(2_654_435_761)) >> 3);
        }
        d.unmap_memory(input_mem);
        let (output, output_mem) = buffer(out_bytes, vk::BufferUsageFlags::STORAGE_BUFFER)?;
        let view = d.create_buffer_view(
            &vk::BufferViewCreateInfo::default()
                .buffer(input)
                .format(vk::Format::R32G32B32A32_UINT)
                .range(vk::WHOLE_SIZE),
            None,
        )?;
        let commands = d.create_command_pool(
            &vk::CommandPoolCreateInfo::default().queue_family_index(dev.queue_family()),
            None,
        )?;
        for round in 0..3 {
            for path in [Path::Vectors, Path::Pairs, Path::Texels] {
                let spirv = tg::runtime::compile::compile_glsl(&path.shader())?;
                let kind = match path {
                    Path::Texels => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
                    _ => vk::DescriptorType::STORAGE_BUFFER,
                };
                let binding = |i: u32, ty| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(i)
                        .descriptor_type(ty)
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE)
                };
                let bindings = [
                    binding(0, vk::DescriptorType::STORAGE_BUFFER),
                    binding(1, kind),
                ];
                let set_layout = d.create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                    None,
                )?;
                let layout = d.create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().set_layouts(&[set_layout]),
                    None,
                )?;
                let module = d.create_shader_module(
                    &vk::ShaderModuleCreateInfo::default().code(&spirv),
                    None,
                )?;
                let stage = vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::COMPUTE)
                    .module(module)
                    .name(c"main");
                let pipeline = d
                    .create_compute_pipelines(
                        vk::PipelineCache::null(),
                        &[vk::ComputePipelineCreateInfo::default()
                            .stage(stage)
                            .layout(layout)],
                        None,
                    )
                    .map_err(|(_, e)| e)?[0];
                let sizes = [
                    vk::DescriptorPoolSize {
                        ty: vk::DescriptorType::STORAGE_BUFFER,
                        descriptor_count: 2,
                    },
                    vk::DescriptorPoolSize {
                        ty: vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
                        descriptor_count: 1,
                    },
                ];
                let pool = d.create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(1)
                        .pool_sizes(&sizes),
                    None,
                )?;
                let set = d.allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(pool)
                        .set_layouts(&[set_layout]),
                )?[0];
                let whole = |buffer| {
                    [vk::DescriptorBufferInfo {
                        buffer,
                        offset: 0,
                        range: vk::WHOLE_SIZE,
                    }]
                };
                let (out_info, in_info, views) = (whole(output), whole(input), [view]);
                let write = |i: u32, ty| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(i)
                        .descriptor_type(ty)
                };
                let read = match path {
                    Path::Texels => write(1, kind).texel_buffer_view(&views),
                    _ => write(1, kind).buffer_info(&in_info),
                };
                d.update_descriptor_sets(
                    &[
                        write(0, vk::DescriptorType::STORAGE_BUFFER).buffer_info(&out_info),
                        read,
                    ],
                    &[],
                );
                let cb = d.allocate_command_buffers(
                    &vk::CommandBufferAllocateInfo::default()
                        .command_pool(commands)
                        .command_buffer_count(1),
                )?[0];
                d.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default())?;
                d.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, pipeline);
                d.cmd_bind_descriptor_sets(
                    cb,
                    vk::PipelineBindPoint::COMPUTE,
                    layout,
                    0,
                    &[set],
                    &[],
                );
                d.cmd_dispatch(cb, INVOCATIONS / 64, 1, 1);
                d.end_command_buffer(cb)?;
                let fence = d.create_fence(&vk::FenceCreateInfo::default(), None)?;
                let run = || -> Result<f64, vk::Result> {
                    d.reset_fences(&[fence])?;
                    let start = Instant::now();
                    dev.with_queue(|q| {
                        d.queue_submit(
                            q,
                            &[vk::SubmitInfo::default().command_buffers(&[cb])],
                            fence,
                        )
                    })?;
                    d.wait_for_fences(&[fence], true, u64::MAX)?;
                    Ok(start.elapsed().as_secs_f64() * 1e6)
                };
                let first = run()?;
                let mut us = (0..RUNS).map(|_| run()).collect::<Result<Vec<f64>, _>>()?;
                us.sort_by(f64::total_cmp);
                let sums = d.map_memory(output_mem, 0, out_bytes, vk::MemoryMapFlags::empty())?
                    as *const u32;
                let check: u64 = (0..INVOCATIONS as usize)
                    .map(|i| u64::from(sums.add(i).read()))
                    .sum();
                d.unmap_memory(output_mem);
                let median = us[us.len() / 2];
                println!(
                    "round {round}  {:<24} median {median:8.1} us  fastest {:8.1} us  {:6.2} GB/s  (first, compiling: {:.0} ms)  checksum {check}",
                    path.name(),
                    us[0],
                    bytes as f64 / (median * 1e3),
                    first / 1e3
                );
                d.destroy_fence(fence, None);
                d.free_command_buffers(commands, &[cb]);
                d.destroy_descriptor_pool(pool, None);
                d.destroy_pipeline(pipeline, None);
                d.destroy_shader_module(module, None);
                d.destroy_pipeline_layout(layout, None);
                d.destroy_descriptor_set_layout(set_layout, None);
            }
        }
        d.destroy_command_pool(commands, None);
        d.destroy_buffer_view(view, None);
        d.destroy_buffer(input, None);
        d.destroy_buffer(output, None);
        d.free_memory(input_mem, None);
        d.free_memory(output_mem, None);
    }
    // under TG_VALIDATION=1, what the layer said of the probe's own Vulkan calls
    for m in tg::runtime::device::take_validation_messages() {
        println!("validation: {m}");
    }
    Ok(())
}
