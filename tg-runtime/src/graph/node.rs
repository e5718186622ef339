//! Graph nodes: one primitive op over its sources, hash-consed so that the same subgraph built
//! twice is one node (and is computed once).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, Weak};

use crate::device::{Buffer, DeviceId};
use crate::dtype::{DType, Scalar};
use crate::error::{Error, Result};
use crate::ops::{BinaryOp, ReduceOp, TernaryOp, UnaryOp};

/// A constant's value, hashable by its bits.
#[derive(Copy, Clone, Debug)]
pub struct ConstValue(pub Scalar);

impl PartialEq for ConstValue {
    fn eq(&self, other: &Self) -> bool {
        self.0.key_bits() == other.0.key_bits()
            && std::mem::discriminant(&self.0) == std::mem::discriminant(&other.0)
    }
}
impl Eq for ConstValue {}
impl Hash for ConstValue {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.key_bits().hash(state);
    }
}

/// What a node computes. Targets of casts and movement ops are the node's own dtype and shape.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Data that lives in a device buffer (or host data waiting to be uploaded).
    Buffer,
    /// One value everywhere.
    Const(ConstValue),
    /// A scalar a replay may rebind: one value everywhere, named by `id`, read by kernels
    /// from their push constants (a `#[kernel]`'s scalar argument, a random stream's key).
    Var(u64, ConstValue),
    /// An elementwise op of one source.
    Unary(UnaryOp),
    /// An elementwise op of two sources.
    Binary(BinaryOp),
    /// An elementwise op of three sources.
    Ternary(TernaryOp),
    /// A conversion to the node's dtype.
    Cast,
    /// A reinterpretation of the bits as the node's dtype.
    Bitcast,
    /// Reduces the listed axes to size 1.
    Reduce(ReduceOp, Vec<usize>),
    /// The same elements in the node's shape.
    Reshape,
    /// Size-1 axes stretched to the node's shape.
    Expand,
    /// Output axis `i` is source axis `perm[i]`.
    Permute(Vec<usize>),
    /// Zero padding `(before, after)` per axis.
    Pad(Vec<(usize, usize)>),
    /// Keeps `start..end` per axis.
    Shrink(Vec<(usize, usize)>),
    /// Reverses the listed axes.
    Flip(Vec<usize>),
    /// Reads source 0 along `axis` at the positions source 1 (an integer tensor of the
    /// node's shape) holds; the other axes are the output's own. Positions outside the axis
    /// read 0. The one data-dependent read: a movement op's positions are known when the
    /// kernel is written, these only when it runs.
    Gather(usize),
    /// Merges sorted runs: the source is u32 records of `W` words (its last axis), in rows
    /// along the axis before; each row's consecutive runs of `run` records are sorted
    /// (ascending, word by word), and the node holds them merged in pairs into runs of
    /// `2 * run` (equal records keep their order). Where every other op is a function of each
    /// output's position, this one reads its sources sequentially: a kernel of its own, from
    /// a template (`codegen/glsl/merge.rs`), `O(n)` work per row. `log2(n)` of them sort.
    MergeRuns(usize),
    /// Sorts runs: the source is u32 records as for `MergeRuns`, and the node holds each
    /// row's consecutive runs of `run` records (a power of two, at most `MAX_SORT_RUN`; a
    /// row's last run may be shorter) sorted, ascending word by word (equal records are equal
    /// in every word, so which comes first is not seen). An invocation sorts a run in its
    /// registers by a sorting network, from a template (`codegen/glsl/sort.rs`): a merge sort
    /// starts from these runs instead of merging runs of 1, 2, 4 ...
    SortRuns(usize),
    /// The inclusive scan (`Add`, `Mul`, or `Max` of integers) of each row (the last axis)
    /// restarting every `run` elements: element `i` combines the elements from the start of
    /// its run to `i`, after the run's carry where a second source holds one a run (sums and
    /// maxima). Like a merge, a kernel of its own from a template
    /// (`codegen/glsl/scan.rs`) that reads each run sequentially, `O(n)` work.
    ScanRuns(crate::ops::ReduceOp, usize),
    /// A pass of a fused scaled dot-product attention ([`crate::ops::AttentionPass`]), its
    /// keys masked as [`crate::ops::AttentionMask`] says. The forward's sources are
    /// `q (.., L, D)`, `k (.., S, D)`, `v (.., S, Dv)` (f32, the same batch axes), then an
    /// additive mask's `(.., L or 1, S)`; it holds each query row's output and then its
    /// logsumexp, `(.., L, Dv + 1)`. The backward passes read q, k and v, the forward's
    /// node, its gradient, each row's `rowsum(dO * O) - dL` `(.., L, 1)` and the mask. Like a
    /// scan, a kernel of its own from a template (`codegen/glsl/attention.rs`) that loops
    /// over the keys (or the queries): no `L x S` scores are stored. With dropout
    /// ([`crate::ops::AttentionDropout`]) each pass reads the kept weights' bits last.
    Attention(
        crate::ops::AttentionPass,
        crate::ops::AttentionMask,
        Option<crate::ops::AttentionDropout>,
    ),
    /// Forces its source into a buffer of its own.
    Contiguous,
    /// Writes source 1 into the buffer of source 0 (a buffer node, or an earlier assign), in
    /// place: the node then stands for the buffer's new contents.
    Assign,
    /// Writes source 1 into a window of the buffer of source 0 (as for [`Op::Assign`]):
    /// along axis `axis`, source 1's `T` rows land at positions `start..start + T`, where
    /// `start` is source 2, an integer scalar read when the kernel runs (a var: a KV cache's
    /// position), taken as unsigned; rows landing at or past the axis's end are dropped, the
    /// rest of the buffer is kept. The node stands for the buffer's new contents. Its kernel
    /// runs over the window, not the buffer (`kernel::window`), so a decode step's write of
    /// one row costs one row, not the whole cache.
    AssignWindow(usize),
    /// Its source's value, through which no gradient flows.
    Detach,
    /// Its source's value; the gradient flowing back through it is made contiguous (a buffer
    /// of its own), as tinygrad's `contiguous_backward`.
    ContiguousBackward,
}

impl Op {
    /// Whether the op only moves data (reshape, expand, permute, pad, shrink, flip).
    pub fn is_movement(&self) -> bool {
        matches!(
            self,
            Op::Reshape | Op::Expand | Op::Permute(_) | Op::Pad(_) | Op::Shrink(_) | Op::Flip(_)
        )
    }

    /// Whether the op writes into its first source's buffer in place ([`Op::Assign`],
    /// [`Op::AssignWindow`]).
    pub fn writes_in_place(&self) -> bool {
        matches!(self, Op::Assign | Op::AssignWindow(_))
    }

    /// Computes each element from the same element of its sources (identities included).
    pub fn is_elementwise(&self) -> bool {
        matches!(
            self,
            Op::Unary(_)
                | Op::Binary(_)
                | Op::Ternary(_)
                | Op::Cast
                | Op::Bitcast
                | Op::Detach
                | Op::ContiguousBackward
        )
    }
}

/// Where a node's value is computed: a tensor knows its device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    /// Any device: constants, vars and what is built from them alone. Computed where it is
    /// used; once realized, a realize on another device copies its buffer.
    Any,
    /// The default device ([`crate::device::Device::get`]), whichever it turns out to be:
    /// host data made outside any `Device::scope`. Naming it this way lets graphs be built
    /// and planned with no device at all.
    Default,
    /// One device.
    On(DeviceId),
}

impl Placement {
    /// Where new host data and buffers go: the thread's `Device::scope`, else the default.
    pub fn current() -> Placement {
        crate::device::registry_scoped().map_or(Placement::Default, Placement::On)
    }

    /// The device of `self`, with the default device's id where it is open.
    fn resolved(self) -> Placement {
        match self {
            Placement::Default => crate::device::Device::default_if_open()
                .map_or(Placement::Default, |d| Placement::On(d.id())),
            p => p,
        }
    }

    /// How errors name it.
    fn label(self) -> String {
        match self.resolved() {
            Placement::On(id) => crate::device::registry_label(id),
            Placement::Default => "the default device".into(),
            Placement::Any => "any device".into(),
        }
    }

    /// The placement of a node over sources placed `self` and `other`: one device, or
    /// [`Error::DeviceMismatch`] naming both.
    pub fn join(self, other: Placement, op: &'static str) -> Result<Placement> {
        match (self, other) {
            (Placement::Any, p) | (p, Placement::Any) => Ok(p),
            (a, b) if a == b => Ok(a),
            (a, b) if a.resolved() == b.resolved() => Ok(a.resolved()),
            (a, b) => Err(Error::DeviceMismatch {
                op,
                first: a.label(),
                second: b.label(),
            }),
        }
    }

    /// The join of every node's placement.
    pub fn of(nodes: &[&Arc<Node>], op: &'static str) -> Result<Placement> {
        nodes
            .iter()
            .try_fold(Placement::Any, |p, n| p.join(n.placement, op))
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    op: Op,
    dtype: DType,
    shape: Vec<usize>,
    srcs: Vec<u64>,
    placement: Placement,
    /// The gated region (a recording) the node was built in, 0 outside one: nodes built in a
    /// region are found only by builds in it (`gate_sharing`).
    scope: u64,
}

struct State {
    srcs: Vec<Arc<Node>>,
    /// A derivative rule of its own (`Lazy::with_gradient`), dropped with the sources.
    backward: Option<Arc<crate::graph::gradient::Backward>>,
    buffer: Option<Arc<Buffer>>,
    /// Host bytes of a buffer node not yet uploaded.
    host: Option<Arc<[u8]>>,
}

/// One node of the lazy graph.
pub struct Node {
    id: u64,
    op: Op,
    dtype: DType,
    shape: Vec<usize>,
    placement: Placement,
    /// Its value is a function of constants alone (no var, no buffer below it), so once
    /// computed it never changes.
    constant: bool,
    key: Option<Key>,
    state: Mutex<State>,
    /// Tracks gradients: nodes built from it keep their sources once realized, so a gradient
    /// may still walk back through them (tinygrad's `requires_grad`).
    track: std::sync::atomic::AtomicBool,
    /// Keeps its own sources once realized (a tracked node that a gradient passes through).
    keep: std::sync::atomic::AtomicBool,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);
static TABLE: LazyLock<Mutex<HashMap<Key, Weak<Node>>>> = LazyLock::new(Default::default);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding one of these locks leaves consistent data; keep going.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Node {
    /// The node for `op` over `srcs`, placed where its sources are (`Any` without sources),
    /// reusing a live identical one. A single source cannot disagree with itself; ops over
    /// several check theirs first (`Placement::of`) and use [`Node::intern_at`].
    pub(crate) fn intern(
        op: Op,
        dtype: DType,
        shape: Vec<usize>,
        srcs: Vec<Arc<Node>>,
    ) -> Arc<Node> {
        let placement = srcs.first().map_or(Placement::Any, |s| s.placement);
        Node::intern_at(op, dtype, shape, srcs, placement)
    }

    /// [`Node::intern`] at a given placement.
    pub(crate) fn intern_at(
        op: Op,
        dtype: DType,
        shape: Vec<usize>,
        srcs: Vec<Arc<Node>>,
        placement: Placement,
    ) -> Arc<Node> {
        let (scope, gate) = SHARE_GATE
            .with(|g| g.get())
            .map_or((0, None), |(s, g)| (s, Some(g)));
        let key = Key {
            op: op.clone(),
            dtype,
            shape: shape.clone(),
            srcs: srcs.iter().map(|s| s.id).collect(),
            placement,
            scope,
        };
        // no gradient flows through a detach: what is built from it tracks nothing
        let keep = srcs.iter().any(|s| s.tracks()) && op != Op::Detach;
        let constant = match op {
            Op::Const(_) => true,
            Op::Var(..) | Op::Buffer | Op::Assign | Op::AssignWindow(_) => false,
            _ => !srcs.is_empty() && srcs.iter().all(|s| s.constant),
        };
        let shared = |node: Arc<Node>| {
            if keep {
                node.track.store(true, Ordering::Relaxed);
                node.keep.store(true, Ordering::Relaxed);
            }
            node
        };
        let mut table = lock(&TABLE);
        // a node of this scope: outside gated regions any node, inside one a node the region
        // built itself
        if let Some(node) = table.get(&key).and_then(Weak::upgrade) {
            return shared(node);
        }
        // inside a gated region, a node from outside it, if the gate lets the region have it
        if let Some(gate) = gate {
            let outside = Key {
                scope: 0,
                ..key.clone()
            };
            if let Some(node) = table.get(&outside).and_then(Weak::upgrade) {
                // the gate is asked without the table's lock: it reads the node's state,
                // under whose lock a realize drops sources (whose `Drop` takes the table's)
                drop(table);
                if gate(&node) {
                    return shared(node);
                }
                // a node of the region's own (the other stays its holders')
                drop(node);
                table = lock(&TABLE);
            }
        }
        let node = Arc::new(Node {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            op,
            dtype,
            shape,
            placement,
            constant,
            key: Some(key.clone()),
            state: Mutex::new(State {
                srcs,
                backward: None,
                buffer: None,
                host: None,
            }),
            track: std::sync::atomic::AtomicBool::new(keep),
            keep: std::sync::atomic::AtomicBool::new(keep),
        });
        table.insert(key, Arc::downgrade(&node));
        crate::stats::record(crate::stats::Stats {
            nodes: 1,
            ..Default::default()
        });
        node
    }

    /// A fresh node that hash-consing never returns for another build: an in-place write is
    /// an event, not a value two graphs may share.
    pub(crate) fn unique(
        op: Op,
        dtype: DType,
        shape: Vec<usize>,
        srcs: Vec<Arc<Node>>,
        placement: Placement,
    ) -> Arc<Node> {
        // a write keeps nothing of what it wrote, but a tracked parameter stays tracked
        let track = srcs.first().is_some_and(|t| t.tracks());
        Arc::new(Node {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            op,
            dtype,
            shape,
            placement,
            constant: false,
            key: None,
            state: Mutex::new(State {
                srcs,
                backward: None,
                buffer: None,
                host: None,
            }),
            track: std::sync::atomic::AtomicBool::new(track),
            keep: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// A fresh buffer node; never shared with another.
    pub(crate) fn new_buffer(
        dtype: DType,
        shape: Vec<usize>,
        buffer: Option<Arc<Buffer>>,
        host: Option<Arc<[u8]>>,
        placement: Placement,
    ) -> Arc<Node> {
        Arc::new(Node {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            op: Op::Buffer,
            dtype,
            shape,
            placement,
            constant: false,
            key: None,
            state: Mutex::new(State {
                srcs: Vec::new(),
                backward: None,
                buffer,
                host,
            }),
            track: std::sync::atomic::AtomicBool::new(false),
            keep: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// The hash-consing id: equal ids are the same computation.
    pub fn id(&self) -> u64 {
        self.id
    }
    /// The primitive op.
    pub fn op(&self) -> &Op {
        &self.op
    }
    /// The element type.
    pub fn dtype(&self) -> DType {
        self.dtype
    }
    /// The sizes.
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }
    /// The element count.
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }
    /// Where the value is computed.
    pub fn placement(&self) -> Placement {
        self.placement
    }
    /// Whether the value is a function of constants alone (no var, no buffer below it):
    /// once computed, it never changes.
    pub fn is_constant(&self) -> bool {
        self.constant
    }

    /// The sources; empty once the node is realized (its buffer replaces them), except while
    /// this thread has them pinned (see `pin_sources`).
    pub fn srcs(&self) -> Vec<Arc<Node>> {
        let pinned = PINNED.with(|p| p.borrow().as_ref().and_then(|m| m.get(&self.id).cloned()));
        pinned.unwrap_or_else(|| lock(&self.state).srcs.clone())
    }

    /// Its own derivative rule, if one was given (`Lazy::with_gradient`) and the sources
    /// are still kept.
    pub(crate) fn backward(&self) -> Option<Arc<crate::graph::gradient::Backward>> {
        lock(&self.state).backward.clone()
    }

    /// Gives the node its own derivative rule (kept until the sources are dropped).
    pub(crate) fn set_backward(&self, backward: crate::graph::gradient::Backward) {
        let mut st = lock(&self.state);
        if st.buffer.is_none() || self.keeps_sources() {
            st.backward = Some(Arc::new(backward));
        }
    }

    /// The sources, pinned for the rest of this thread's realize if pinning is on.
    pub(crate) fn srcs_pinned(&self) -> Vec<Arc<Node>> {
        let srcs = self.srcs();
        PINNED.with(|p| {
            if let Some(m) = p.borrow_mut().as_mut() {
                m.entry(self.id).or_insert_with(|| srcs.clone());
            }
        });
        srcs
    }

    /// Does the node keep its sources once realized?
    pub fn keeps_sources(&self) -> bool {
        self.keep.load(Ordering::Relaxed)
    }

    /// Does the node track gradients (nodes built from it keep their sources)?
    pub fn tracks(&self) -> bool {
        self.track.load(Ordering::Relaxed)
    }

    /// Makes every node built from this one later keep its sources when realized.
    pub(crate) fn track(&self) {
        self.track.store(true, Ordering::Relaxed);
    }

    /// The computed buffer, once realized. A node placed anywhere holds the buffer of the
    /// device that realized it first; a realize on another device copies it.
    pub fn buffer(&self) -> Option<Arc<Buffer>> {
        lock(&self.state).buffer.clone()
    }

    /// Whether the node holds a computed buffer.
    pub fn is_realized(&self) -> bool {
        lock(&self.state).buffer.is_some()
    }

    /// Host bytes waiting for upload, if any.
    pub(crate) fn pending_host(&self) -> Option<Arc<[u8]>> {
        let st = lock(&self.state);
        if st.buffer.is_some() {
            None
        } else {
            st.host.clone()
        }
    }

    /// Records the result; the first buffer wins if two threads realized the node at once.
    /// The sources are dropped so that the graph above a realized node can be freed.
    pub(crate) fn set_buffer(&self, buffer: Arc<Buffer>) {
        let mut st = lock(&self.state);
        if st.buffer.is_none() {
            st.buffer = Some(buffer);
            if !self.keeps_sources() {
                st.srcs.clear();
                st.backward = None;
            }
            st.host = None;
        }
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if let Some(key) = self.key.take() {
            let mut table = lock(&TABLE);
            if table.get(&key).is_some_and(|w| w.strong_count() == 0) {
                table.remove(&key);
            }
        }
        // Free the sources iteratively: dropping a deep unrealized graph (a thousand hash
        // rounds) would otherwise recurse once per level and overflow the stack.
        let state = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        let mut stack = std::mem::take(&mut state.srcs);
        while let Some(n) = stack.pop() {
            if let Ok(mut inner) = Arc::try_unwrap(n) {
                let st = inner.state.get_mut().unwrap_or_else(|e| e.into_inner());
                stack.append(&mut st.srcs);
                // `inner` drops here with no sources left, so this does not recurse
            }
        }
    }
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "%{} {:?} {} {:?}",
            self.id, self.op, self.dtype, self.shape
        )
    }
}

thread_local! {
    /// The gated region a layer above opened on this thread (a recording, which must compute
    /// what its body builds rather than read a value realized before it or by another
    /// thread): its scope id and the rule for nodes from outside it; `None` shares every
    /// node. Held here so that graph/ asks without importing what sets it.
    static SHARE_GATE: std::cell::Cell<Option<(u64, ShareGate)>> = const { std::cell::Cell::new(None) };
}

/// A hash-consing rule: whether an existing node from outside a gated region may be handed
/// to a build inside it.
pub(crate) type ShareGate = fn(&Node) -> bool;

/// Scope ids of gated regions (0 is outside every region).
static NEXT_SCOPE: AtomicU64 = AtomicU64::new(1);

/// Opens a gated region on this thread until the guard drops (the previous one is restored
/// then, so regions nest as recordings do). Nodes built in the region are hash-consed within
/// it alone: no build outside it (another thread's, or this thread's after it) finds them,
/// so no one else realizes them while the region holds them unrealized. A build in the
/// region gets an existing node from outside it only where `gate` allows.
pub(crate) fn gate_sharing(gate: ShareGate) -> ShareGateGuard {
    let scope = NEXT_SCOPE.fetch_add(1, Ordering::Relaxed);
    ShareGateGuard {
        previous: SHARE_GATE.with(|g| g.replace(Some((scope, gate)))),
    }
}

pub(crate) struct ShareGateGuard {
    previous: Option<(u64, ShareGate)>,
}

impl Drop for ShareGateGuard {
    fn drop(&mut self) {
        SHARE_GATE.with(|g| g.set(self.previous));
    }
}

thread_local! {
    /// Sources as a realize first saw them. Another thread may realize a node of this graph
    /// meanwhile, which drops its sources; scheduling and lowering must keep seeing the graph
    /// they planned (recomputing such a node is correct, just redundant).
    static PINNED: std::cell::RefCell<Option<HashMap<u64, Vec<Arc<Node>>>>> = const { std::cell::RefCell::new(None) };
}

/// Pins sources read through `srcs_pinned` on this thread until the guard drops.
pub(crate) fn pin_sources() -> PinGuard {
    let previous = PINNED.with(|p| p.replace(Some(HashMap::new())));
    PinGuard { previous }
}

/// A copy of the sources this thread has pinned, for another thread working on the same
/// realize (`prepare::prepare_each` lowers its kernels on several threads, and lowering must
/// see the graph the scheduler planned, as on the realize's own thread).
pub(crate) fn pinned_sources() -> Option<HashMap<u64, Vec<Arc<Node>>>> {
    PINNED.with(|p| p.borrow().clone())
}

/// Pins `pins` (from [`pinned_sources`] of another thread) on this thread until the guard
/// drops.
pub(crate) fn pin_copied(pins: Option<HashMap<u64, Vec<Arc<Node>>>>) -> PinGuard {
    let previous = PINNED.with(|p| p.replace(pins));
    PinGuard { previous }
}

pub(crate) struct PinGuard {
    previous: Option<HashMap<u64, Vec<Arc<Node>>>>,
}

impl Drop for PinGuard {
    fn drop(&mut self) {
        let previous = self.previous.take();
        // dropping the pinned sources may free nodes, whose Drop takes the table lock: fine
        let pinned = PINNED.with(|p| p.replace(previous));
        drop(pinned);
    }
}

/// Number of live interned nodes (for tests of hash-consing and freeing).
pub fn live_interned_nodes() -> usize {
    lock(&TABLE)
        .values()
        .filter(|w| w.strong_count() > 0)
        .count()
}
