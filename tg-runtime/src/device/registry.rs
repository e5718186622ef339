//! Open devices by id: tensors name their device by id (a graph node holds no handle, so a
//! device closes when its handles go), and errors name devices by what they are.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Weak};

use super::{Device, Handle, lock};
use crate::{Error, Result};

/// Identifies a device in this process; ids are never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DeviceId(pub u64);

struct Entry {
    handle: Weak<Handle>,
    /// "name #id", kept after the device closes so that errors can still name it.
    label: String,
}

static NEXT: AtomicU64 = AtomicU64::new(1);
static OPEN: Mutex<Option<HashMap<DeviceId, Entry>>> = Mutex::new(None);

thread_local! {
    /// Devices `Device::scope` made current on this thread, innermost last.
    static SCOPES: RefCell<Vec<DeviceId>> = const { RefCell::new(Vec::new()) };
}

pub(crate) fn next_id() -> DeviceId {
    DeviceId(NEXT.fetch_add(1, Ordering::Relaxed))
}

pub(crate) fn register(device: &Device) {
    let label = format!("{} #{}", device.info().name, device.id().0);
    lock(&OPEN).get_or_insert_with(HashMap::new).insert(
        device.id(),
        Entry {
            handle: std::sync::Arc::downgrade(&device.handle),
            label,
        },
    );
}

/// How errors name device `id`.
pub(crate) fn label(id: DeviceId) -> String {
    lock(&OPEN)
        .as_ref()
        .and_then(|m| m.get(&id))
        .map_or_else(|| format!("device #{}", id.0), |e| e.label.clone())
}

/// The open device `id`, or [`Error::DeviceClosed`] once its handles are gone.
pub(crate) fn lookup(id: DeviceId) -> Result<Device> {
    let handle = lock(&OPEN)
        .as_ref()
        .and_then(|m| m.get(&id))
        .and_then(|e| e.handle.upgrade());
    match handle {
        Some(handle) => Ok(Device { handle }),
        None => Err(Error::DeviceClosed { device: label(id) }),
    }
}

/// `Ok` when `a` and `b` are one device, else the error of `op` naming both.
pub(crate) fn same(op: &'static str, a: DeviceId, b: DeviceId) -> Result<()> {
    if a == b {
        return Ok(());
    }
    Err(Error::DeviceMismatch {
        op,
        first: label(a),
        second: label(b),
    })
}

pub(crate) fn scope<R>(id: DeviceId, f: impl FnOnce() -> R) -> R {
    struct Pop;
    impl Drop for Pop {
        fn drop(&mut self) {
            SCOPES.with(|s| s.borrow_mut().pop());
        }
    }
    SCOPES.with(|s| s.borrow_mut().push(id));
    let _pop = Pop;
    f()
}

/// The device `Device::scope` made current on this thread, if any.
pub(crate) fn scoped() -> Option<DeviceId> {
    SCOPES.with(|s| s.borrow().last().copied())
}

/// The device work of this thread goes to when no tensor names one: the innermost
/// [`Device::scope`], else the default device ([`Device::get`]).
pub fn current_device() -> Result<Device> {
    match scoped() {
        Some(id) => lookup(id),
        None => Device::get().cloned(),
    }
}
