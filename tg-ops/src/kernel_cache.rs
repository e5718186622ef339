//! The compiled replay behind `#[kernel]`: per kernel function, the recordings of its calls,
//! keyed by input shapes, dtypes and scalar arguments.

use std::sync::{Arc, Mutex};

use tg_runtime::{Recording, Result, record};

use crate::untyped::DynTensor;

/// A cache of one `#[kernel]` function's recordings; a `static` in the expanded function.
pub struct KernelCache {
    name: &'static str,
    /// False when the body uses ops a replay could not reproduce (random numbers, results whose
    /// size depends on data); then every call runs the body.
    replayable: bool,
    entries: Mutex<Vec<(Vec<u64>, Arc<Recording>)>>,
}

impl KernelCache {
    /// An empty cache for the kernel `name`; `replayable` is false for bodies that draw
    /// random numbers (a replay would repeat them).
    pub const fn new(name: &'static str, replayable: bool) -> KernelCache {
        KernelCache {
            name,
            replayable,
            entries: Mutex::new(Vec::new()),
        }
    }

    /// The kernel's name, for messages.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Recordings made so far (for tests).
    pub fn recordings(&self) -> usize {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    fn key(inputs: &[DynTensor], scalars: &[u64]) -> Vec<u64> {
        let mut k = Vec::new();
        for t in inputs {
            k.push(t.dtype() as u64);
            k.push(t.ndim() as u64);
            k.extend(t.shape().iter().map(|&d| d as u64));
        }
        k.push(u64::MAX);
        k.extend_from_slice(scalars);
        k
    }

    /// Replays the recording for these inputs, or runs `body` and records it.
    pub fn call(
        &self,
        inputs: Vec<DynTensor>,
        scalars: &[u64],
        body: impl FnOnce(&[DynTensor]) -> Result<Vec<DynTensor>>,
    ) -> Result<Vec<DynTensor>> {
        if !self.replayable {
            return body(&inputs);
        }
        let key = Self::key(&inputs, scalars);
        let found = self
            .entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, r)| r.clone());
        let lazies: Vec<&tg_runtime::Lazy> = inputs.iter().map(|t| t.lazy()).collect();
        if let Some(rec) = found {
            let outs = rec.replay(&lazies)?;
            return Ok(outs.into_iter().map(DynTensor::from_lazy).collect());
        }
        let (outs, rec) = record(&lazies, || {
            Ok(body(&inputs)?.into_iter().map(|t| t.into_lazy()).collect())
        })?;
        self.entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((key, Arc::new(rec)));
        Ok(outs.into_iter().map(DynTensor::from_lazy).collect())
    }
}
