//! Host <-> device copies: a memcpy into mapped memory where buffers are host-visible, else a
//! staging buffer and `vkCmdCopyBuffer` (always for an application's buffer, which tg does not
//! map).

use ash::vk;

use super::Core;
use super::memory::Buffer;
use super::placement::Placement;
use crate::{Error, Result};

impl Core {
    pub(crate) fn write_impl(&self, buf: &Buffer, offset: u64, data: &[u8]) -> Result<()> {
        check_range("Device::write", buf, offset, data.len())?;
        if data.is_empty() {
            return Ok(());
        }
        // no kernel still in flight may read or write what the host overwrites
        self.wait_impl(buf.last_use())?;
        let offset = buf.offset() + offset;
        if let (Placement::Mapped { .. }, Some(slot)) = (self.memory.placement, buf.slot()) {
            return self.memory.write_mapped(slot, offset, data);
        }
        let staging = self.memory.staging(data.len() as u64, true)?;
        let copied = self.memory.write_mapped(&staging, 0, data).and_then(|()| {
            self.copy(
                staging.raw,
                buf.raw(),
                0,
                offset,
                data.len() as u64,
                Direction::Upload,
            )
        });
        self.memory.free_slot(staging);
        copied
    }

    pub(crate) fn read_impl(&self, buf: &Buffer, offset: u64, out: &mut [u8]) -> Result<()> {
        check_range("Device::read", buf, offset, out.len())?;
        if out.is_empty() {
            return Ok(());
        }
        self.wait_impl(buf.last_write())?;
        let offset = buf.offset() + offset;
        if let (Placement::Mapped { .. }, Some(slot)) = (self.memory.placement, buf.slot()) {
            return self.memory.read_mapped(slot, offset, out);
        }
        let staging = self.memory.staging(out.len() as u64, false)?;
        let copied = self
            .copy(
                buf.raw(),
                staging.raw,
                offset,
                0,
                out.len() as u64,
                Direction::Download,
            )
            .and_then(|()| self.memory.read_mapped(&staging, 0, out));
        self.memory.free_slot(staging);
        copied
    }

    /// One copy in its own submission, fenced, with the barriers that order it against
    /// kernels before and after.
    fn copy(
        &self,
        src: vk::Buffer,
        dst: vk::Buffer,
        src_offset: u64,
        dst_offset: u64,
        len: u64,
        dir: Direction,
    ) -> Result<()> {
        use vk::{AccessFlags as A, PipelineStageFlags as S};
        let frame = self.begin_frame()?;
        let d = &self.device.raw;
        let cmd = frame.cmd;
        let barrier = |buffer, src_access, dst_access| {
            [vk::BufferMemoryBarrier::default()
                .src_access_mask(src_access)
                .dst_access_mask(dst_access)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .buffer(buffer)
                .offset(0)
                .size(vk::WHOLE_SIZE)]
        };
        let device_buffer = match dir {
            Direction::Upload => dst,
            Direction::Download => src,
        };
        let earlier = S::COMPUTE_SHADER | S::TRANSFER;
        // SAFETY: recording into the frame's command buffer; the slots outlive the wait below.
        unsafe {
            // Kernels and copies submitted before must be done with (and have written) the
            // device buffer before the copy touches it.
            let before = barrier(
                device_buffer,
                A::SHADER_WRITE | A::TRANSFER_WRITE,
                match dir {
                    Direction::Upload => A::TRANSFER_WRITE,
                    Direction::Download => A::TRANSFER_READ,
                },
            );
            d.cmd_pipeline_barrier(
                cmd,
                earlier,
                S::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &before,
                &[],
            );
            let region = [vk::BufferCopy {
                src_offset,
                dst_offset,
                size: len,
            }];
            d.cmd_copy_buffer(cmd, src, dst, &region);
            let after = match dir {
                // Later kernels and copies see the new contents.
                Direction::Upload => (
                    barrier(
                        dst,
                        A::TRANSFER_WRITE,
                        A::SHADER_READ | A::SHADER_WRITE | A::TRANSFER_READ | A::TRANSFER_WRITE,
                    ),
                    S::COMPUTE_SHADER | S::TRANSFER,
                ),
                // The host sees what the copy wrote to staging memory.
                Direction::Download => (barrier(dst, A::TRANSFER_WRITE, A::HOST_READ), S::HOST),
            };
            d.cmd_pipeline_barrier(
                cmd,
                S::TRANSFER,
                after.1,
                vk::DependencyFlags::empty(),
                &[],
                &after.0,
                &[],
            );
        }
        let frame = self.submit_and_wait(frame)?;
        self.recycle(frame);
        Ok(())
    }
}

#[derive(Clone, Copy)]
enum Direction {
    Upload,
    Download,
}

fn check_range(op: &'static str, buf: &Buffer, offset: u64, len: usize) -> Result<()> {
    match offset.checked_add(len as u64) {
        Some(end) if end <= buf.size() => Ok(()),
        _ => Err(Error::Argument {
            op,
            message: format!(
                "{len} bytes at offset {offset} do not fit in a buffer of {} bytes",
                buf.size()
            ),
        }),
    }
}
