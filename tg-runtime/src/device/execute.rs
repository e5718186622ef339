//! Running a sequence of dispatches: one command buffer, one submit, one fence.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use ash::vk;

use super::barriers::{Access, plan};
use super::frame::Frame;
use super::memory::Buffer;
use super::pipeline::Pipeline;
use super::sync::SemaphoreSync;
use super::{Core, lock, registry};
use crate::{Error, Result};

/// A buffer a kernel uses. `writes` marks buffers the kernel may write; barriers are planned
/// from it, so a written buffer must say so. A buffer the kernel reaches `by_address` (its
/// device address among the push constants) takes no descriptor; the others are bound in
/// order, binding 0 first.
#[derive(Clone, Debug)]
pub struct Binding {
    /// The buffer.
    pub buffer: Arc<Buffer>,
    /// Whether the kernel may write it.
    pub writes: bool,
    /// Whether the kernel reaches it through its device address rather than a descriptor.
    pub by_address: bool,
}

/// One kernel launch: bindings in order 0..n, push-constant bytes, workgroup counts.
/// A dispatch with any group count of 0 does nothing and is skipped.
#[derive(Clone, Debug)]
pub struct Dispatch {
    /// The compiled kernel.
    pub pipeline: Arc<Pipeline>,
    /// Its buffers, in binding order.
    pub bindings: Vec<Binding>,
    /// Push-constant bytes (the element count).
    pub push_constants: Vec<u8>,
    /// Workgroups in x, y, z.
    pub groups: [u32; 3],
}

impl Dispatch {
    /// The bindings it describes by descriptor, in binding order, split as its pipeline's
    /// layout declares them: storage buffers, then uniform texel buffers.
    fn described(&self) -> (Vec<&Binding>, Vec<&Binding>) {
        let storage = self.pipeline.kernel_layout().bindings as usize;
        let mut buffers: Vec<&Binding> = self.bindings.iter().filter(|b| !b.by_address).collect();
        let texels = buffers.split_off(storage.min(buffers.len()));
        (buffers, texels)
    }
}

/// What an `execute` did and how long it took.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExecReport {
    /// Dispatches recorded (skipped empty ones excluded).
    pub dispatches: usize,
    /// GPU time of each dispatch in ns, in input order (0 for skipped ones); `None` unless
    /// timing was asked for and the queue has timestamps.
    pub kernel_ns: Option<Vec<u64>>,
    /// Host time of the whole call, recording to fence, in ns.
    pub wall_ns: u64,
}

/// A submission not yet known to be complete: its frame, and the dispatches whose buffers and
/// pipelines it uses (held until it completes).
pub(crate) struct InFlight {
    id: u64,
    frame: Frame,
    _dispatches: Vec<Dispatch>,
}

/// Submissions in flight beyond which a new one first waits for the oldest: each holds a
/// frame and the buffers it uses.
const MAX_IN_FLIGHT: usize = 16;

impl Core {
    pub(crate) fn submit_impl(
        &self,
        dispatches: Vec<Dispatch>,
        sync: &SemaphoreSync,
    ) -> Result<u64> {
        for (i, d) in dispatches.iter().enumerate() {
            self.check_dispatch(i, d)?;
        }
        self.check_sync(sync)?;
        let active: Vec<usize> = (0..dispatches.len())
            .filter(|&i| !dispatches[i].groups.contains(&0))
            .collect();
        if active.is_empty() && sync.is_empty() {
            return Ok(0);
        }
        self.retire_finished()?;
        let mut frame = self.begin_frame()?;
        if let Err(e) = self.record(&mut frame, &dispatches, &active, false) {
            self.recycle(frame);
            return Err(e);
        }
        let oldest = {
            let in_flight = lock(&self.in_flight);
            (in_flight.len() >= MAX_IN_FLIGHT)
                .then(|| in_flight.front().map(|f| f.id))
                .flatten()
        };
        if let Some(id) = oldest {
            self.wait_impl(id)?;
        }
        // the id is taken and the submission queued under one lock, so a wait that finds no
        // entry at or below its id knows that id completed
        let mut in_flight = lock(&self.in_flight);
        let frame = self.submit_frame(frame, sync)?;
        let id = self.submitted.fetch_add(1, Ordering::AcqRel) + 1;
        for d in &dispatches {
            for b in &d.bindings {
                b.buffer.used_by(id, b.writes);
            }
        }
        in_flight.push_back(InFlight {
            id,
            frame,
            _dispatches: dispatches,
        });
        Ok(id)
    }

    /// Waits for submission `id` and everything before it, releasing what they held.
    pub(crate) fn wait_impl(&self, id: u64) -> Result<()> {
        if id <= self.completed.load(Ordering::Acquire) {
            return Ok(());
        }
        let mut in_flight = lock(&self.in_flight);
        while let Some(front) = in_flight.front() {
            if front.id > id {
                break;
            }
            let done = in_flight.pop_front().expect("front exists");
            self.finish_frame(&done.frame)?;
            self.completed.fetch_max(done.id, Ordering::AcqRel);
            self.recycle(done.frame);
        }
        self.completed.fetch_max(id, Ordering::AcqRel);
        Ok(())
    }

    /// Retires the submissions at the front that have completed, without waiting.
    pub(crate) fn retire_finished(&self) -> Result<()> {
        let mut in_flight = lock(&self.in_flight);
        while let Some(front) = in_flight.front() {
            if !self.frame_done(&front.frame)? {
                break;
            }
            let done = in_flight.pop_front().expect("front exists");
            self.finish_frame(&done.frame)?;
            self.completed.fetch_max(done.id, Ordering::AcqRel);
            self.recycle(done.frame);
        }
        Ok(())
    }

    pub(crate) fn execute_impl(&self, dispatches: &[Dispatch], timing: bool) -> Result<ExecReport> {
        let start = Instant::now();
        for (i, d) in dispatches.iter().enumerate() {
            self.check_dispatch(i, d)?;
        }
        let active: Vec<usize> = (0..dispatches.len())
            .filter(|&i| !dispatches[i].groups.contains(&0))
            .collect();
        let timing = timing && self.info.timestamps;
        if active.is_empty() {
            return Ok(ExecReport {
                dispatches: 0,
                kernel_ns: timing.then(|| vec![0; dispatches.len()]),
                wall_ns: start.elapsed().as_nanos() as u64,
            });
        }
        let mut frame = self.begin_frame()?;
        if let Err(e) = self.record(&mut frame, dispatches, &active, timing) {
            self.recycle(frame);
            return Err(e);
        }
        // `dispatches` (and with it every Arc<Buffer> and Arc<Pipeline>) outlives this wait.
        let frame = self.submit_and_wait(frame)?;
        let times = if timing {
            self.kernel_times(&frame, dispatches.len(), &active)
        } else {
            Ok(Vec::new())
        };
        self.recycle(frame);
        Ok(ExecReport {
            dispatches: active.len(),
            kernel_ns: timing.then_some(times?),
            wall_ns: start.elapsed().as_nanos() as u64,
        })
    }

    fn check_dispatch(&self, i: usize, d: &Dispatch) -> Result<()> {
        registry::same("Device::execute", self.id(), d.pipeline.device_id())?;
        for b in &d.bindings {
            registry::same("Device::execute", self.id(), b.buffer.device_id())?;
        }
        let layout = d.pipeline.kernel_layout();
        let bad = |message: String| {
            Err(Error::Argument {
                op: "Device::execute",
                message: format!("dispatch {i}: {message}"),
            })
        };
        let (buffers, texels) = d.described();
        let described = buffers.len() + texels.len();
        if described != layout.descriptors() as usize {
            return bad(format!(
                "{described} bindings for a kernel that declares {}",
                layout.descriptors()
            ));
        }
        if let Some(b) = texels.iter().find(|b| b.writes || b.buffer.is_external()) {
            return bad(format!(
                "buffer {} is bound as a uniform texel buffer, which kernels only read and \
                 which an application's buffer cannot be",
                b.buffer.id()
            ));
        }
        if let Some(b) = d
            .bindings
            .iter()
            .find(|b| b.by_address && b.buffer.address() == 0)
        {
            return bad(format!(
                "buffer {} is used by address on a device without buffer device addresses",
                b.buffer.id()
            ));
        }
        if d.push_constants.len() != layout.push_constant_bytes as usize {
            return bad(format!(
                "{} push-constant bytes for a kernel that declares {}",
                d.push_constants.len(),
                layout.push_constant_bytes
            ));
        }
        let max = self.info.max_workgroup_count;
        if d.groups.iter().zip(max).any(|(&g, m)| g > m) {
            return bad(format!(
                "groups {:?} exceed the device's maximum {max:?}",
                d.groups
            ));
        }
        Ok(())
    }

    fn record(
        &self,
        frame: &mut Frame,
        dispatches: &[Dispatch],
        active: &[usize],
        timing: bool,
    ) -> Result<()> {
        let d = &self.device.raw;
        let cmd = frame.cmd;
        let layouts: Vec<_> = active
            .iter()
            .map(|&i| dispatches[i].pipeline.set_layout)
            .collect();
        let descriptors: u32 = active
            .iter()
            .map(|&i| {
                dispatches[i]
                    .bindings
                    .iter()
                    .filter(|b| !b.by_address)
                    .count() as u32
            })
            .sum();
        let sets = frame.descriptor_sets(d, &layouts, descriptors)?;
        self.write_descriptors(dispatches, active, &sets)?;
        let queries = if timing {
            Some(frame.query_pool(d, active.len() as u32 + 1)?)
        } else {
            None
        };

        let accesses: Vec<Vec<Access>> = active
            .iter()
            .map(|&i| {
                dispatches[i]
                    .bindings
                    .iter()
                    .map(|b| Access {
                        buffer: b.buffer.memory_id(),
                        start: b.buffer.offset(),
                        end: b.buffer.offset() + b.buffer.capacity(),
                        writes: b.writes,
                    })
                    .collect()
            })
            .collect();
        let raw: HashMap<u64, vk::Buffer> = active
            .iter()
            .flat_map(|&i| &dispatches[i].bindings)
            .map(|b| (b.buffer.memory_id(), b.buffer.raw()))
            .collect();
        let any_write = accesses.iter().flatten().any(|a| a.writes);
        let compute = vk::PipelineStageFlags::COMPUTE_SHADER;

        // SAFETY: recording into this frame's command buffer, with handles that stay alive
        // until the fence (see execute_impl).
        unsafe {
            // Orders this submission after earlier ones (executes, staging copies) whose writes
            // a fence wait alone does not make visible to the device.
            let earlier = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)];
            d.cmd_pipeline_barrier(
                cmd,
                compute | vk::PipelineStageFlags::TRANSFER,
                compute,
                vk::DependencyFlags::empty(),
                &earlier,
                &[],
                &[],
            );
            if let Some(q) = queries {
                d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, q, 0);
            }
            for (n, (&i, barrier)) in active.iter().zip(plan(&accesses)).enumerate() {
                let dispatch = &dispatches[i];
                if let Some(visible) = barrier {
                    let buffers: Vec<_> = visible
                        .iter()
                        .map(|&(id, start, end)| {
                            vk::BufferMemoryBarrier::default()
                                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                                .dst_access_mask(
                                    vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
                                )
                                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                                .buffer(raw[&id])
                                .offset(start)
                                .size(end - start)
                        })
                        .collect();
                    d.cmd_pipeline_barrier(
                        cmd,
                        compute,
                        compute,
                        vk::DependencyFlags::empty(),
                        &[],
                        &buffers,
                        &[],
                    );
                }
                let p = &dispatch.pipeline;
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, p.raw);
                d.cmd_bind_descriptor_sets(
                    cmd,
                    vk::PipelineBindPoint::COMPUTE,
                    p.layout,
                    0,
                    &sets[n..=n],
                    &[],
                );
                if !dispatch.push_constants.is_empty() {
                    d.cmd_push_constants(
                        cmd,
                        p.layout,
                        vk::ShaderStageFlags::COMPUTE,
                        0,
                        &dispatch.push_constants,
                    );
                }
                let [x, y, z] = dispatch.groups;
                d.cmd_dispatch(cmd, x, y, z);
                if let Some(q) = queries {
                    d.cmd_write_timestamp(
                        cmd,
                        vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                        q,
                        n as u32 + 1,
                    );
                }
            }
            if any_write {
                // Makes the results visible to the host (mapped reads), which a fence alone
                // does not.
                let host = [vk::MemoryBarrier::default()
                    .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                    .dst_access_mask(vk::AccessFlags::HOST_READ)];
                d.cmd_pipeline_barrier(
                    cmd,
                    compute,
                    vk::PipelineStageFlags::HOST,
                    vk::DependencyFlags::empty(),
                    &host,
                    &[],
                    &[],
                );
            }
        }
        Ok(())
    }

    fn write_descriptors(
        &self,
        dispatches: &[Dispatch],
        active: &[usize],
        sets: &[vk::DescriptorSet],
    ) -> Result<()> {
        let max_range = self.info.max_storage_buffer_range;
        // per dispatch: its storage buffers, then its texel buffers' views
        let mut infos: Vec<(Vec<vk::DescriptorBufferInfo>, Vec<vk::BufferView>)> = Vec::new();
        for &i in active {
            let (buffers, texels) = dispatches[i].described();
            infos.push((
                buffers
                    .iter()
                    .map(|b| {
                        vk::DescriptorBufferInfo::default()
                            .buffer(b.buffer.raw())
                            .offset(b.buffer.offset())
                            .range(b.buffer.capacity().min(max_range))
                    })
                    .collect(),
                texels
                    .iter()
                    .map(|b| b.buffer.texel_view())
                    .collect::<Result<_>>()?,
            ));
        }
        let mut writes = Vec::new();
        for (&set, (buffers, texels)) in sets.iter().zip(&infos) {
            if !buffers.is_empty() {
                writes.push(
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(0)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(buffers),
                );
            }
            if !texels.is_empty() {
                writes.push(
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(buffers.len() as u32)
                        .descriptor_type(vk::DescriptorType::UNIFORM_TEXEL_BUFFER)
                        .texel_buffer_view(texels),
                );
            }
        }
        // SAFETY: the sets are freshly allocated from this frame's pool and not in use.
        unsafe { self.device.raw.update_descriptor_sets(&writes, &[]) };
        Ok(())
    }

    /// Per-dispatch GPU times from the frame's timestamps, in input order.
    fn kernel_times(&self, frame: &Frame, total: usize, active: &[usize]) -> Result<Vec<u64>> {
        let Some(pool) = frame.queries() else {
            return Ok(vec![0; total]);
        };
        let mut stamps = vec![0u64; active.len() + 1];
        // SAFETY: the queries were written by the completed submission.
        unsafe {
            self.device.raw.get_query_pool_results(
                pool,
                0,
                &mut stamps,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
            )
        }
        .map_err(|e| Error::vk("vkGetQueryPoolResults", e))?;
        let mut times = vec![0; total];
        for (n, &i) in active.iter().enumerate() {
            let ticks = stamps[n + 1].wrapping_sub(stamps[n]) & self.timestamp_mask;
            times[i] = (ticks as f64 * self.timestamp_period).round() as u64;
        }
        Ok(times)
    }
}
