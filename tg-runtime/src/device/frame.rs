//! Reusable per-submission resources: a command pool and buffer, a fence, a descriptor pool and
//! a timestamp query pool. Command pools are externally synchronized, so each submission takes
//! a whole frame from a free list and returns it after its fence has signalled.

use ash::vk;

use super::sync::SemaphoreSync;
use super::{Core, lock};
use crate::{Error, Result};

pub(crate) struct Frame {
    pool: vk::CommandPool,
    pub(crate) cmd: vk::CommandBuffer,
    fence: vk::Fence,
    descriptors: vk::DescriptorPool,
    /// (sets, descriptors) the descriptor pool holds: `descriptors` of each type, storage
    /// buffers and uniform texel buffers.
    descriptor_capacity: (u32, u32),
    queries: vk::QueryPool,
    query_capacity: u32,
}

impl Frame {
    fn new(device: &ash::Device, family: u32) -> Result<Self> {
        let info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
            .flags(vk::CommandPoolCreateFlags::TRANSIENT);
        // SAFETY: plain object creation; partial results are destroyed on failure.
        unsafe {
            let pool = device
                .create_command_pool(&info, None)
                .map_err(|e| Error::vk("vkCreateCommandPool", e))?;
            let alloc = vk::CommandBufferAllocateInfo::default()
                .command_pool(pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1);
            let cmd = match device.allocate_command_buffers(&alloc) {
                Ok(cmds) => cmds[0],
                Err(e) => {
                    device.destroy_command_pool(pool, None);
                    return Err(Error::vk("vkAllocateCommandBuffers", e));
                }
            };
            let fence = match device.create_fence(&vk::FenceCreateInfo::default(), None) {
                Ok(f) => f,
                Err(e) => {
                    device.destroy_command_pool(pool, None);
                    return Err(Error::vk("vkCreateFence", e));
                }
            };
            Ok(Frame {
                pool,
                cmd,
                fence,
                descriptors: vk::DescriptorPool::null(),
                descriptor_capacity: (0, 0),
                queries: vk::QueryPool::null(),
                query_capacity: 0,
            })
        }
    }

    /// Allocates one descriptor set per layout from this frame's pool, growing the pool when
    /// it is too small. Sets from the previous use are released by the reset.
    pub(crate) fn descriptor_sets(
        &mut self,
        device: &ash::Device,
        layouts: &[vk::DescriptorSetLayout],
        descriptors: u32,
    ) -> Result<Vec<vk::DescriptorSet>> {
        if layouts.is_empty() {
            return Ok(Vec::new());
        }
        let sets = layouts.len() as u32;
        let (have_sets, have_descriptors) = self.descriptor_capacity;
        // SAFETY: the pool's previous sets belong to a submission that has completed.
        unsafe {
            if sets > have_sets || descriptors > have_descriptors {
                if self.descriptors != vk::DescriptorPool::null() {
                    device.destroy_descriptor_pool(self.descriptors, None);
                    self.descriptors = vk::DescriptorPool::null();
                    self.descriptor_capacity = (0, 0);
                }
                let want = (
                    sets.max(have_sets * 2).max(16),
                    descriptors.max(have_descriptors * 2).max(64),
                );
                let sizes = [
                    vk::DescriptorPoolSize {
                        ty: vk::DescriptorType::STORAGE_BUFFER,
                        descriptor_count: want.1,
                    },
                    vk::DescriptorPoolSize {
                        ty: vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
                        descriptor_count: want.1,
                    },
                ];
                let info = vk::DescriptorPoolCreateInfo::default()
                    .max_sets(want.0)
                    .pool_sizes(&sizes);
                self.descriptors = device
                    .create_descriptor_pool(&info, None)
                    .map_err(|e| Error::vk("vkCreateDescriptorPool", e))?;
                self.descriptor_capacity = want;
            } else {
                device
                    .reset_descriptor_pool(self.descriptors, vk::DescriptorPoolResetFlags::empty())
                    .map_err(|e| Error::vk("vkResetDescriptorPool", e))?;
            }
            let info = vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(self.descriptors)
                .set_layouts(layouts);
            device
                .allocate_descriptor_sets(&info)
                .map_err(|e| Error::vk("vkAllocateDescriptorSets", e))
        }
    }

    /// The query pool, if timing ever asked for one.
    pub(crate) fn queries(&self) -> Option<vk::QueryPool> {
        (self.queries != vk::QueryPool::null()).then_some(self.queries)
    }

    /// A timestamp query pool with at least `count` queries, reset in the command buffer.
    pub(crate) fn query_pool(&mut self, device: &ash::Device, count: u32) -> Result<vk::QueryPool> {
        // SAFETY: the old pool belongs to a completed submission.
        unsafe {
            if count > self.query_capacity {
                if self.queries != vk::QueryPool::null() {
                    device.destroy_query_pool(self.queries, None);
                    self.queries = vk::QueryPool::null();
                    self.query_capacity = 0;
                }
                let want = count.max(self.query_capacity * 2).max(32);
                let info = vk::QueryPoolCreateInfo::default()
                    .query_type(vk::QueryType::TIMESTAMP)
                    .query_count(want);
                self.queries = device
                    .create_query_pool(&info, None)
                    .map_err(|e| Error::vk("vkCreateQueryPool", e))?;
                self.query_capacity = want;
            }
            device.cmd_reset_query_pool(self.cmd, self.queries, 0, count);
        }
        Ok(self.queries)
    }
}

impl Frame {
    /// Destroys the frame's objects (its device is closing; its submission completed).
    pub(crate) fn destroy(self, device: &ash::Device) {
        // SAFETY: the frame's last submission completed, and nothing else uses its objects;
        // null handles are ignored.
        unsafe {
            device.destroy_descriptor_pool(self.descriptors, None);
            device.destroy_query_pool(self.queries, None);
            device.destroy_fence(self.fence, None);
            device.destroy_command_pool(self.pool, None);
        }
    }
}

impl Core {
    /// A frame whose command buffer is recording.
    pub(crate) fn begin_frame(&self) -> Result<Frame> {
        let reused = lock(&self.frames).pop();
        let frame = match reused {
            Some(f) => f,
            None => Frame::new(&self.device.raw, self.queue_family)?,
        };
        let begin = vk::CommandBufferBeginInfo::default()
            .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: the frame's last submission (if any) has completed, so its pool can be reset.
        let begun = unsafe {
            let d = &self.device.raw;
            d.reset_command_pool(frame.pool, vk::CommandPoolResetFlags::empty())
                .map_err(|e| Error::vk("vkResetCommandPool", e))
                .and_then(|()| {
                    d.begin_command_buffer(frame.cmd, &begin)
                        .map_err(|e| Error::vk("vkBeginCommandBuffer", e))
                })
        };
        match begun {
            Ok(()) => Ok(frame),
            Err(e) => {
                self.recycle(frame);
                Err(e)
            }
        }
    }

    /// Ends, submits and waits for the frame's command buffer. On success the frame is handed
    /// back for reading results, then `recycle`. A frame whose submission did not complete is
    /// leaked rather than reused while the device may still use it.
    pub(crate) fn submit_and_wait(&self, frame: Frame) -> Result<Frame> {
        let frame = self.submit_frame(frame, &SemaphoreSync::default())?;
        self.finish_frame(&frame)?;
        Ok(frame)
    }

    /// Ends and submits the frame's command buffer without waiting, after the semaphores
    /// `sync` waits for and before those it signals; the frame goes back to the caller to
    /// keep until [`Core::finish_frame`] says it completed.
    pub(crate) fn submit_frame(&self, frame: Frame, sync: &SemaphoreSync) -> Result<Frame> {
        let d = &self.device.raw;
        // SAFETY: the command buffer is recording (begin_frame) and is submitted once.
        if let Err(e) = unsafe { d.end_command_buffer(frame.cmd) } {
            self.recycle(frame);
            return Err(Error::vk("vkEndCommandBuffer", e));
        }
        let cmds = [frame.cmd];
        // the application's semaphores a `Device::synced` scope left for the next submission
        let sync = &sync.with_pending_waits(self.id());
        let waits = sync.wait_handles();
        let stages = vec![
            vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER;
            waits.len()
        ];
        let signals = sync.signal_handles();
        let (wait_values, signal_values) = (sync.wait_values(), sync.signal_values());
        let mut timeline = vk::TimelineSemaphoreSubmitInfo::default()
            .wait_semaphore_values(&wait_values)
            .signal_semaphore_values(&signal_values);
        let mut info = vk::SubmitInfo::default()
            .command_buffers(&cmds)
            .wait_semaphores(&waits)
            .wait_dst_stage_mask(&stages)
            .signal_semaphores(&signals);
        if sync.has_timeline() {
            info = info.push_next(&mut timeline);
        }
        // SAFETY: the queue is used only under its lock; the fence is unsignalled; the
        // semaphores are the application's, valid by the contract of `submit_synced`.
        let submitted = unsafe { d.queue_submit(*lock(&self.queue), &[info], frame.fence) };
        if let Err(e) = submitted {
            self.recycle(frame);
            return Err(Error::vk("vkQueueSubmit", e));
        }
        Ok(frame)
    }

    /// Has the frame's submission completed?
    pub(crate) fn frame_done(&self, frame: &Frame) -> Result<bool> {
        // SAFETY: querying our own fence.
        unsafe { self.device.raw.get_fence_status(frame.fence) }
            .map_err(|e| Error::vk("vkGetFenceStatus", e))
    }

    /// Waits for the frame's submission and resets its fence for reuse.
    pub(crate) fn finish_frame(&self, frame: &Frame) -> Result<()> {
        let d = &self.device.raw;
        // SAFETY: waiting on and then resetting our own fence.
        unsafe {
            d.wait_for_fences(&[frame.fence], true, u64::MAX)
                .map_err(|e| Error::vk("vkWaitForFences", e))?;
            d.reset_fences(&[frame.fence])
                .map_err(|e| Error::vk("vkResetFences", e))
        }
    }

    pub(crate) fn recycle(&self, frame: Frame) {
        lock(&self.frames).push(frame);
    }
}
