//! The persisted `VkPipelineCache`: drivers that compile SPIR-V to machine code (all but the
//! simplest) skip that work on the next run. Vulkan validates the file's header itself; a file
//! that cannot be read, is not a regular file of this user, or is rejected, just means an
//! empty cache. It lives in the shader cache's folder, under the same checks.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use ash::vk;

use super::Core;
use crate::compile::{or_warn, prepare, read_trusted, write_atomic};
use crate::{Error, Result};

/// `pipelines-<vendor>-<device>-<driverVersion>.bin`: a new driver gets a new file.
pub(crate) fn path(dir: Option<&Path>, props: &vk::PhysicalDeviceProperties) -> Option<PathBuf> {
    let name = format!(
        "pipelines-{:04x}-{:04x}-{:08x}.bin",
        props.vendor_id, props.device_id, props.driver_version
    );
    dir.map(|d| d.join(name))
}

/// Creates the pipeline cache, seeded from `path` when that holds data the driver accepts.
pub(crate) fn load(device: &ash::Device, path: Option<&Path>) -> Result<vk::PipelineCache> {
    let data = path.and_then(read_trusted).unwrap_or_default();
    let create = |data: &[u8]| {
        // SAFETY: `data` outlives the call; the driver checks its header.
        unsafe {
            device.create_pipeline_cache(
                &vk::PipelineCacheCreateInfo::default().initial_data(data),
                None,
            )
        }
    };
    create(&data)
        .or_else(|_| create(&[]))
        .map_err(|e| Error::vk("vkCreatePipelineCache", e))
}

impl Core {
    pub(crate) fn save_pipeline_cache_impl(&self) -> Result<()> {
        let Some(path) = &self.pipeline_cache_path else {
            return Ok(());
        };
        if !self.pipeline_cache_dirty.swap(false, Ordering::Relaxed) {
            return Ok(());
        }
        let saved = self.write_pipeline_cache(path);
        if saved.is_err() {
            self.pipeline_cache_dirty.store(true, Ordering::Relaxed);
        }
        saved
    }

    fn write_pipeline_cache(&self, path: &Path) -> Result<()> {
        // SAFETY: the cache is internally synchronized for reads.
        let data = unsafe { self.device.raw.get_pipeline_cache_data(self.pipeline_cache) }
            .map_err(|e| Error::vk("vkGetPipelineCacheData", e))?;
        let Some(dir) = path.parent() else {
            return Ok(());
        };
        // The folder may have been removed or opened up since start: checked again, by the
        // rule the SPIR-V cache uses; if it fails the pipeline cache stays in memory.
        if or_warn(prepare(dir.to_path_buf()).map(Some)).is_none() {
            return Ok(());
        }
        write_atomic(path, &data).map_err(|e| Error::io(path, e))
    }
}
