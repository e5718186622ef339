//! The Vulkan loader and instance, with the validation layer when asked for.

use ash::vk;

use super::info::version;
use super::select::{DRIVER_HINT, DeviceCandidate};
use super::validation;
use crate::{Error, Result};

const LOADER_HINT: &str = "install the Vulkan loader and a driver: apt-get install libvulkan1 \
     mesa-vulkan-drivers (lavapipe, Vulkan on the CPU)";
const LAYER_HINT: &str = "apt-get install vulkan-validationlayers, or unset TG_VALIDATION";

/// An instance that destroys itself (and its messenger) when dropped, so that a start-up that
/// fails half-way leaves nothing behind.
pub(crate) struct Instance {
    pub(crate) entry: ash::Entry,
    pub(crate) raw: ash::Instance,
    messenger: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
}

impl Instance {
    /// Opens the loader at run time (so tg builds and starts without Vulkan installed) and
    /// creates a Vulkan 1.2 instance.
    pub(crate) fn new(validate: bool) -> Result<Self> {
        // SAFETY: loading libvulkan runs its initialisers; that is the loader's documented use.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| Error::NoVulkan {
            reason: format!("the Vulkan loader could not be opened ({e})"),
            hint: LOADER_HINT.into(),
        })?;
        // SAFETY: plain queries on a loaded entry.
        let loader = unsafe { entry.try_enumerate_instance_version() }
            .map_err(|e| Error::vk("vkEnumerateInstanceVersion", e))?
            .unwrap_or(vk::API_VERSION_1_0);
        if loader < vk::API_VERSION_1_2 {
            let (ma, mi, pa) = version(loader);
            return Err(Error::NoVulkan {
                reason: format!("the Vulkan loader is version {ma}.{mi}.{pa}; tg needs 1.2"),
                hint: LOADER_HINT.into(),
            });
        }
        if validate {
            check_layer(&entry)?;
        }

        let app = vk::ApplicationInfo::default()
            .application_name(c"tg")
            .engine_name(c"tg")
            .api_version(vk::API_VERSION_1_2);
        let layers = [validation::LAYER.as_ptr()];
        let extensions = [ash::ext::debug_utils::NAME.as_ptr()];
        let mut messenger_info = validation::messenger_info();
        let mut features =
            vk::ValidationFeaturesEXT::default().enabled_validation_features(&validation::FEATURES);
        let mut info = vk::InstanceCreateInfo::default().application_info(&app);
        if validate {
            info = info
                .enabled_layer_names(&layers)
                .enabled_extension_names(&extensions)
                .push_next(&mut messenger_info)
                .push_next(&mut features);
        }
        // SAFETY: every pointer in `info` refers to locals that outlive the call.
        let raw = unsafe { entry.create_instance(&info, None) }.map_err(|e| match e {
            vk::Result::ERROR_INCOMPATIBLE_DRIVER => Error::NoVulkan {
                reason: "no Vulkan driver is installed".into(),
                hint: DRIVER_HINT.into(),
            },
            e => Error::vk("vkCreateInstance", e),
        })?;
        let mut instance = Instance {
            entry,
            raw,
            messenger: None,
        };
        if validate {
            let debug = ash::ext::debug_utils::Instance::new(&instance.entry, &instance.raw);
            let info = validation::messenger_info();
            // SAFETY: the instance was created with VK_EXT_debug_utils enabled.
            let messenger = unsafe { debug.create_debug_utils_messenger(&info, None) }
                .map_err(|e| Error::vk("vkCreateDebugUtilsMessengerEXT", e))?;
            instance.messenger = Some((debug, messenger));
        }
        Ok(instance)
    }

    /// The physical devices as the selection sees them, in the loader's order.
    pub(crate) fn candidates(&self) -> Result<Vec<(vk::PhysicalDevice, DeviceCandidate)>> {
        // SAFETY: queries on a live instance.
        let devices = unsafe { self.raw.enumerate_physical_devices() }
            .map_err(|e| Error::vk("vkEnumeratePhysicalDevices", e))?;
        Ok(devices
            .into_iter()
            .enumerate()
            .map(|(index, pd)| {
                // SAFETY: `pd` comes from this instance.
                let props = unsafe { self.raw.get_physical_device_properties(pd) };
                // SAFETY: as above, `pd` comes from this instance.
                let families = unsafe { self.raw.get_physical_device_queue_family_properties(pd) };
                let compute = families
                    .iter()
                    .any(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE));
                let candidate = DeviceCandidate::from_props(index, &props, compute);
                (pd, candidate)
            })
            .collect())
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: nothing created from this instance outlives it (the device drops first).
        unsafe {
            if let Some((debug, messenger)) = self.messenger.take() {
                debug.destroy_debug_utils_messenger(messenger, None);
            }
            self.raw.destroy_instance(None);
        }
    }
}

fn check_layer(entry: &ash::Entry) -> Result<()> {
    // SAFETY: a plain query on a loaded entry.
    let layers = unsafe { entry.enumerate_instance_layer_properties() }
        .map_err(|e| Error::vk("vkEnumerateInstanceLayerProperties", e))?;
    if layers
        .iter()
        .any(|l| l.layer_name_as_c_str() == Ok(validation::LAYER))
    {
        return Ok(());
    }
    Err(Error::NoVulkan {
        reason: "TG_VALIDATION is set but the Khronos validation layer is not installed".into(),
        hint: LAYER_HINT.into(),
    })
}

/// The Vulkan devices on this machine, as `TG_DEVICE` numbers them (a temporary instance, no
/// validation).
pub fn list_devices() -> Result<Vec<DeviceCandidate>> {
    Ok(Instance::new(false)?
        .candidates()?
        .into_iter()
        .map(|(_, c)| c)
        .collect())
}
