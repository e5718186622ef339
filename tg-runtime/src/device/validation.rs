//! The Khronos validation layer: turning it on, and routing its messages to the call that
//! caused them.
//!
//! The layer calls back on the thread that made the offending Vulkan call, so messages go to a
//! thread-local list that the public `Device` method drains before it returns: the call that
//! caused a message is the call that fails. Messages that cannot be attributed (raised while a
//! `Buffer` is dropped, which cannot return an error, or on a thread being torn down) go to a
//! global list that the next checked call on any thread reports.

use std::cell::RefCell;
use std::ffi::{CStr, c_void};
use std::sync::{Mutex, PoisonError};

use ash::vk;

use crate::{Error, Result};

pub(crate) const LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

thread_local! {
    static LOCAL: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}
static GLOBAL: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Whether the `TG_VALIDATION` switch asks for the layer.
pub(crate) fn requested() -> bool {
    crate::config::switch(crate::config::Var::Validation)
}

/// Drains and returns every validation message raised on this thread, plus the unattributed ones.
pub fn take_validation_messages() -> Vec<String> {
    let mut out = LOCAL.try_with(|l| l.take()).unwrap_or_default();
    out.append(&mut GLOBAL.lock().unwrap_or_else(PoisonError::into_inner));
    out
}

/// Fails with [`Error::Validation`] if any message is pending for this thread.
pub(crate) fn check() -> Result<()> {
    let messages = take_validation_messages();
    if messages.is_empty() {
        Ok(())
    } else {
        Err(Error::Validation { messages })
    }
}

/// Moves this thread's messages to the global list, for code that cannot return them itself.
pub(crate) fn defer() {
    let mine = LOCAL.try_with(|l| l.take()).unwrap_or_default();
    if !mine.is_empty() {
        GLOBAL
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(mine);
    }
}

fn push(message: String) {
    let pushed = LOCAL.try_with(|l| match l.try_borrow_mut() {
        Ok(mut l) => {
            l.push(message.clone());
            true
        }
        Err(_) => false,
    });
    if pushed != Ok(true) {
        GLOBAL
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(message);
    }
}

/// tg's messenger settings, used both for the messenger and chained into
/// `VkInstanceCreateInfo` (so instance creation itself is covered).
pub(crate) fn messenger_info() -> vk::DebugUtilsMessengerCreateInfoEXT<'static> {
    validation_messenger_info(Some(callback))
}

/// Debug-messenger settings that pass `callback` the messages tg's own validation
/// (`TG_VALIDATION=1`) reports, so that an application which hands tg its device
/// (`Device::from_raw`) can filter its own messenger the same way.
///
/// Warnings and errors of the validation and performance kinds. GENERAL messages are left out:
/// at these severities they are the loader's remarks about the system's layer and driver
/// manifests (another package's JSON files), which no tg call causes or can fix.
pub fn validation_messenger_info(
    callback: vk::PFN_vkDebugUtilsMessengerCallbackEXT,
) -> vk::DebugUtilsMessengerCreateInfoEXT<'static> {
    vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(
            vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
        )
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(callback)
}

/// Synchronization validation catches missing or wrong barriers, which tg's own tests cannot
/// see on lavapipe (it executes in order and would hide them).
pub(crate) const FEATURES: [vk::ValidationFeatureEnableEXT; 1] =
    [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];

/// Message IDs that are noise for tg (none so far; see `accept`).
const IGNORED: [&str; 0] = [];

fn accept(id: &str) -> bool {
    !IGNORED.contains(&id)
}

unsafe extern "system" fn callback(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    kind: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    _user: *mut c_void,
) -> vk::Bool32 {
    // Never unwind into the Vulkan stack.
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: the layer passes a valid callback-data struct for the duration of the call.
        let Some(data) = (unsafe { data.as_ref() }) else {
            return;
        };
        let text = |s: Option<&CStr>| {
            s.map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        };
        // SAFETY: the strings are null-terminated or null, as the spec requires.
        let id = text(unsafe { data.message_id_name_as_c_str() });
        // SAFETY: as above.
        let message = text(unsafe { data.message_as_c_str() });
        if accept(&id) {
            push(format!("[{severity:?} {kind:?}] {id}: {message}"));
        }
    });
    // The spec reserves VK_TRUE (abort the call) for layer development.
    vk::FALSE
}
