//! The compiled replay behind `#[kernel]`: per kernel function and device, the recordings of
//! its calls, keyed by input shapes and dtypes (and the scalar arguments a body uses other
//! than as operands, which may change its structure). Recordings live in their device's
//! state (`Device::local`), so they go when the device closes.
//!
//! Scalar arguments used as operands are vars (`tg_runtime::Lazy::var`): a replay rebinds
//! them, so a training step whose learning rate changes every call replays one recording.
//! Random numbers drawn from the process-wide stream are vars too: a replay takes as many
//! words from the stream as the recorded call did and rebinds them, so dropout draws fresh
//! numbers every call, the same ones an eager run with the same seed draws.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tg_runtime::realize::device_of;
use tg_runtime::{Recording, Result, Scalar, record};

use crate::untyped::DynTensor;
use crate::untyped::random::{Draw, redraw, take_draws, watch_draws};

/// A cache of one `#[kernel]` function's recordings; a `static` in the expanded function.
pub struct KernelCache {
    name: &'static str,
    /// False when the body uses ops a replay could not reproduce (results whose size depends
    /// on data); then every call runs the body.
    replayable: bool,
    /// The first var id of this kernel's scalar arguments (0 until the first call).
    vars: AtomicU64,
    /// Recordings made so far, on every device.
    recorded: AtomicUsize,
}

/// One kernel's recordings on one device.
#[derive(Default)]
struct Entries(Mutex<Vec<Entry>>);

/// One recording and what a replay of it rebinds.
struct Entry {
    key: Vec<u64>,
    recording: Arc<Recording>,
    draws: Vec<Draw>,
    /// The ids of the state's binds when recorded: a replay binds a call's values (another
    /// optimizer's, whose runtime scalars have ids of their own) to these, by position.
    bind_ids: Vec<u64>,
}

/// Var ids handed to kernels, 1,024 scalar arguments each, from the upper half of the id
/// space (random streams take the top quarter).
static NEXT_VARS: AtomicU64 = AtomicU64::new(1 << 63);

/// `count` fresh var ids (consecutive, from the range kernels take theirs from) for a
/// caller outside `#[kernel]` that builds graphs with runtime scalars of its own (an
/// optimizer's learning rate and bias corrections), so that they never collide with a
/// kernel's.
pub fn fresh_vars(count: u64) -> u64 {
    NEXT_VARS.fetch_add(count.max(1), Ordering::Relaxed)
}

thread_local! {
    /// The var ids of the kernel whose body runs on this thread.
    static CURRENT: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Whether a `#[kernel]` body runs on this thread now (a kernel calling a kernel runs the
/// callee inline; an optimizer's `step` inside a body leaves its `advance` to the kernel,
/// which runs it once per call, replays included).
pub fn in_kernel_body() -> bool {
    CURRENT.with(|c| c.get()).is_some()
}

/// A kernel body's scalar argument `slot` as an operand: a var of the running kernel, or a
/// plain scalar outside one.
pub fn scalar_arg(
    slot: usize,
    value: impl Into<Scalar>,
) -> crate::untyped::elementwise::Operand<'static> {
    let value = value.into();
    match CURRENT.with(|c| c.get()) {
        Some(base) => crate::untyped::elementwise::Operand::Var(base + slot as u64, value),
        None => crate::untyped::elementwise::Operand::Scalar(value),
    }
}

impl KernelCache {
    /// An empty cache for the kernel `name`; `replayable` is false for bodies whose results'
    /// sizes depend on data.
    pub const fn new(name: &'static str, replayable: bool) -> KernelCache {
        KernelCache {
            name,
            replayable,
            vars: AtomicU64::new(0),
            recorded: AtomicUsize::new(0),
        }
    }

    /// The kernel's name, for messages.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Recordings made so far, on every device (for tests).
    pub fn recordings(&self) -> usize {
        self.recorded.load(Ordering::Relaxed)
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

    fn var_base(&self) -> u64 {
        match self.vars.load(Ordering::Acquire) {
            0 => {
                let fresh = NEXT_VARS.fetch_add(1024, Ordering::Relaxed);
                match self
                    .vars
                    .compare_exchange(0, fresh, Ordering::AcqRel, Ordering::Acquire)
                {
                    Ok(_) => fresh,
                    Err(other) => other,
                }
            }
            base => base,
        }
    }

    /// Replays the recording for these inputs, or runs `body` and records it; `scalars` key
    /// the recordings.
    pub fn call(
        &self,
        inputs: Vec<DynTensor>,
        scalars: &[u64],
        body: impl FnOnce(&[DynTensor]) -> Result<Vec<DynTensor>>,
    ) -> Result<Vec<DynTensor>> {
        self.call_with(inputs, scalars, &[], body)
    }

    /// [`KernelCache::call`] for a body whose scalar arguments `vars` (by slot) reach it as
    /// operands ([`scalar_arg`]): they do not key the recordings, a replay rebinds them.
    pub fn call_with(
        &self,
        inputs: Vec<DynTensor>,
        keys: &[u64],
        vars: &[Scalar],
        body: impl FnOnce(&[DynTensor]) -> Result<Vec<DynTensor>>,
    ) -> Result<Vec<DynTensor>> {
        self.call_bound(inputs, keys, vars, &[], body)
    }

    /// [`KernelCache::call_with`] with more vars to rebind at a replay: the runtime scalars
    /// of the state a kernel takes by reference (an optimizer's learning rate and bias
    /// corrections, from its `advance`). A replay binds them by position to the ids the
    /// recording's call gave, so a call with another optimizer (whose scalars have ids of
    /// their own) replays it correctly; their count keys the recordings.
    ///
    /// Called inside another kernel's body (a kernel calling a kernel), the body runs inline:
    /// its ops join the caller's graph and recording, and nothing is cached here.
    pub fn call_bound(
        &self,
        inputs: Vec<DynTensor>,
        keys: &[u64],
        vars: &[Scalar],
        binds: &[(u64, Scalar)],
        body: impl FnOnce(&[DynTensor]) -> Result<Vec<DynTensor>>,
    ) -> Result<Vec<DynTensor>> {
        let base = self.var_base();
        let run_body = |inputs: &[DynTensor]| {
            let previous = CURRENT.with(|c| c.replace(Some(base)));
            let out = body(inputs);
            CURRENT.with(|c| c.set(previous));
            out
        };
        if !self.replayable || in_kernel_body() {
            return run_body(&inputs);
        }
        let mut key = Self::key(&inputs, keys);
        key.push(binds.len() as u64);
        let lazies: Vec<&tg_runtime::Lazy> = inputs.iter().map(|t| t.lazy()).collect();
        // this static's address names its recordings among the device's state
        let entries = device_of(&lazies)?.local::<Entries>(self as *const KernelCache as usize);
        let found = entries
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|e| e.key == key)
            .map(|e| (e.recording.clone(), e.draws.clone(), e.bind_ids.clone()));
        if let Some((rec, draws, bind_ids)) = found {
            let mut all: Vec<(u64, Scalar)> = vars
                .iter()
                .enumerate()
                .map(|(slot, &v)| (base + slot as u64, v))
                .collect();
            all.extend(bind_ids.iter().zip(binds).map(|(&id, &(_, v))| (id, v)));
            all.extend(redraw(&draws));
            let outs = rec.replay_with(&lazies, &all)?;
            return Ok(outs.into_iter().map(DynTensor::from_lazy).collect());
        }
        watch_draws();
        let recorded = record(&lazies, || {
            Ok(run_body(&inputs)?
                .into_iter()
                .map(|t| t.into_lazy())
                .collect())
        });
        let draws = take_draws();
        let (outs, recording) = recorded?;
        self.recorded.fetch_add(1, Ordering::Relaxed);
        entries
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Entry {
                key,
                recording: Arc::new(recording.named(self.name)),
                draws,
                bind_ids: binds.iter().map(|&(id, _)| id).collect(),
            });
        Ok(outs.into_iter().map(DynTensor::from_lazy).collect())
    }
}

/// What Rust code in a `#[kernel]` body gives where the body states a tensor type (`let y:
/// Tensor<shape![B, 10]> = f(x);`, or the kernel's return type): a typed tensor of exactly
/// that type (rustc checks it against the callee's signature), a `DynTensor` (checked when
/// the body runs: its shape and dtype must be the type's), or a tuple of those.
#[diagnostic::on_unimplemented(
    message = "this gives `{Self}`, not the `{T}` written for it",
    label = "gives `{Self}`",
    note = "the type written where the result is bound (or the kernel's return type) must be what the code returns"
)]
pub trait KernelValue<T> {
    /// The value as `T`.
    fn into_kernel_value(self) -> Result<T>;
}

impl<S: crate::Shape, D: crate::Dtype> KernelValue<crate::Tensor<S, D>> for crate::Tensor<S, D> {
    fn into_kernel_value(self) -> Result<crate::Tensor<S, D>> {
        Ok(self)
    }
}

impl<S: crate::Shape, D: crate::Dtype> KernelValue<crate::Tensor<S, D>> for DynTensor {
    fn into_kernel_value(self) -> Result<crate::Tensor<S, D>> {
        crate::Tensor::try_from_dyn(self)
    }
}

macro_rules! kernel_value_tuple {
    ($($a:ident $t:ident),+) => {
        impl<$($a: KernelValue<$t>, $t,)+> KernelValue<($($t,)+)> for ($($a,)+) {
            #[allow(non_snake_case)]
            fn into_kernel_value(self) -> Result<($($t,)+)> {
                let ($($a,)+) = self;
                Ok(($($a.into_kernel_value()?,)+))
            }
        }
    };
}

kernel_value_tuple!(A0 T0);
kernel_value_tuple!(A0 T0, A1 T1);
kernel_value_tuple!(A0 T0, A1 T1, A2 T2);
kernel_value_tuple!(A0 T0, A1 T1, A2 T2, A3 T3);
kernel_value_tuple!(A0 T0, A1 T1, A2 T2, A3 T3, A4 T4);
kernel_value_tuple!(A0 T0, A1 T1, A2 T2, A3 T3, A4 T4, A5 T5);
