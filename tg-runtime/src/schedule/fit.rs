//! Fitting a schedule to the device's loop budget.
//!
//! llvmpipe ends every loop of an invocation silently once the invocation has taken 65,535
//! back-edges in total, so a kernel that loops longer computes a partial result with no
//! error. Codegen counts each kernel's back-edges exactly (`Shader::loops`); here a kernel
//! over the budget is re-planned until all fit: a row plan (reductions kept per row inside
//! one kernel) gives its reductions kernels of their own, and a reduction is split into
//! chunks short enough for one invocation, halving the chunk while the partial pass is still
//! over; so is a fused attention's pass, its keys (or queries) in chunks
//! (`attention_split.rs`). Devices without a budget take the first plan unchanged.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::{CostFn, Schedule, plan_once, reductions_in, trip};
use crate::error::{Error, Result};
use crate::graph::node::Node;
use crate::kernel::Kernel;
use crate::target::Target;

/// Planning passes before giving up; each pass re-plans every kernel over the budget at once.
const MAX_ROUNDS: usize = 24;

/// The re-planning decisions taken so far, keyed by nodes of the graph being realized.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Reductions split into chunks of at most this many elements.
    max_chunk: HashMap<u64, usize>,
    /// Kernel roots whose broadcast reductions get kernels of their own.
    flat: HashSet<u64>,
    /// Attention passes split into passes over chunks of their loop of at most this length.
    attention_chunk: HashMap<u64, usize>,
    /// Buffers a kernel may read beside its output (the target's bindings less one); `None`
    /// where the target names no limit (a described device).
    max_inputs: Option<usize>,
}

impl Plan {
    /// The plan before any refinement, for `target`.
    fn of(target: &Target) -> Plan {
        Plan {
            max_inputs: (target.bindings > 0).then(|| (target.bindings as usize - 1).max(2)),
            ..Plan::default()
        }
    }

    /// Buffers a kernel may read beside its output, if the target limits them.
    pub fn max_inputs(&self) -> Option<usize> {
        self.max_inputs
    }

    /// Is the row plan of the kernel rooted at `root` dropped?
    pub fn is_flat(&self, root: u64) -> bool {
        self.flat.contains(&root)
    }

    /// The longest chunk of its loop attention pass `node` is split into, if the plan
    /// bounds it.
    pub fn attention_chunk(&self, node: u64) -> Option<usize> {
        self.attention_chunk.get(&node).copied()
    }

    /// The longest chunk reduction `node` may be split into, if the plan bounds it.
    pub fn max_chunk(&self, node: u64) -> Option<usize> {
        self.max_chunk.get(&node).copied()
    }

    /// Re-plans kernel `k`, which takes `loops` back-edges per invocation against `budget`.
    fn refine(&mut self, k: &Kernel, loops: u64, budget: u64) -> Result<()> {
        let over = || {
            Error::internal(
                "schedule",
                format!(
                    "kernel {:?} needs {loops} loop iterations per invocation, over this \
                     device's budget of {budget}, and cannot be split further",
                    k.root
                ),
            )
        };
        if k.row_plan && self.flat.insert(k.root.id()) {
            return Ok(());
        }
        // an attention's pass, or a chunk's pass of one already split: shorter chunks
        let attention = super::attention_split::looped(&k.root).map(|len| {
            let target = k.split_of.unwrap_or(k.root.id());
            let current = self.attention_chunk(target).unwrap_or(len);
            (target, current)
        });
        let (target, current) = match (attention, k.split_of) {
            (Some(found), _) => found,
            // the partial pass of a split: shorter chunks
            (None, Some(r)) if r != k.root.id() => {
                let n = reductions_in(k).into_iter().next().ok_or_else(over)?;
                (r, trip(&n))
            }
            // the final pass of a split reduces one value per chunk: more chunks cannot help
            (None, Some(_)) => return Err(over()),
            (None, None) => {
                let n: Arc<Node> = reductions_in(k)
                    .into_iter()
                    .max_by_key(|n| trip(n))
                    .ok_or_else(over)?;
                let c = self.max_chunk(n.id()).unwrap_or(trip(&n));
                (n.id(), c)
            }
        };
        // first bound: half the budget (a serial loop of one element per back-edge fits);
        // then shrink in proportion to the excess, at least by half
        let first = 1usize << (budget / 2).max(1).ilog2();
        let scaled = (current as u128 * budget as u128 / loops.max(1) as u128) as usize;
        let next = current.min(first).min(scaled).min(current / 2).max(1);
        if next >= current || current <= 1 {
            return Err(over());
        }
        match attention {
            Some(_) => self.attention_chunk.insert(target, next),
            None => self.max_chunk.insert(target, next),
        };
        Ok(())
    }
}

/// Plans `targets` and re-plans until every kernel fits `target`'s loop budget (see the
/// module docs).
pub fn fit(targets: &[Arc<Node>], target: &Target, cost: CostFn) -> Result<Schedule> {
    let mut plan = Plan::of(target);
    let Some(budget) = target.loop_budget else {
        return plan_once(targets, &plan, &target.defaults);
    };
    for _ in 0..MAX_ROUNDS {
        let sched = plan_once(targets, &plan, &target.defaults)?;
        let mut refined = false;
        for k in &sched.kernels {
            let loops = cost(k)?;
            if loops > budget {
                plan.refine(k, loops, budget)?;
                refined = true;
            }
        }
        if !refined {
            return Ok(sched);
        }
    }
    Err(Error::internal(
        "schedule",
        format!("no plan within the loop budget of {budget} after {MAX_ROUNDS} passes"),
    ))
}
