//! The scheduler: decides which nodes of a graph get buffers of their own and groups the rest
//! into kernels.
//!
//! Everything fuses by default: elementwise ops into their consumers, producers into the
//! reductions that consume them, and reductions into the elementwise ops after them. A node
//! gets its own buffer only when it is a target, marked `contiguous`, a merge or scan of runs
//! or what one reads (their kernels come from a template), or a reduction whose fusion would
//! compute it more than once per element (consumed through a broadcast, inside another
//! reduction, or by two kernels).
//!
//! The scheduler knows nothing of Vulkan: what it needs of the device comes as a [`Target`],
//! and the loop count of a planned kernel from a cost function (codegen's, through
//! `realize`), so it runs and is tested without a driver.

mod assign;
mod attention_split;
mod cap;
mod epilogue;
mod fanout;
mod fit;
mod gather;
mod live;
mod merge_axes;
mod multi;
mod reuse;
mod row_outputs;
mod rows;
mod split;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::graph::node::{Node, Op};
use crate::graph::walk::post_order;
use crate::kernel::{
    Kernel, LANES, MAX_ELEMENTS, SERIAL_THREADS, Strategy, reshape_span, subgroup_combines,
    tile_axes,
};
use crate::target::{BASE_ROWS, ClassDefaults, Target};

pub use fit::Plan;
pub use multi::MAX_BINDINGS;

/// Everything one realize does, in order.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    /// Buffer nodes whose host data must be uploaded first.
    pub uploads: Vec<Arc<Node>>,
    /// Buffer nodes with no data yet (the targets of in-place writes): allocated first.
    pub allocs: Vec<Arc<Node>>,
    /// Nodes that take the buffer of another node without computing (node, buffer owner):
    /// a `contiguous` of a buffer, or a reshape of a node with a buffer.
    pub aliases: Vec<(Arc<Node>, Arc<Node>)>,
    /// Nodes with no elements: they get an empty buffer and no kernel.
    pub empty: Vec<Arc<Node>>,
    /// Kernels, each after the kernels it reads from.
    pub kernels: Vec<Kernel>,
}

impl Schedule {
    /// Resolves nodes to the node whose buffer they take (`aliases`, followed through chains
    /// of aliases); a node that is no alias resolves to itself.
    pub(crate) fn owners(&self) -> Owners {
        Owners(
            self.aliases
                .iter()
                .map(|(n, owner)| (n.id(), owner.clone()))
                .collect(),
        )
    }
}

/// A schedule's alias map (see [`Schedule::owners`]).
pub(crate) struct Owners(HashMap<u64, Arc<Node>>);

impl Owners {
    /// The node whose buffer `n` takes.
    pub(crate) fn of(&self, n: &Arc<Node>) -> Arc<Node> {
        let mut n = n.clone();
        while let Some(owner) = self.0.get(&n.id()) {
            n = owner.clone();
        }
        n
    }
}

/// The loop back-edges one invocation of a planned kernel takes (see
/// `codegen::glsl::Shader::loops`).
pub type CostFn<'a> = &'a dyn Fn(&Kernel) -> Result<u64>;

/// Threads of a cooperative workgroup.
pub const COOP_THREADS: u32 = 64;

/// Plans the kernels that realize `targets` so that each fits the device (`target`: its
/// class's rules and loop budget).
///
/// Without a loop budget this is one planning pass. With one, every planned kernel's loop
/// count is taken from `cost` (codegen's exact count), and a kernel over the budget is
/// re-planned: its row plan dropped, or its longest reduction split into more chunks, until
/// every kernel fits; a kernel that cannot be made to fit is [`Error::Internal`]. Then a row
/// kernel takes in the kernels of its rows before it and writes their values too
/// (`row_outputs.rs`), and small elementwise kernels of one shape are packed into
/// multi-output kernels, alone or behind a reduction's (`multi.rs`).
pub fn schedule(targets: &[Arc<Node>], target: &Target, cost: CostFn) -> Result<Schedule> {
    let mut sched = fit::fit(targets, target, cost)?;
    row_outputs::join(&mut sched, target, cost)?;
    multi::group(&mut sched, target, cost)?;
    Ok(sched)
}

/// Nodes reachable from `targets` that still need computing, sources before users.
fn toposort(targets: &[Arc<Node>]) -> Vec<Arc<Node>> {
    post_order(targets, |n| {
        if n.is_realized() {
            Vec::new()
        } else {
            n.srcs_pinned()
        }
    })
}

/// Whether a kernel reads `n` from a buffer rather than computing it.
fn is_boundary(n: &Node, realize: &HashSet<u64>) -> bool {
    n.is_realized() || matches!(n.op(), Op::Buffer) || realize.contains(&n.id())
}

/// Does evaluating the node cost more than an index computation?
fn computes(n: &Node) -> bool {
    n.op().is_elementwise() || matches!(n.op(), Op::Reduce(..))
}

/// Whether `value`'s computation, within the region `realize` bounds, reads node `id`.
fn computes_from(value: &Arc<Node>, id: u64, realize: &HashSet<u64>) -> bool {
    let mut seen: HashSet<u64> = HashSet::new();
    let mut stack: Vec<Arc<Node>> = vec![value.clone()];
    while let Some(m) = stack.pop() {
        if m.id() == id {
            return true;
        }
        if !seen.insert(m.id()) || (m.id() != value.id() && is_boundary(&m, realize)) {
            continue;
        }
        stack.extend(m.srcs());
    }
    false
}

/// Walks the fused region of `root`, calling `visit(node, evaluations)` on each node inside it
/// and `input(node)` on each boundary node it reads. `evaluations` counts how often the node
/// is evaluated per kernel run.
fn walk_region(
    root: &Arc<Node>,
    realize: &HashSet<u64>,
    visit: &mut dyn FnMut(&Arc<Node>, u128),
    input: &mut dyn FnMut(&Arc<Node>),
) {
    let mut seen: HashMap<u64, u128> = HashMap::new();
    // (a window write's kernel runs over its window)
    let evals = crate::kernel::domain_numel(root).max(1) as u128;
    let mut stack = vec![(root.clone(), evals, true)];
    while let Some((n, evals, is_root)) = stack.pop() {
        if !is_root && is_boundary(&n, realize) {
            input(&n);
            continue;
        }
        // revisit only if reached with more evaluations than before
        if seen.get(&n.id()).is_some_and(|&e| e >= evals) {
            continue;
        }
        seen.insert(n.id(), evals);
        if !is_root {
            visit(&n, evals);
        }
        let inner = match n.op() {
            // saturating: a deep unsplit region (a whole model under one reduction, before
            // `grow` gives its reductions buffers) nests past u128, and the counts are only
            // compared
            Op::Reduce(_, axes) => {
                let src = &n.srcs()[0];
                evals.saturating_mul(
                    axes.iter()
                        .map(|&a| src.shape()[a] as u128)
                        .fold(1u128, u128::saturating_mul)
                        .max(1),
                )
            }
            _ => evals,
        };
        for s in n.srcs() {
            stack.push((s, inner, false));
        }
    }
}

/// Kernels index with 32-bit signed integers. A value is indexed axis by axis, so a view may
/// describe more elements than that (a scan's masked square of each chunk does); what must
/// fit is every flat index a kernel forms: over a buffer it reads or writes, across the axes
/// a reshape changes, along a reduction's loop, and any one axis.
fn check_sizes(order: &[Arc<Node>]) -> Result<()> {
    let max = MAX_ELEMENTS as usize;
    let too_many = |n: &Node, shape: &[usize]| Error::TooManyElements {
        op: "realize",
        shape: shape.to_vec(),
        numel: n.numel() as u64,
        max: max as u64,
    };
    // a realized node is read as a buffer (its sources are gone): only its size counts
    for n in order {
        let flat = match n.op() {
            _ if n.is_realized() => n.numel(),
            Op::Buffer | Op::Contiguous => n.numel(),
            Op::Reshape => reshape_span(n.srcs()[0].shape(), n.shape()),
            Op::Reduce(..) => trip(n),
            _ => n.shape().iter().copied().max().unwrap_or(0),
        };
        if flat > max {
            return Err(too_many(n, n.shape()));
        }
    }
    Ok(())
}

/// One planning pass: which nodes get buffers, and the kernels that compute them, following
/// the re-planning decisions of `plan`.
fn plan_once(targets: &[Arc<Node>], plan: &Plan, class: &ClassDefaults) -> Result<Schedule> {
    let order = toposort(targets);
    check_sizes(&order)?;
    let mut first = Schedule::default();
    let buffers = first_buffers(targets, &order, &mut first);
    // reductions whose tiled kernel's epilogue would outgrow a kernel's size (`epilogue.rs`):
    // each pass plans afresh from the first buffers and these
    let mut cut: HashSet<u64> = HashSet::new();
    loop {
        let mut realize = buffers.clone();
        realize.extend(&cut);
        let mut sched = first.clone();
        plan_kernels(&order, plan, class, &mut realize, &mut sched)?;
        let over: Vec<u64> = sched
            .kernels
            .iter()
            .flat_map(|k| epilogue::over(k, &realize))
            .map(|n| n.id())
            .collect();
        if over.is_empty() {
            assign::order_writes(&mut sched)?;
            return Ok(sched);
        }
        cut.extend(over);
    }
}

/// One planning pass over `order` with `realize` as its buffers so far (which it grows):
/// the aliases, empty nodes and kernels of `sched`.
fn plan_kernels(
    order: &[Arc<Node>],
    plan: &Plan,
    class: &ClassDefaults,
    realize: &mut HashSet<u64>,
    sched: &mut Schedule,
) -> Result<()> {
    let mut rows = grow(order, plan, realize);
    // an assign whose value reads the target other than element for element gets the value
    // computed into a buffer of its own first, then copied in; a window write's, where it
    // reads the target at all or reduces (its kernel is a plain one: no row plan)
    for a in order.iter().filter(|n| !n.is_realized()) {
        let apart = match a.op() {
            Op::Assign => !assign::pointwise(a, realize),
            Op::AssignWindow(_) => {
                rows.remove(&a.id());
                assign::window_value_apart(a, realize)
            }
            _ => false,
        };
        if apart {
            realize.insert(a.srcs()[1].id());
        }
    }
    let to_compute: Vec<Arc<Node>> = order
        .iter()
        .filter(|n| realize.contains(&n.id()))
        .cloned()
        .collect();
    for n in &to_compute {
        if n.numel() == 0 {
            sched.empty.push(n.clone());
            continue;
        }
        if let Some(owner) = alias_of(n, realize) {
            sched.aliases.push((n.clone(), owner));
            continue;
        }
        // a row plan keeps its reductions inside one kernel; splitting would scatter them
        let parts = match (plan.attention_chunk(n.id()), split::chunks(n, plan)) {
            (Some(c), _) => attention_split::split(n, c)?,
            (None, Some(s)) if !rows.contains_key(&n.id()) => split::split(n, s)?,
            _ => vec![split::Part {
                root: n.clone(),
                body: n.clone(),
                split_of: None,
            }],
        };
        realize.extend(parts.iter().map(|p| p.root.id()));
        for part in parts {
            // a row plan's rows, and a split's parts, are planned over the root's own shape
            let reshapes = part.split_of.is_none() && !rows.contains_key(&part.root.id());
            let mut k = plan_kernel(part.root, part.body, realize, class, reshapes);
            k.split_of = part.split_of;
            let row = rows.get(&k.root.id());
            k.row_plan = row.is_some();
            if let Some(row) = row {
                k.strategy = row_strategy(&k, row, realize, class);
            }
            sched.kernels.push(k);
        }
    }
    Ok(())
}

/// The nodes that get buffers whatever else fuses (targets, `contiguous`, in-place writes,
/// sorts, merges and scans and what they read, reductions under gathers), noting the uploads
/// and allocations in `sched`.
fn first_buffers(targets: &[Arc<Node>], order: &[Arc<Node>], sched: &mut Schedule) -> HashSet<u64> {
    let mut realize: HashSet<u64> = HashSet::new();
    for n in order {
        if n.is_realized() {
            continue;
        }
        match n.op() {
            Op::Buffer if n.pending_host().is_some() => sched.uploads.push(n.clone()),
            Op::Buffer => sched.allocs.push(n.clone()),
            Op::Contiguous | Op::Assign | Op::AssignWindow(_) => {
                realize.insert(n.id());
            }
            // a sort, a merge, a scan or an attention reads its sources from buffers, in a
            // kernel of its own
            Op::SortRuns(_) | Op::MergeRuns(_) | Op::ScanRuns(..) | Op::Attention(..) => {
                realize.insert(n.id());
                for src in n.srcs() {
                    if !is_boundary(&src, &realize) {
                        realize.insert(src.id());
                    }
                }
            }
            _ => {}
        }
    }
    for t in targets {
        if !t.is_realized() && !matches!(t.op(), Op::Buffer) {
            realize.insert(t.id());
        }
    }
    let under_gathers = gather::reductions_under(order, &realize);
    realize.extend(under_gathers);
    realize
}

/// Grows the set of nodes with buffers until no reduction would be computed more than once
/// per element (except reductions that a row kernel computes once per row), every reduction
/// the split rule takes has a kernel of its own, no value is read along too many paths and no
/// kernel is too large to compile quickly. Returns the row plans of the kernels that keep
/// them.
fn grow(
    order: &[Arc<Node>],
    plan: &Plan,
    realize: &mut HashSet<u64>,
) -> HashMap<u64, rows::RowPlan> {
    let mut rows: HashMap<u64, rows::RowPlan> = HashMap::new();
    loop {
        // reductions the split rule takes; values recomputed too often; reductions computed
        // more than once (reached from two kernels, or repeated without a row plan)
        let mut split_off = Vec::new();
        let mut values = Vec::new();
        let mut repeated = Vec::new();
        let mut owner: HashMap<u64, u64> = HashMap::new();
        rows.clear();
        for root in order.iter().filter(|n| realize.contains(&n.id())) {
            let mut broadcast: Vec<Arc<Node>> = Vec::new();
            // every reduction the region evaluates more than once per element, whichever list
            // takes it (a product's reduction that two kernels broadcast is `repeated`)
            let mut inflating: Vec<Arc<Node>> = Vec::new();
            // the highest value recomputed too often (walking from the root, the first found)
            let mut reused: Option<Arc<Node>> = None;
            walk_region(
                root,
                realize,
                &mut |n, evals| {
                    if reused.is_none() && reuse::worth_a_buffer(n, evals, realize) {
                        reused = Some(n.clone());
                    }
                    if matches!(n.op(), Op::Reduce(..)) {
                        if evals > n.numel() as u128 && !inflating.iter().any(|b| b.id() == n.id())
                        {
                            inflating.push(n.clone());
                        }
                        let twice = *owner.entry(n.id()).or_insert(root.id()) != root.id();
                        if split::chunks(n, plan).is_some() {
                            split_off.push(n.id());
                        } else if twice {
                            repeated.push(n.id());
                        } else if evals > n.numel() as u128
                            && !broadcast.iter().any(|b| b.id() == n.id())
                        {
                            broadcast.push(n.clone());
                        }
                    }
                },
                &mut |_| {},
            );
            // a reduction evaluated more than once per element (broadcast back over its row,
            // or read through a value that is itself read many times) repeats with it the
            // values it is computed from and those at its level (computed from it, one per
            // row: as many elements), which a row plan (or the reduction's own buffer) computes
            // once per row: their counts include those repeats, also where the reduction is
            // reached from a second kernel too (a decode step's q/k/v product, which the key
            // and value cache writes broadcast over every cached row: its elementwise products
            // were stored, `[1280, 768]` floats a token, past 400 rows). Any other value's
            // count is its own.
            if let Some(value) = reused {
                let own_count = !inflating.iter().any(|b| {
                    computes_from(b, value.id(), realize)
                        || value.numel() == b.numel() && computes_from(&value, b.id(), realize)
                });
                if own_count {
                    values.push(value.id());
                }
            }
            let row = if plan.is_flat(root.id()) {
                None
            } else {
                rows::row_split(root, realize, &broadcast)
            };
            match row {
                Some(row) => {
                    rows.insert(root.id(), row);
                }
                None => repeated.extend(broadcast.iter().map(|n| n.id())),
            }
        }
        // values read too often get their buffers before any repeated reduction does, and
        // the reductions are looked at again from the kernels that are left: a value's buffer
        // takes the reductions it is computed from into its own kernel, where a row plan may
        // keep them (an RMSNorm read by every row of a matrix-vector product, and through the
        // product by two KV-cache writes: one row kernel for the norm, not its reduction, its
        // scalar epilogue and its scaling as three)
        let add = if values.is_empty() { repeated } else { values };
        // values read through too many views, and kernels too large: outputs first, each
        // seeing the cuts above it
        let roots: Vec<Arc<Node>> = order
            .iter()
            .rev()
            .filter(|n| realize.contains(&n.id()))
            .cloned()
            .collect();
        let cut = fanout::cut_all(roots.clone(), realize);
        let capped = cap::cut_all(&roots, realize);
        let bound = plan
            .max_inputs()
            .is_some_and(|max| cap::cut_inputs(&roots, realize, max));
        if add.is_empty() && split_off.is_empty() && !cut && !capped && !bound {
            return rows;
        }
        realize.extend(add);
        realize.extend(split_off);
    }
}

/// The strategy of kernel `k`, which keeps a row plan.
fn row_strategy(
    k: &Kernel,
    row: &rows::RowPlan,
    realize: &HashSet<u64>,
    class: &ClassDefaults,
) -> Strategy {
    match row {
        rows::RowPlan::Row(row) => {
            // a CPU's subgroup a row (several rows a workgroup) where the class takes it
            // (`ClassDefaults::subgroup_rows`); else a workgroup a row where rows are few, or
            // an invocation a row (a workgroup's worth of rows)
            let count = k.root.numel() / row.max(&1);
            let (threads, rows) = if class.subgroup_rows(*row, count) {
                // several rows a workgroup where every combine stays in its subgroup (shared
                // memory would be the workgroup's, not the row's)
                let mut subgroup = true;
                walk_region(
                    &k.body,
                    realize,
                    &mut |n, _| {
                        if matches!(n.op(), Op::Reduce(..)) {
                            subgroup &= subgroup_combines(n.dtype());
                        }
                    },
                    &mut |_| {},
                );
                // (with a workgroup for every core where rows are few)
                let rows = if subgroup {
                    (COOP_THREADS / class.row_threads)
                        .min((count / class.cores()).max(1) as u32)
                        .max(1)
                } else {
                    1
                };
                (class.row_threads, rows)
            } else if count < class.busy {
                (COOP_THREADS, 1)
            } else {
                (1, SERIAL_THREADS)
            };
            Strategy::Row {
                threads,
                row: *row,
                rows,
            }
        }
        // one value a row: an invocation computes 4 rows, keeping them, where those keep the
        // device busy (var of (4096, 1024) on lavapipe: 6.9-7.1 ms cooperative, 2.7 serial;
        // logsumexp 8.7 and 4.3)
        rows::RowPlan::Reduce if k.root.numel().div_ceil(LANES) < class.busy => {
            Strategy::Cooperative {
                threads: COOP_THREADS,
            }
        }
        rows::RowPlan::Reduce => Strategy::Serial,
    }
}

/// The node whose buffer `n` can share instead of computing: a `contiguous` of a buffer, or a
/// reshape (same elements, same order) of a value that has or gets a buffer.
fn alias_of(n: &Arc<Node>, realize: &HashSet<u64>) -> Option<Arc<Node>> {
    let src = n.srcs().into_iter().next()?;
    let stored = src.is_realized() || matches!(src.op(), Op::Buffer);
    match n.op() {
        Op::Contiguous if stored => Some(src),
        Op::Reshape if stored || realize.contains(&src.id()) => Some(src),
        _ => None,
    }
}

/// Gathers the inputs of one kernel and picks how it maps onto the device. Where `reshapes`,
/// a reduction that would be tiled but for its ragged last axis may be computed over its
/// trailing axes merged (`merge_axes`).
fn plan_kernel(
    root: Arc<Node>,
    body: Arc<Node>,
    realize: &HashSet<u64>,
    class: &ClassDefaults,
    reshapes: bool,
) -> Kernel {
    // kernels from templates bind their sources in their order (a scan's values, then its
    // carries), all buffers: no region to walk (the join of a split attention is the
    // attention's root over a body of ops, not its template)
    let template = match body.op() {
        _ if body.id() != root.id() => None,
        Op::MergeRuns(_) => Some(class.merge(root.shape())),
        Op::SortRuns(run) => Some(Strategy::Sort {
            words: *root.shape().last().expect("records of words"),
            run: *run,
        }),
        Op::ScanRuns(op, _) => Some(Strategy::Scan { op: *op }),
        Op::Attention(pass, mask, dropout) => {
            let srcs = root.srcs();
            let width = |n: &Arc<Node>| *n.shape().last().expect("rows of an attention");
            Some(class.attention(
                *pass,
                *mask,
                *dropout,
                width(&srcs[0]),
                width(&srcs[2]),
                root.numel() / width(&root),
            ))
        }
        _ => None,
    };
    if let Some(strategy) = template {
        return Kernel {
            strategy,
            inputs: root.srcs(),
            root,
            body,
            split_of: None,
            row_plan: false,
            also: Vec::new(),
        };
    }
    let mut realize = realize.clone();
    realize.remove(&root.id());
    let (inputs, max_trip) = region_inputs(&body, &realize);
    // register blocking wins over a cooperative reduction too (a 64 x 784 x 128 matmul: 512
    // tiles of 16 outputs instead of 2,048 workgroups of 64 threads for 4 outputs each) as
    // long as the tiles fill at least one workgroup; the device class may make them bigger
    let plain = strategy(crate::kernel::domain_numel(&root), max_trip, class);
    let tiles = |body: &Node, inputs: &[Arc<Node>]| {
        worth_tiling(body, inputs, max_trip)
            && (plain == Strategy::Serial
                || root.numel() / (BASE_ROWS * LANES) >= TILE_MIN_INVOCATIONS)
    };
    let (body, inputs, strategy) = if tiles(&body, &inputs) {
        let strategy = class.tile(body.shape());
        (body, inputs, strategy)
    } else {
        let merged = (reshapes && max_trip >= TILE_MIN_TRIP)
            .then(|| merge_axes::merged(&body, &realize))
            .flatten()
            .map(|merged| {
                let (inputs, _) = region_inputs(&merged, &realize);
                (merged, inputs)
            })
            .filter(|(merged, inputs)| tiles(merged, inputs));
        match merged {
            Some((merged, inputs)) => {
                let strategy = class.tile(merged.shape());
                (merged, inputs, strategy)
            }
            None => (body, inputs, plain),
        }
    };
    Kernel {
        strategy,
        root,
        body,
        inputs,
        split_of: None,
        row_plan: false,
        also: Vec::new(),
    }
}

/// The buffers a kernel computing `body` reads (in the order its region meets them), and the
/// longest reduction in it.
fn region_inputs(body: &Arc<Node>, realize: &HashSet<u64>) -> (Vec<Arc<Node>>, usize) {
    let mut inputs: Vec<Arc<Node>> = Vec::new();
    let mut max_trip = 0usize;
    walk_region(
        body,
        realize,
        &mut |n, _| {
            if let Op::Reduce(_, axes) = n.op() {
                let src = &n.srcs()[0];
                max_trip = max_trip.max(axes.iter().map(|&a| src.shape()[a]).product());
            }
        },
        &mut |n| {
            if !inputs.iter().any(|i| i.id() == n.id()) {
                inputs.push(n.clone());
            }
        },
    );
    if let Op::Reduce(_, axes) = body.op() {
        let src = &body.srcs()[0];
        max_trip = max_trip.max(axes.iter().map(|&a| src.shape()[a]).product());
    }
    (inputs, max_trip)
}

/// The shortest reduction a CPU keeps cooperative where serial invocations would fill its
/// lanes but not a workgroup per core: a serial chain this long rounds at every step (an f32
/// product of 2^24 elements in 256 serial chains of 2^16 drifted 3%; in a workgroup's 64
/// shorter chains and its combines it keeps to the fixture's tolerance).
const LONG_SERIAL_TRIP: usize = 4096;

/// Long reductions over few outputs split across a workgroup; the rest run one invocation
/// per `LANES` outputs. On a CPU a workgroup's barriers and combines cost more than they
/// share wherever serial invocations fill every core's SIMD lanes
/// (`ClassDefaults::lanes`), unless the reduction is long ([`LONG_SERIAL_TRIP`]) and the
/// invocations fewer than a workgroup per core: 4096 row sums of 1024 take 1.7 ms serial and
/// 3.2 cooperative on lavapipe, and a language model's decode step, whose matrix-vector
/// products have 768 and 1280 outputs, ran 14-17 tokens/s with those cooperative and 26-29
/// serial (small Q8_0 model, the two binaries in turn). On a CPU a short
/// reduction (under 256) stays serial however few its outputs, its invocations in workgroups
/// that split over the cores (`target::balanced_threads`): tinygpt's step sums rows of 64
/// into 1024 outputs 20 times, and took 135-187 ms of CPU time (wall 72-148 ms) with those
/// cooperative, 109-142 ms (wall 62-93 ms) serial (lavapipe, 2 cores, 5 runs each in turn).
fn strategy(numel: usize, trip: usize, class: &ClassDefaults) -> Strategy {
    let groups = numel.div_ceil(LANES);
    let few = trip >= 256 && groups <= 16384 || !class.is_cpu() && trip >= 64 && groups <= 256;
    let cooperative = !class.is_cpu()
        || groups < class.lanes()
        || groups < class.busy && trip >= LONG_SERIAL_TRIP;
    if few && cooperative {
        Strategy::Cooperative {
            threads: COOP_THREADS,
        }
    } else {
        Strategy::Serial
    }
}

/// The shortest reduction worth tiling: a tile shares its loads across the steps it takes.
const TILE_MIN_TRIP: usize = 16;

/// The fewest invocations (one workgroup) a tiled kernel must have to replace a cooperative
/// one.
const TILE_MIN_INVOCATIONS: usize = 256;

/// Whether one invocation of a reduction kernel should compute several rows of outputs
/// (register blocking): when an input is read several times over (a matmul's operands are
/// read once per row or column of the output), so rows that share its values load them
/// once, and an output axis takes a tile of [`BASE_ROWS`] ([`tile_axes`]; lowering picks
/// among them).
fn worth_tiling(root: &Node, inputs: &[Arc<Node>], trip: usize) -> bool {
    let rows = BASE_ROWS as u128;
    let reads = (root.numel() as u128) * (trip as u128);
    let reused = inputs
        .iter()
        .any(|i| (i.numel() as u128) * rows <= reads / rows);
    let axis = !tile_axes(root.shape(), BASE_ROWS, 1).is_empty();
    trip >= TILE_MIN_TRIP && axis && reused
}

/// The reduced axes' total length of a reduce node (1 for other nodes).
fn trip(n: &Node) -> usize {
    match (n.op(), n.srcs().first()) {
        (Op::Reduce(_, axes), Some(src)) => axes.iter().map(|&a| src.shape()[a]).product(),
        _ => 1,
    }
}

/// The reduce nodes a kernel evaluates: its body, if a reduction, and those fused into it.
fn reductions_in(k: &Kernel) -> Vec<Arc<Node>> {
    let mut realize: HashSet<u64> = k.inputs.iter().map(|n| n.id()).collect();
    realize.remove(&k.body.id());
    let mut found = Vec::new();
    if matches!(k.body.op(), Op::Reduce(..)) {
        found.push(k.body.clone());
    }
    walk_region(
        &k.body,
        &realize,
        &mut |n, _| {
            if matches!(n.op(), Op::Reduce(..)) && !found.iter().any(|f| f.id() == n.id()) {
                found.push(n.clone());
            }
        },
        &mut |_| {},
    );
    found
}
