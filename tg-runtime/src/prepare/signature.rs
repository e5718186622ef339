//! A structural key of a kernel: two kernels with equal keys lower to the same shader, so a
//! realize of a graph shaped like an earlier one reuses its prepared kernels without lowering,
//! rendering or hashing GLSL again.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use crate::graph::node::Node;
use crate::graph::walk::post_order;
use crate::kernel::Kernel;

/// 128 bits from two differently seeded hashes of the kernel's structure.
pub fn signature(k: &Kernel) -> (u64, u64) {
    let mut a = DefaultHasher::new();
    let mut b = DefaultHasher::new();
    0x7467_u16.hash(&mut b);
    let inputs: HashMap<u64, usize> = k
        .inputs
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id(), i))
        .collect();
    for n in &k.inputs {
        // an application's buffer is never read as texels (`Program::texels`)
        let external = n.buffer().is_some_and(|b| b.is_external());
        (n.dtype(), n.shape(), external).hash(&mut a);
        (n.dtype(), n.shape(), external).hash(&mut b);
    }
    (format!("{:?}", k.strategy), k.row_plan).hash(&mut a);
    (format!("{:?}", k.strategy), k.row_plan).hash(&mut b);
    // nodes numbered in first-visit order of a depth-first walk; inputs by their index
    let input = |n: &Arc<Node>| inputs.get(&n.id()).filter(|_| n.id() != k.body.id());
    let mut local: HashMap<u64, usize> = HashMap::new();
    // a multi-output kernel's further roots are outputs too, in their order
    let roots: Vec<Arc<Node>> = std::iter::once(&k.body).chain(&k.also).cloned().collect();
    let also: Vec<u64> = k.also.iter().map(|n| n.id()).collect();
    let order = post_order(&roots, |n| match input(n) {
        Some(_) => Vec::new(),
        None => n.srcs(),
    });
    for n in order {
        if let Some(i) = input(&n) {
            local.insert(n.id(), usize::MAX - i);
            continue;
        }
        let srcs = n.srcs();
        let id = local.len();
        local.insert(n.id(), id);
        let src_ids: Vec<usize> = srcs.iter().map(|s| local[&s.id()]).collect();
        (n.op(), n.dtype(), n.shape(), &src_ids).hash(&mut a);
        (id, n.op(), n.dtype(), n.shape(), &src_ids).hash(&mut b);
    }
    let outputs: Vec<usize> = also.iter().map(|id| local[id]).collect();
    outputs.hash(&mut a);
    outputs.hash(&mut b);
    (a.finish(), b.finish())
}
