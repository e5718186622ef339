//! An application's semaphores around tg's work: a submission of tg can wait, on the device,
//! for the application's work and signal its next work, so neither side waits on the host
//! (nor with `vkDeviceWaitIdle`).

use std::cell::RefCell;

use ash::vk;

use super::registry::DeviceId;
use super::{Core, Device};
use crate::{Error, Result};

thread_local! {
    /// Semaphores a `Device::synced` scope of this thread waits for, until the scope's first
    /// submission on that device takes them.
    static PENDING: RefCell<Vec<(DeviceId, Semaphore)>> = const { RefCell::new(Vec::new()) };
}

/// One semaphore of the application, binary or timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Semaphore {
    /// The semaphore, made on the device tg runs on.
    pub raw: vk::Semaphore,
    /// For a timeline semaphore, the value to wait for or to signal; `None` for a binary one.
    pub value: Option<u64>,
}

impl Semaphore {
    /// A binary semaphore.
    pub fn binary(raw: vk::Semaphore) -> Self {
        Semaphore { raw, value: None }
    }

    /// A timeline semaphore at `value`.
    pub fn timeline(raw: vk::Semaphore, value: u64) -> Self {
        Semaphore {
            raw,
            value: Some(value),
        }
    }
}

/// What a submission waits for before its work and signals after it.
///
/// The contract: the semaphores belong to the device the submission runs on; a binary one
/// that is waited for has a signal operation submitted before (by the application or an
/// earlier tg submission), and is not waited for twice; a timeline value only grows. The
/// wait covers tg's compute shaders and copies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SemaphoreSync {
    /// Semaphores the work waits for, on the device.
    pub wait: Vec<Semaphore>,
    /// Semaphores signalled once the work is done.
    pub signal: Vec<Semaphore>,
}

impl SemaphoreSync {
    /// Nothing to wait for or signal.
    pub fn is_empty(&self) -> bool {
        self.wait.is_empty() && self.signal.is_empty()
    }

    /// This, also waiting for what a `Device::synced` scope of this thread left pending on
    /// device `id` (which it takes: a binary semaphore is waited for once).
    pub(crate) fn with_pending_waits(&self, id: DeviceId) -> SemaphoreSync {
        let mut out = self.clone();
        PENDING.with(|p| {
            p.borrow_mut().retain(|&(d, s)| {
                if d == id {
                    out.wait.push(s);
                }
                d != id
            })
        });
        out
    }

    pub(crate) fn has_timeline(&self) -> bool {
        self.wait
            .iter()
            .chain(&self.signal)
            .any(|s| s.value.is_some())
    }

    pub(crate) fn wait_handles(&self) -> Vec<vk::Semaphore> {
        self.wait.iter().map(|s| s.raw).collect()
    }

    pub(crate) fn signal_handles(&self) -> Vec<vk::Semaphore> {
        self.signal.iter().map(|s| s.raw).collect()
    }

    /// Values for `VkTimelineSemaphoreSubmitInfo` (binary semaphores ignore theirs).
    pub(crate) fn wait_values(&self) -> Vec<u64> {
        self.wait.iter().map(|s| s.value.unwrap_or(0)).collect()
    }

    pub(crate) fn signal_values(&self) -> Vec<u64> {
        self.signal.iter().map(|s| s.value.unwrap_or(0)).collect()
    }
}

impl Core {
    /// Refuses what the device cannot do: a timeline value where timeline semaphores are off,
    /// a null handle.
    pub(crate) fn check_sync(&self, sync: &SemaphoreSync) -> Result<()> {
        if sync.has_timeline() && !self.info().timeline_semaphores {
            return Err(Error::Unsupported {
                what: "a timeline semaphore".into(),
                feature: "timelineSemaphore",
                device: self.info().name.clone(),
            });
        }
        if let Some(s) = sync
            .wait
            .iter()
            .chain(&sync.signal)
            .find(|s| s.raw == vk::Semaphore::null())
        {
            return Err(Error::Argument {
                op: "Device::submit_synced",
                message: format!("a null semaphore ({s:?})"),
            });
        }
        Ok(())
    }
}

impl Device {
    /// Runs `f`, ordering the work it submits on this device between the application's
    /// semaphores: the first submission waits, on the device, for `sync.wait`, and once `f`
    /// returns, `sync.signal` is signalled after everything submitted before (a semaphore
    /// signal covers all earlier work of the queue). Realize inside `f` what the application
    /// will read: work left lazy is not submitted. The signals are submitted even when `f`
    /// fails, so an application waiting on them is not left hanging; `f`'s error is returned.
    ///
    /// Host data uploaded inside `f` is written by the host, which waits for no semaphore.
    pub fn synced<R>(&self, sync: &SemaphoreSync, f: impl FnOnce() -> Result<R>) -> Result<R> {
        self.core().check_sync(sync)?;
        let id = self.id();
        PENDING.with(|p| p.borrow_mut().extend(sync.wait.iter().map(|&s| (id, s))));
        let result = f();
        let end = SemaphoreSync {
            wait: Vec::new(),
            signal: sync.signal.clone(),
        };
        // waits no submission took are taken here, so the signals still follow them
        let signalled = self.submit_synced(Vec::new(), &end.with_pending_waits(id));
        let value = result?;
        signalled?;
        Ok(value)
    }
}
