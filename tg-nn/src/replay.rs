//! `Replay`: a training (or evaluation) step written with the library API, recorded on its
//! first call and replayed after, as tinygrad's `TinyJit` does. It is the machinery of
//! `#[kernel]` (`tg_runtime::record`, vars rebound, random draws redrawn) for a Rust closure,
//! so that a step may call layers, modules and optimizers, which a `#[kernel]` body cannot.
//!
//! The closure must compute the same graph on every call given inputs of the same shapes:
//! a replay repeats the kernels, not the Rust code. Tensors the closure reads other than its
//! inputs (parameters, optimizer state) are read from their buffers at replay, and the
//! tensors it writes in place are written again. Scalars that change between calls must be
//! runtime scalars ([`crate::optim::RuntimeScalar`]), whose values each call passes.
//!
//! A replay writes the captured tensors' buffers without giving them new graph nodes (an
//! eager `assign` does). Graphs built afterwards read the new values, but a result computed
//! from those tensors before a replay and still held is the same hash-consed node as the
//! same expression built after it, and keeps its old value: drop such results (or compute
//! them through a `Replay` too, as `examples/train_digits` evaluates).

use tg_ops::DynTensor;
use tg_ops::untyped::random::{Draw, redraw, take_draws, watch_draws};
use tg_runtime::{Lazy, Recording, Result, Scalar, record};

/// One recorded call per distinct input shapes.
struct Entry {
    key: Vec<(tg_runtime::DType, Vec<usize>)>,
    recording: Recording,
    draws: Vec<Draw>,
}

/// A step recorded once per input shapes and replayed after. See the module docs.
#[derive(Default)]
pub struct Replay {
    entries: Vec<Entry>,
}

impl Replay {
    /// A replay with nothing recorded.
    pub fn new() -> Replay {
        Replay::default()
    }

    /// Runs `body` on its first call with inputs of these shapes, recording the kernels it
    /// runs (what it returns is realized, so it must return every tensor it writes in place
    /// that is not otherwise realized: updated parameters, optimizer state); later calls
    /// replay them on `inputs` with `vars` bound (runtime scalars' `(id, value)`) and fresh
    /// random numbers, without calling `body`. Returns what `body` returned, computed anew.
    pub fn run(
        &mut self,
        inputs: &[&DynTensor],
        vars: &[(u64, Scalar)],
        body: impl FnOnce() -> Result<Vec<DynTensor>>,
    ) -> Result<Vec<DynTensor>> {
        let key: Vec<_> = inputs
            .iter()
            .map(|t| (t.dtype(), t.shape().to_vec()))
            .collect();
        let lazies: Vec<&Lazy> = inputs.iter().map(|t| t.lazy()).collect();
        if let Some(e) = self.entries.iter().find(|e| e.key == key) {
            let mut binds = vars.to_vec();
            binds.extend(redraw(&e.draws));
            let outs = e.recording.replay_with(&lazies, &binds)?;
            return Ok(outs.into_iter().map(DynTensor::from_lazy).collect());
        }
        watch_draws();
        let recorded = record(&lazies, || {
            Ok(body()?.into_iter().map(DynTensor::into_lazy).collect())
        });
        let draws = take_draws();
        let (outs, recording) = recorded?;
        self.entries.push(Entry {
            key,
            recording,
            draws,
        });
        Ok(outs.into_iter().map(DynTensor::from_lazy).collect())
    }

    /// Kernels a replay of the recording for these input shapes dispatches (`None` before
    /// it is recorded).
    pub fn kernels(&self, inputs: &[&DynTensor]) -> Option<usize> {
        let key: Vec<_> = inputs
            .iter()
            .map(|t| (t.dtype(), t.shape().to_vec()))
            .collect();
        self.entries
            .iter()
            .find(|e| e.key == key)
            .map(|e| e.recording.kernels())
    }
}

/// A value a `#[kernel]` takes by reference besides tensors and scalars: a model (every
/// [`Module`](crate::nn::Module)), an optimizer (every optimizer of [`crate::optim`]).
///
/// The kernel passes the value's tensors to its recording as inputs, so a replay reads and
/// writes the buffers of the value it is given (another model of the same shapes replays
/// correctly); the tensors of a value taken by `&mut` are realized by each call too (a
/// body that assigns them in place, as an optimizer's step does, is recorded writing
/// them). Before each call, replays included, the kernel runs the host side of every value
/// it takes by `&mut` ([`KernelState::kernel_advance`]: an optimizer's step count and
/// runtime scalars) and binds what it returns.
pub trait KernelState {
    /// Every tensor the kernel's body may read or write through this value, in a fixed order.
    fn kernel_tensors(&self) -> Result<Vec<DynTensor>>;

    /// What of this value the recorded graph depends on besides its tensors' shapes (an
    /// optimizer's hyperparameters and parameter groups, baked into its update as
    /// constants): part of the recordings' key, so a value that differs records anew. The
    /// default is nothing.
    fn kernel_key(&self) -> Vec<u64> {
        Vec::new()
    }

    /// The host side of one call of a kernel taking this value by `&mut`, run before the
    /// call (once per outermost kernel call: a kernel called from a kernel's body leaves it
    /// to its caller); returns the `(id, value)` binds of the runtime scalars it set. The
    /// default does nothing.
    fn kernel_advance(&mut self) -> Vec<(u64, Scalar)> {
        Vec::new()
    }
}

impl<M: crate::nn::Module + ?Sized> KernelState for M {
    fn kernel_tensors(&self) -> Result<Vec<DynTensor>> {
        Ok(self.tensors()?.into_iter().map(|(_, t)| t).collect())
    }

    /// The module's training switches ([`Module::modes`](crate::nn::Module::modes)).
    fn kernel_key(&self) -> Vec<u64> {
        let mut out = Vec::new();
        self.modes(&mut out);
        out
    }
}
