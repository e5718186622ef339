//! Realize: schedule a graph, prepare its kernels, and run them all in one submit.

mod arena;
pub mod record;
mod recycle;

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use crate::config::debug_level;
use crate::device::{Buffer, Device, Dispatch};
use crate::error::{Error, Result};
use crate::graph::lazy::Lazy;
pub use crate::graph::lazy::device_of;
use crate::graph::node::Node;
use crate::kernel::{Kernel, MAX_ELEMENTS, Strategy, buffer_bytes};
use crate::prepare;
use crate::schedule::{Schedule, schedule};
use crate::stats::{self, Stats};
use crate::target::Target;

/// Index arithmetic is 32-bit: refuse what it cannot address.
fn check_size(node: &Node) -> Result<()> {
    if node.numel() as u64 > MAX_ELEMENTS {
        return Err(Error::TooManyElements {
            op: "realize",
            shape: node.shape().to_vec(),
            numel: node.numel() as u64,
            max: MAX_ELEMENTS,
        });
    }
    Ok(())
}

/// What one realize ran.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Kernel names, in dispatch order.
    pub kernels: Vec<String>,
    /// GPU time of each kernel, when timing was asked for and the device has timestamps.
    pub kernel_ns: Option<Vec<u64>>,
    /// Host time of the whole realize: schedule, codegen, caches, submit and wait.
    pub wall_ns: u64,
}

/// One kernel a realize would run, as [`plan`] describes it.
#[derive(Clone, Debug)]
pub struct Planned {
    /// The kernel's name (`E`/`R`, cooperative `c` or row `r`, output shape, dtype).
    pub name: String,
    /// How invocations map to outputs.
    pub strategy: Strategy,
    /// Loop back-edges one invocation takes at most.
    pub loops: u64,
    /// The GLSL source.
    pub source: String,
    /// Push-constant words besides the element count (scalars, trip counts, addresses).
    pub params: usize,
    /// Loads from input buffers in the kernel's code (a vector load counts once).
    pub loads: usize,
    /// Workgroups a dispatch runs.
    pub workgroups: u64,
    /// The kernel as the scheduler hands it to lowering (for lowering's tests).
    pub kernel: Kernel,
}

/// What a realize of `targets` would run on a device described by `info`, without a device:
/// the schedule for its limits, each kernel lowered and rendered. For tests that run with no
/// Vulkan driver, and for tools that count kernels.
pub fn plan(targets: &[&Lazy], info: &crate::device::DeviceInfo) -> Result<Vec<Planned>> {
    let nodes: Vec<Arc<Node>> = targets.iter().map(|t| t.node().clone()).collect();
    let _pinned = crate::graph::node::pin_sources();
    let target = Target::of(info);
    let cost = |k: &Kernel| prepare::lowered(k, &target).map(|l| l.shader.loops);
    let sched = schedule(&nodes, &target, &cost)?;
    sched
        .kernels
        .iter()
        .map(|k| {
            let l = prepare::lowered(k, &target)?;
            Ok(Planned {
                name: l.name.clone(),
                strategy: l.program.strategy,
                loops: l.shader.loops,
                source: l.shader.source.clone(),
                params: l.program.params.len() + 2 * l.shader.addresses.len(),
                loads: l.program.loads(),
                workgroups: l.program.workgroups(),
                kernel: k.clone(),
            })
        })
        .collect()
}

/// Waits until every realize submitted so far on the current device (the thread's
/// `Device::scope`, else the default) has completed (realize returns once its work is
/// submitted; reading a result waits for what it needs on its own). Call it before a program
/// exits with results it never read: lavapipe runs work on threads of the process, and an
/// exit that finds one still running tears LLVM down under it (a segfault at exit, seen when
/// a layer's initialisation was the last thing submitted). A hook of tg's own at exit cannot
/// help: LLVM registers its teardown on first use, after any hook tg could register.
pub fn synchronize() -> Result<()> {
    crate::device::current_device()?.synchronize()
}

/// Computes every target (and what it needs) into device buffers, with one submit. Returns
/// once the work is submitted: reading a result waits for it, and work realized later runs
/// after it.
pub fn realize(targets: &[&Lazy]) -> Result<()> {
    realize_report(targets, debug_level() >= 2).map(|_| ())
}

/// `realize`, returning what ran; with `timing`, each kernel's GPU time (for benchmarks).
pub fn realize_report(targets: &[&Lazy], timing: bool) -> Result<Report> {
    let nodes: Vec<Arc<Node>> = targets.iter().map(|t| t.node().clone()).collect();
    if nodes.iter().all(|n| n.is_realized()) {
        return Ok(Report::default());
    }
    let start = Instant::now();
    let dev = &device_of(targets)?;
    let _pinned = crate::graph::node::pin_sources();
    let target = Target::of(dev.info());
    let cost = |k: &Kernel| prepare::lowered(k, &target).map(|l| l.shader.loops);
    let sched = schedule(&nodes, &target, &cost)?;
    stats::record(Stats {
        schedules: 1,
        ..Default::default()
    });
    let scheduled = start.elapsed();
    let mut delta = Stats {
        uploads: place_inputs(dev, &sched)?,
        ..Default::default()
    };
    let mut buffers = Buffers {
        dev,
        results: HashMap::new(),
        owners: sched
            .aliases
            .iter()
            .map(|(n, owner)| (n.id(), owner.clone()))
            .collect(),
    };
    let recycling = recycle_plan(dev, &sched, &nodes);
    // without timing, kernels are submitted as they are prepared (a driver compiling at the
    // first dispatch starts meanwhile); with it, at once, to time them together
    let (dispatches, names) =
        dispatch_kernels(&sched, &recycling, &mut buffers, &mut delta, !timing)?;
    for (n, _) in &sched.aliases {
        let b = buffers.of(n)?;
        buffers.results.insert(n.id(), b);
    }
    let prepared = start.elapsed();
    // with timing, wait for the kernels' timestamps; else return once submitted: a read of
    // a result (or `synchronize`) waits for it, and the host builds the next graph meanwhile
    let report = if timing {
        dev.execute(&dispatches, true)?
    } else {
        let submitted = Instant::now();
        dev.submit(dispatches)?;
        crate::device::ExecReport {
            dispatches: sched.kernels.len(),
            kernel_ns: None,
            wall_ns: submitted.elapsed().as_nanos() as u64,
        }
    };
    // results reach their nodes now, but for buffers handed on to a later kernel
    for n in sched
        .kernels
        .iter()
        .zip(&recycling.handed_on)
        .filter(|(_, handed_on)| !**handed_on)
        .map(|(k, _)| &k.root)
        .chain(sched.kernels.iter().flat_map(|k| &k.also))
        .chain(sched.aliases.iter().map(|(n, _)| n))
    {
        if let Some(b) = buffers.results.get(&n.id()) {
            n.set_buffer(b.clone());
        }
    }
    delta.kernels = sched.kernels.len() as u64;
    delta.realizes = 1;
    stats::record(delta);
    if !sched.kernels.is_empty() {
        dev.save_pipeline_cache()?;
    }
    if debug_level() >= 1 {
        eprintln!(
            "tg: realize {} kernel(s), {} upload(s) in {:.3} ms (schedule {:.3}, prepare {:.3}, submit {:.3}) on {}",
            sched.kernels.len(),
            delta.uploads,
            start.elapsed().as_secs_f64() * 1e3,
            scheduled.as_secs_f64() * 1e3,
            (prepared - scheduled).as_secs_f64() * 1e3,
            report.wall_ns as f64 / 1e6,
            dev.info().name
        );
    }
    if debug_level() >= 2
        && let Some(times) = &report.kernel_ns
    {
        for (name, ns) in names.iter().zip(times) {
            eprintln!("  {name:<32} {:>10.3} us", *ns as f64 / 1e3);
        }
    }
    Ok(Report {
        kernels: names,
        kernel_ns: report.kernel_ns,
        wall_ns: start.elapsed().as_nanos() as u64,
    })
}

/// Gives the schedule's buffer nodes their buffers: host data uploaded, in-place targets
/// allocated, empty values empty. Returns the uploads.
fn place_inputs(dev: &Device, sched: &Schedule) -> Result<u64> {
    let mut uploads = 0;
    for n in &sched.uploads {
        check_size(n)?;
        if let Some(host) = n.pending_host() {
            let buf = dev.alloc(buffer_bytes(n))?;
            dev.write(&buf, 0, &host)?;
            n.set_buffer(buf);
            uploads += 1;
        }
    }
    for n in &sched.allocs {
        check_size(n)?;
        n.set_buffer(dev.alloc(buffer_bytes(n))?);
    }
    for n in &sched.empty {
        n.set_buffer(dev.alloc(0)?);
    }
    Ok(uploads)
}

/// The buffers of one realize's values: those its kernels write (published to their nodes
/// only after the submit), and the owners whose buffers aliases take (an earlier kernel of
/// the schedule may write one).
struct Buffers<'a> {
    dev: &'a Device,
    results: HashMap<u64, Arc<Buffer>>,
    owners: HashMap<u64, Arc<Node>>,
}

impl Buffers<'_> {
    /// The buffer `n` is read from: written by this schedule, its own, or its owner's.
    fn of(&self, n: &Arc<Node>) -> Result<Arc<Buffer>> {
        let mut n = n.clone();
        loop {
            if let Some(b) = self.results.get(&n.id()) {
                return Ok(b.clone());
            }
            if let Some(b) = n.buffer() {
                return copied_to(self.dev, b);
            }
            match self.owners.get(&n.id()) {
                Some(owner) => n = owner.clone(),
                None => {
                    return Err(Error::internal(
                        "realize",
                        format!("no buffer for input {n:?}"),
                    ));
                }
            }
        }
    }
}

/// Prepares every kernel of `sched` and its dispatch (in order), writing into a fresh
/// buffer, one `recycling` hands on, or an assign's target. With `early`, whenever the next
/// kernel is still being prepared the dispatches built so far are submitted
/// (`prepare::prepare_each`), so the driver starts on them. Returns the dispatches not yet
/// submitted and every kernel's name.
fn dispatch_kernels(
    sched: &Schedule,
    recycling: &recycle::Plan,
    buffers: &mut Buffers,
    delta: &mut Stats,
    early: bool,
) -> Result<(Vec<Dispatch>, Vec<String>)> {
    let dev = buffers.dev;
    let mut written: Vec<Arc<Buffer>> = Vec::with_capacity(sched.kernels.len());
    let pending = RefCell::new(Vec::with_capacity(sched.kernels.len()));
    let mut names = Vec::with_capacity(sched.kernels.len());
    // the tile a search chose for each kernel's class, when searches are asked for
    let chosen = sched
        .kernels
        .iter()
        .map(|k| {
            check_size(&k.root)?;
            crate::tune::choose(dev, k)
        })
        .collect::<Result<Vec<_>>>()?;
    let kernels: Vec<&Kernel> = chosen.iter().map(|k| &**k).collect();
    let ready = |j: usize, p: Arc<prepare::Prepared>, compiled: bool| -> Result<()> {
        let k = kernels[j];
        // an assign writes into its target's buffer; every other kernel into a fresh one, or
        // one its readers are done with (`recycle`)
        let out = match (k.root.op(), recycling.outs[j]) {
            (op, _) if op.writes_in_place() => buffers.of(&k.root.srcs()[0])?,
            (_, recycle::Out::Reuse(i)) => written[i].clone(),
            (_, recycle::Out::Fresh) => dev.alloc(buffer_bytes(&k.root))?,
        };
        written.push(out.clone());
        // a multi-output kernel's further roots: an assign into its target, else fresh
        let mut outs = vec![out.clone()];
        for r in &k.also {
            outs.push(match r.op() {
                op if op.writes_in_place() => buffers.of(&r.srcs()[0])?,
                _ => dev.alloc(buffer_bytes(r))?,
            });
        }
        let inputs = k
            .inputs
            .iter()
            .map(|i| buffers.of(i))
            .collect::<Result<Vec<_>>>()?;
        pending
            .borrow_mut()
            .push(prepare::dispatch(dev, &p, &outs, &inputs)?);
        let written_to: Vec<record::Written> = k
            .roots()
            .zip(&outs)
            .map(|(r, b)| record::Written {
                buffer: b.clone(),
                bytes: buffer_bytes(r),
                fresh: !r.op().writes_in_place(),
            })
            .collect();
        record::note_kernel(&p, &written_to, &inputs);
        delta.compiles += compiled as u64;
        delta.max_loops = delta.max_loops.max(p.shader.loops);
        if debug_level() >= 3 {
            let ins: Vec<String> = k
                .inputs
                .iter()
                .map(|i| format!("%{}{:?}", i.id(), i.shape()))
                .collect();
            eprintln!(
                "  kernel {:<28} %{} <- {}",
                p.name,
                k.root.id(),
                ins.join(", ")
            );
        }
        if debug_level() >= 4 {
            eprintln!("{}", p.shader.source);
        }
        names.push(p.name.clone());
        for (r, b) in k.also.iter().zip(&outs[1..]) {
            buffers.results.insert(r.id(), b.clone());
        }
        buffers.results.insert(k.root.id(), out);
        Ok(())
    };
    let waiting = || -> Result<()> {
        if early {
            let built: Vec<Dispatch> = std::mem::take(&mut *pending.borrow_mut());
            if !built.is_empty() {
                dev.submit(built)?;
            }
        }
        Ok(())
    };
    prepare::prepare_each(dev, &kernels, ready, waiting)?;
    Ok((pending.into_inner(), names))
}

/// `b` on `dev`: itself, or a copy through the host of a buffer another device realized (a
/// constant, which hash-consing shares between devices; other values cannot meet a realize
/// of another device, as their ops check devices).
fn copied_to(dev: &Device, b: Arc<Buffer>) -> Result<Arc<Buffer>> {
    if b.device_id() == dev.id() {
        return Ok(b);
    }
    let mut bytes = vec![0u8; b.size() as usize];
    let core = b.core();
    core.checked(core.read_impl(&b, 0, &mut bytes))?;
    let copy = dev.alloc(b.size())?;
    dev.write(&copy, 0, &bytes)?;
    Ok(copy)
}

impl Lazy {
    /// Computes this value into a device buffer.
    pub fn realize(&self) -> Result<()> {
        realize(&[self])
    }

    /// The device buffer that holds the value (realized first), for an application's own
    /// pipelines: [`Buffer::raw`] at [`Buffer::offset`], the elements in row-major order,
    /// little-endian, [`Buffer::size`] bytes (whole vectors of four elements). Order reads
    /// after the realize with [`Device::synced`] or [`Device::synchronize`].
    pub fn buffer(&self) -> Result<Arc<Buffer>> {
        self.realize()?;
        let n = self.node();
        n.buffer()
            .ok_or_else(|| Error::internal("buffer", format!("{n:?} is not realized")))
    }

    /// The values as little-endian bytes, in row-major order.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        self.realize()?;
        let n = self.node();
        let buf = n
            .buffer()
            .ok_or_else(|| Error::internal("to_bytes", format!("{n:?} is not realized")))?;
        let mut out = vec![0u8; n.numel() * n.dtype().size()];
        if !out.is_empty() {
            // through the buffer's own device, which lives while the buffer does
            let core = buf.core();
            core.checked(core.read_impl(&buf, 0, &mut out))?;
        }
        Ok(out)
    }

    /// The values converted to `T` (with tg's cast semantics if the dtype differs).
    pub fn to_vec<T: crate::dtype::Element>(&self) -> Result<Vec<T>> {
        let src = if self.dtype() == T::DTYPE {
            self.clone()
        } else {
            self.cast(T::DTYPE)
        };
        let bytes = src.to_bytes()?;
        Ok(bytes
            .chunks_exact(T::DTYPE.size())
            .map(T::read_le)
            .collect())
    }
}

/// The recycling plan of `sched` (see `recycle`): room for fresh buffers is half of what the
/// device's budget leaves free now; targets, in-place writes and the buffers aliases take
/// keep their own buffers. A recording run recycles too: a kernel that writes a buffer an
/// earlier one wrote is a fresh output of its own to the recording (`record::note_kernel`),
/// whose arena plans the replays' buffers by lifetime anyway (`arena.rs`).
fn recycle_plan(dev: &Device, sched: &Schedule, targets: &[Arc<Node>]) -> recycle::Plan {
    let room = dev.unused_budget() / 2;
    // the usual case, kept off the per-realize path: every buffer fits
    let total = sched
        .kernels
        .iter()
        .flat_map(|k| k.roots())
        .map(|r| buffer_bytes(r))
        .sum::<u64>();
    if total <= room {
        return recycle::Plan::all_fresh(sched.kernels.len());
    }
    let index: HashMap<u64, usize> = sched
        .kernels
        .iter()
        .enumerate()
        .map(|(j, k)| (k.root.id(), j))
        .collect();
    let mut kept: std::collections::HashSet<u64> = targets.iter().map(|n| n.id()).collect();
    // every owner of a chain of aliases is the owner of one pair
    kept.extend(sched.aliases.iter().map(|(_, owner)| owner.id()));
    let steps: Vec<recycle::Step> = sched
        .kernels
        .iter()
        .map(|k| recycle::Step {
            bytes: buffer_bytes(&k.root),
            reads: k
                .inputs
                .iter()
                .filter_map(|i| index.get(&i.id()).copied())
                .collect(),
            recyclable: !kept.contains(&k.root.id()) && !k.root.op().writes_in_place(),
            takes_over: true,
        })
        .collect();
    recycle::plan(&steps, room, recycle::Fit::Exact)
}
