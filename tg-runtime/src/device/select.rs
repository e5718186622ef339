//! Which physical device tg uses: `TG_DEVICE`, else the best kind present.

use ash::vk;

use super::info::{DeviceType, c_text, version};
use crate::{Error, Result};

pub(crate) const DRIVER_HINT: &str = "install a Vulkan driver: apt-get install mesa-vulkan-drivers \
     (lavapipe, Vulkan on the CPU)";

/// A physical device as the selection sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceCandidate {
    /// Index in `vkEnumeratePhysicalDevices`.
    pub index: usize,
    /// The device's name.
    pub name: String,
    /// Its kind.
    pub device_type: DeviceType,
    /// `(major, minor, patch)` of the device's Vulkan version.
    pub api_version: (u32, u32, u32),
    /// The device has a queue family that supports compute.
    pub compute: bool,
}

impl DeviceCandidate {
    /// The candidate of physical device `index` with properties `props`; `compute` says
    /// whether the queue family (or families) tg may use has compute.
    pub(crate) fn from_props(
        index: usize,
        props: &vk::PhysicalDeviceProperties,
        compute: bool,
    ) -> DeviceCandidate {
        DeviceCandidate {
            index,
            name: c_text(props.device_name_as_c_str()),
            device_type: DeviceType::from_vk(props.device_type),
            api_version: version(props.api_version),
            compute,
        }
    }

    /// tg needs Vulkan 1.2 and a compute queue.
    pub fn usable(&self) -> bool {
        self.compute && (self.api_version.0, self.api_version.1) >= (1, 2)
    }

    fn describe(&self) -> String {
        let (ma, mi, _) = self.api_version;
        match (self.compute, self.usable()) {
            (_, true) => format!("{}: {} ({})", self.index, self.name, self.device_type),
            (false, _) => format!(
                "{}: {} ({}, no compute queue)",
                self.index, self.name, self.device_type
            ),
            (true, false) => format!(
                "{}: {} ({}, Vulkan {ma}.{mi}: tg needs 1.2)",
                self.index, self.name, self.device_type
            ),
        }
    }
}

/// Picks a device and returns its `index`.
///
/// `wanted` is `TG_DEVICE`: an index, or a case-insensitive part of the device name (the first
/// usable match by index wins). Without it: a discrete GPU, else integrated, virtual, then CPU.
///
/// ```
/// use tg_runtime::device::{DeviceCandidate, DeviceType, choose_device};
/// let cpu = DeviceCandidate {
///     index: 0, name: "llvmpipe".into(), device_type: DeviceType::Cpu,
///     api_version: (1, 3, 0), compute: true,
/// };
/// let gpu = DeviceCandidate { index: 1, name: "Radeon".into(), device_type: DeviceType::Discrete, ..cpu.clone() };
/// let all = [cpu, gpu];
/// assert_eq!(choose_device(&all, None)?, 1);
/// assert_eq!(choose_device(&all, Some("LLVM"))?, 0);
/// assert!(choose_device(&all, Some("nvidia")).is_err());
/// # Ok::<(), tg_runtime::Error>(())
/// ```
pub fn choose_device(candidates: &[DeviceCandidate], wanted: Option<&str>) -> Result<usize> {
    let wanted = wanted.map(str::trim).filter(|w| !w.is_empty());
    let Some(wanted) = wanted else {
        return candidates
            .iter()
            .filter(|c| c.usable())
            .min_by_key(|c| (c.device_type.rank(), c.index))
            .map(|c| c.index)
            .ok_or_else(|| no_usable_device(candidates));
    };
    let lower = wanted.to_lowercase();
    let found = match wanted.parse::<usize>() {
        Ok(i) => candidates.iter().find(|c| c.index == i && c.usable()),
        Err(_) => candidates
            .iter()
            .find(|c| c.usable() && c.name.to_lowercase().contains(&lower)),
    };
    found.map(|c| c.index).ok_or_else(|| Error::DeviceNotFound {
        wanted: wanted.to_string(),
        available: list(candidates),
    })
}

fn list(candidates: &[DeviceCandidate]) -> String {
    if candidates.is_empty() {
        return "none".into();
    }
    candidates
        .iter()
        .map(DeviceCandidate::describe)
        .collect::<Vec<_>>()
        .join(", ")
}

fn no_usable_device(candidates: &[DeviceCandidate]) -> Error {
    let reason = if candidates.is_empty() {
        "the Vulkan loader found no device".to_string()
    } else {
        format!(
            "no device supports Vulkan 1.2 compute (found {})",
            list(candidates)
        )
    };
    Error::NoVulkan {
        reason,
        hint: DRIVER_HINT.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(index: usize, name: &str, device_type: DeviceType, minor: u32) -> DeviceCandidate {
        DeviceCandidate {
            index,
            name: name.into(),
            device_type,
            api_version: (1, minor, 0),
            compute: true,
        }
    }

    #[test]
    fn preference_order() {
        let all = [
            cand(0, "llvmpipe", DeviceType::Cpu, 3),
            cand(1, "Intel UHD", DeviceType::Integrated, 3),
            cand(2, "old GPU", DeviceType::Discrete, 1),
            cand(3, "NVIDIA", DeviceType::Discrete, 3),
        ];
        assert_eq!(choose_device(&all, None).unwrap(), 3);
        assert_eq!(choose_device(&all[..3], None).unwrap(), 1);
        assert_eq!(choose_device(&all[..1], Some("")).unwrap(), 0);
    }

    #[test]
    fn unusable_devices_are_not_chosen() {
        let old = [cand(0, "old GPU", DeviceType::Discrete, 1)];
        assert!(matches!(
            choose_device(&old, None),
            Err(Error::NoVulkan { .. })
        ));
        assert!(matches!(
            choose_device(&old, Some("0")),
            Err(Error::DeviceNotFound { .. })
        ));
        assert!(matches!(
            choose_device(&[], None),
            Err(Error::NoVulkan { .. })
        ));
    }

    #[test]
    fn not_found_lists_devices() {
        let all = [
            cand(0, "llvmpipe", DeviceType::Cpu, 3),
            cand(1, "old", DeviceType::Discrete, 1),
        ];
        let Err(Error::DeviceNotFound { available, .. }) = choose_device(&all, Some("7")) else {
            panic!("expected DeviceNotFound")
        };
        assert_eq!(
            available,
            "0: llvmpipe (cpu), 1: old (discrete, Vulkan 1.1: tg needs 1.2)"
        );
    }
}
