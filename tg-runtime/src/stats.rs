//! Counters of what realizing did, per thread (so parallel tests do not see each other's work)
//! and for the whole process.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// What realizes have done so far.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls that executed at least one kernel or upload.
    pub realizes: u64,
    /// Kernels dispatched.
    pub kernels: u64,
    /// Kernels whose shader had to be compiled by shaderc (memory and disk caches missed).
    pub compiles: u64,
    /// Host buffers uploaded.
    pub uploads: u64,
    /// Graphs scheduled.
    pub schedules: u64,
    /// Graph nodes created (hash-consing hits are not counted).
    pub nodes: u64,
    /// The most loop back-edges one invocation of any dispatched kernel takes (the figure
    /// the scheduler keeps under a device's loop budget); a maximum, not a sum.
    pub max_loops: u64,
}

thread_local! {
    static LOCAL: Cell<Stats> = Cell::new(Stats::default());
}
static REALIZES: AtomicU64 = AtomicU64::new(0);
static KERNELS: AtomicU64 = AtomicU64::new(0);
static COMPILES: AtomicU64 = AtomicU64::new(0);
static UPLOADS: AtomicU64 = AtomicU64::new(0);
static SCHEDULES: AtomicU64 = AtomicU64::new(0);
static NODES: AtomicU64 = AtomicU64::new(0);
static MAX_LOOPS: AtomicU64 = AtomicU64::new(0);

/// Work done by realizes on the calling thread.
pub fn thread_stats() -> Stats {
    LOCAL.with(|s| s.get())
}

/// Work done by realizes on all threads.
pub fn process_stats() -> Stats {
    Stats {
        realizes: REALIZES.load(Ordering::Relaxed),
        kernels: KERNELS.load(Ordering::Relaxed),
        compiles: COMPILES.load(Ordering::Relaxed),
        uploads: UPLOADS.load(Ordering::Relaxed),
        schedules: SCHEDULES.load(Ordering::Relaxed),
        nodes: NODES.load(Ordering::Relaxed),
        max_loops: MAX_LOOPS.load(Ordering::Relaxed),
    }
}

pub(crate) fn record(delta: Stats) {
    LOCAL.with(|s| {
        let mut v = s.get();
        v.realizes += delta.realizes;
        v.kernels += delta.kernels;
        v.compiles += delta.compiles;
        v.uploads += delta.uploads;
        v.schedules += delta.schedules;
        v.nodes += delta.nodes;
        v.max_loops = v.max_loops.max(delta.max_loops);
        s.set(v);
    });
    REALIZES.fetch_add(delta.realizes, Ordering::Relaxed);
    KERNELS.fetch_add(delta.kernels, Ordering::Relaxed);
    COMPILES.fetch_add(delta.compiles, Ordering::Relaxed);
    UPLOADS.fetch_add(delta.uploads, Ordering::Relaxed);
    SCHEDULES.fetch_add(delta.schedules, Ordering::Relaxed);
    NODES.fetch_add(delta.nodes, Ordering::Relaxed);
    MAX_LOOPS.fetch_max(delta.max_loops, Ordering::Relaxed);
}
