//! Record and replay: the kernels that realizes ran while a function body executed, kept so
//! that a later call with inputs of the same shapes and dtypes dispatches them again on the new
//! input buffers, with no graph building, scheduling, codegen or compilation (tinygrad's
//! TinyJit idea). Provenance is tracked per buffer, so a body may realize several times.
//!
//! A body must not branch on tensor values or on anything else that a replay does not see
//! again: replay repeats the kernels, not the Rust code.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::device::{Buffer, DeviceId};
use crate::dtype::{DType, Scalar};
use crate::error::{Error, Result};
use crate::graph::lazy::Lazy;
use crate::graph::node::{Node, Placement};
use crate::prepare::{self, Prepared};

use super::arena;

/// Where a kernel's buffer comes from at replay.
#[derive(Clone)]
pub(super) enum Slot {
    /// The i-th input of the call.
    Input(usize),
    /// The buffer the k-th recorded kernel wrote as its j-th output (0 but for a
    /// multi-output kernel's further roots).
    Kernel(usize, usize),
    /// A buffer from outside the call (weights, constants uploaded inside the body): reused.
    Fixed(Arc<Buffer>),
}

/// Where a recorded kernel writes at replay.
#[derive(Clone)]
pub(super) enum Out {
    /// A fresh buffer of this many bytes, as the kernel wrote when recorded; `record` turns
    /// each into one of the next two.
    Fresh(u64),
    /// A buffer newly allocated for each call: the caller gets it back.
    Returned(u64),
    /// Buffer `i` of the recording's arena, which nothing outside the call sees. Values whose
    /// lifetimes do not overlap within a call share one (`arena.rs`).
    Arena(usize),
    /// An existing buffer, written in place (an assign into a call input or a captured
    /// buffer: a parameter an optimizer step updates, or an earlier kernel's output).
    Into(Slot),
}

struct RecKernel {
    prepared: Arc<Prepared>,
    /// Its outputs: the root's, then a multi-output kernel's further roots'.
    outs: Vec<Out>,
    inputs: Vec<Slot>,
}

/// One buffer a kernel wrote, as realize tells a recording.
pub(crate) struct Written {
    /// The buffer.
    pub buffer: Arc<Buffer>,
    /// The bytes its value takes.
    pub bytes: u64,
    /// Whether it was allocated for this kernel (else it is written in place).
    pub fresh: bool,
}

#[derive(Default)]
struct Recorder {
    inputs: Vec<u64>,
    kernels: Vec<RecKernel>,
    /// Buffer id -> the last kernel that wrote it, and which of its outputs.
    written: HashMap<u64, (usize, usize)>,
}

thread_local! {
    static ACTIVE: RefCell<Option<Recorder>> = const { RefCell::new(None) };
}

impl Recorder {
    fn slot(&self, b: &Arc<Buffer>) -> Slot {
        if let Some(&(k, j)) = self.written.get(&b.id()) {
            Slot::Kernel(k, j)
        } else if let Some(i) = self.inputs.iter().position(|&id| id == b.id()) {
            Slot::Input(i)
        } else {
            Slot::Fixed(b.clone())
        }
    }
}

/// Whether hash-consing may hand `node`, an existing node built outside the recording, to
/// the body being recorded on this thread (`record` sets it as graph/'s gate with
/// `graph::node::gate_sharing`, which keys the nodes the body builds within the recording:
/// no one outside it finds them). Only a constant, or a value the recording computed or
/// takes as an input. Anything else the recording would read as a fixed buffer
/// (`Slot::Fixed`), so every replay would see the value found then rather than compute it
/// from the call's inputs and vars: a value realized before the recording (an eager loss of
/// the same model and batch, kept alive; the same constants held by another thread keep
/// such a graph findable), or one not realized yet, which another thread holding it (an
/// eager step, another recording of the same kernel with equal scalar arguments and the
/// same weights) may realize before the body does. The body then gets a node of its own,
/// which the recording computes.
fn may_share(node: &Node) -> bool {
    if node.is_constant() {
        return true;
    }
    ACTIVE.with(|a| match a.borrow().as_ref() {
        Some(r) => node
            .buffer()
            .is_some_and(|b| !matches!(r.slot(&b), Slot::Fixed(_))),
        None => true,
    })
}

/// Called by realize for every kernel it dispatches while a recording is active, with the
/// buffers it writes (`outs`: one, or a multi-output kernel's several).
pub(crate) fn note_kernel(prepared: &Arc<Prepared>, outs: &[Written], inputs: &[Arc<Buffer>]) {
    ACTIVE.with(|a| {
        if let Some(r) = a.borrow_mut().as_mut() {
            let inputs = inputs.iter().map(|b| r.slot(b)).collect();
            let slots = outs
                .iter()
                .map(|w| {
                    if w.fresh {
                        Out::Fresh(w.bytes)
                    } else {
                        Out::Into(r.slot(&w.buffer))
                    }
                })
                .collect();
            let k = r.kernels.len();
            for (j, w) in outs.iter().enumerate() {
                r.written.insert(w.buffer.id(), (k, j));
            }
            r.kernels.push(RecKernel {
                prepared: prepared.clone(),
                outs: slots,
                inputs,
            });
        }
    });
}

/// The kernels one call ran, ready to run again on new inputs (on the device they ran on).
pub struct Recording {
    /// What `TG_DEBUG` calls its replays (a `#[kernel]` function's name; "replay" unless
    /// named).
    name: String,
    device: DeviceId,
    kernels: Vec<RecKernel>,
    inputs: Vec<(DType, Vec<usize>)>,
    outputs: Vec<(Slot, DType, Vec<usize>)>,
    /// The bytes of each arena buffer (`Out::Arena`).
    arena_bytes: Vec<u64>,
    /// The arena's buffers, allocated by the first replay and reused by every later one, so
    /// a replayed step allocates nothing for its intermediates.
    arena: Mutex<Vec<Option<Arc<Buffer>>>>,
}

fn buffer_of(l: &Lazy) -> Result<Arc<Buffer>> {
    l.node().buffer().ok_or_else(|| Error::Argument {
        op: "record",
        message: format!("{l:?} is not realized"),
    })
}

/// Runs `body` on `inputs`, realizing what it returns, and records the kernels that ran.
pub fn record(
    inputs: &[&Lazy],
    body: impl FnOnce() -> Result<Vec<Lazy>>,
) -> Result<(Vec<Lazy>, Recording)> {
    let device = super::device_of(inputs)?.id();
    super::realize(inputs)?;
    let ids = inputs
        .iter()
        .map(|l| buffer_of(l).map(|b| b.id()))
        .collect::<Result<Vec<_>>>()?;
    let previous = ACTIVE.with(|a| {
        a.replace(Some(Recorder {
            inputs: ids,
            ..Default::default()
        }))
    });
    let run = || -> Result<Vec<Lazy>> {
        let _gate = crate::graph::node::gate_sharing(may_share);
        let outs = body()?;
        super::realize(&outs.iter().collect::<Vec<_>>())?;
        Ok(outs)
    };
    let result = run();
    let recorder = ACTIVE.with(|a| a.replace(previous)).unwrap_or_default();
    let outs = result?;
    let outputs = outs
        .iter()
        .map(|o| Ok((recorder.slot(&buffer_of(o)?), o.dtype(), o.shape().to_vec())))
        .collect::<Result<Vec<_>>>()?;
    let mut kernels = recorder.kernels;
    let mut outs_of: Vec<Vec<Out>> = kernels
        .iter_mut()
        .map(|k| std::mem::take(&mut k.outs))
        .collect();
    let inputs_of: Vec<&[Slot]> = kernels.iter().map(|k| k.inputs.as_slice()).collect();
    let returned: Vec<Slot> = outputs.iter().map(|(s, _, _)| s.clone()).collect();
    let arena_bytes = arena::plan(&mut outs_of, &inputs_of, &returned)?;
    for (k, outs) in kernels.iter_mut().zip(outs_of) {
        k.outs = outs;
    }
    let recording = Recording {
        name: "replay".into(),
        device,
        kernels,
        inputs: inputs
            .iter()
            .map(|l| (l.dtype(), l.shape().to_vec()))
            .collect(),
        outputs,
        arena: Mutex::new(vec![None; arena_bytes.len()]),
        arena_bytes,
    };
    Ok((outs, recording))
}

impl Recording {
    /// The recording named `name` in what `TG_DEBUG` prints of its replays.
    pub fn named(mut self, name: &str) -> Recording {
        self.name = name.to_string();
        self
    }

    /// Kernels one replay dispatches.
    pub fn kernels(&self) -> usize {
        self.kernels.len()
    }

    /// Does a call with these inputs match the recording (same count, dtypes and shapes)?
    pub fn matches(&self, inputs: &[&Lazy]) -> bool {
        inputs.len() == self.inputs.len()
            && inputs
                .iter()
                .zip(&self.inputs)
                .all(|(l, (d, s))| l.dtype() == *d && l.shape() == s.as_slice())
    }

    /// The vars (`Lazy::var`) the recorded kernels read, by id.
    pub fn vars(&self) -> Vec<u64> {
        let mut ids: Vec<u64> = self
            .kernels
            .iter()
            .flat_map(|k| k.prepared.program.var_params.iter().map(|v| v.0))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Runs the recorded kernels on `inputs` in one submit and returns the new outputs.
    /// Kernels that wrote into a call input or a captured buffer write into the same buffer
    /// again, so a replayed update of parameters stays correct step after step. Vars read
    /// the values they were recorded with.
    pub fn replay(&self, inputs: &[&Lazy]) -> Result<Vec<Lazy>> {
        self.replay_with(inputs, &[])
    }

    /// [`Recording::replay`] with vars rebound: each `(id, value)` replaces the value var
    /// `id` had when recorded (a `#[kernel]`'s scalar argument, a random stream's key), as
    /// push-constant data, so nothing is recompiled.
    pub fn replay_with(&self, inputs: &[&Lazy], vars: &[(u64, Scalar)]) -> Result<Vec<Lazy>> {
        if !self.matches(inputs) {
            let got: Vec<String> = inputs
                .iter()
                .map(|l| format!("{} {:?}", l.dtype(), l.shape()))
                .collect();
            let want: Vec<String> = self
                .inputs
                .iter()
                .map(|(d, s)| format!("{d} {s:?}"))
                .collect();
            return Err(Error::Argument {
                op: "replay",
                message: format!(
                    "inputs [{}] do not match the recorded [{}]",
                    got.join(", "),
                    want.join(", ")
                ),
            });
        }
        let dev = &crate::device::lookup(self.device)?;
        let placement = Placement::On(self.device);
        let given: Vec<&Arc<Node>> = inputs.iter().map(|l| l.node()).collect();
        Placement::of(&given, "replay")?.join(placement, "replay")?;
        super::realize(inputs)?;
        let input_bufs = inputs
            .iter()
            .map(|l| buffer_of(l))
            .collect::<Result<Vec<_>>>()?;
        let mut outs: Vec<Vec<Arc<Buffer>>> = Vec::with_capacity(self.kernels.len());
        let mut dispatches = Vec::with_capacity(self.kernels.len());
        let resolve = |s: &Slot, outs: &[Vec<Arc<Buffer>>]| match s {
            Slot::Input(i) => input_bufs[*i].clone(),
            Slot::Kernel(k, j) => outs[*k][*j].clone(),
            Slot::Fixed(b) => b.clone(),
        };
        let mut arena = self.arena.lock().unwrap_or_else(|e| e.into_inner());
        for rec in &self.kernels {
            let mut written = Vec::with_capacity(rec.outs.len());
            for out in &rec.outs {
                written.push(match out {
                    Out::Into(slot) => resolve(slot, &outs),
                    Out::Returned(bytes) => dev.alloc(*bytes)?,
                    Out::Fresh(_) => {
                        return Err(Error::internal(
                            "replay",
                            format!(
                                "kernel {} has a fresh output the arena did not plan",
                                rec.prepared.name
                            ),
                        ));
                    }
                    Out::Arena(i) => match &arena[*i] {
                        Some(b) => b.clone(),
                        None => {
                            let b = dev.alloc(self.arena_bytes[*i])?;
                            arena[*i] = Some(b.clone());
                            b
                        }
                    },
                });
            }
            let bufs: Vec<Arc<Buffer>> = rec.inputs.iter().map(|s| resolve(s, &outs)).collect();
            let bind = |id: u64| vars.iter().find(|v| v.0 == id).map(|v| v.1);
            dispatches.push(prepare::dispatch_with(
                dev,
                &rec.prepared,
                &written,
                &bufs,
                &bind,
            )?);
            outs.push(written);
        }
        drop(arena);
        // TG_DEBUG: 1 a line per replay, 2 with each kernel's GPU time (as realize reports)
        let level = crate::config::debug_level();
        let start = std::time::Instant::now();
        let kernel_ns = if level >= 2 {
            dev.execute(&dispatches, true)?.kernel_ns
        } else {
            dev.submit(dispatches)?;
            None
        };
        super::stats::record(super::stats::Stats {
            kernels: self.kernels.len() as u64,
            ..Default::default()
        });
        if level >= 1 {
            eprintln!(
                "tg: replay `{}`: {} kernel(s), {} var(s) rebound, in {:.3} ms on {}",
                self.name,
                self.kernels.len(),
                vars.len(),
                start.elapsed().as_secs_f64() * 1e3,
                dev.info().name
            );
        }
        if let Some(times) = kernel_ns {
            for (k, ns) in self.kernels.iter().zip(times) {
                eprintln!("  {:<32} {:>10.3} us", k.prepared.name, ns as f64 / 1e3);
            }
        }
        Ok(self
            .outputs
            .iter()
            .map(|(slot, dtype, shape)| {
                Lazy(Node::new_buffer(
                    *dtype,
                    shape.clone(),
                    Some(resolve(slot, &outs)),
                    None,
                    placement,
                ))
            })
            .collect())
    }
}
